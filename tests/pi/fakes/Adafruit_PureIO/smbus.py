# Fake Adafruit_PureIO.smbus: /dev/i2c-1 of the Pi with fakepi's LIS3DH on it. A transfer to an
# address nobody answers (or to a failing accelerometer) raises OSError EREMOTEIO, as Linux's
# I2C drivers report a NACK.

import fakepi


class SMBus:
    def __init__(self, bus=None):
        if bus is not None:
            self.open(bus)

    def open(self, bus):
        if bus != 1:
            raise FileNotFoundError(2, "No such file or directory", f"/dev/i2c-{bus}")
        self._world = fakepi.world()

    def close(self):
        pass

    def _device(self, addr):
        world = self._world
        if world.accel_failing():
            raise OSError(fakepi.EREMOTEIO, "Remote I/O error")
        try:
            world.accel._check(addr)
        except OSError:
            raise OSError(fakepi.EREMOTEIO, "Remote I/O error") from None
        return world.accel

    def read_i2c_block_data(self, addr, cmd, length=32):
        device = self._device(addr)
        reg = cmd if isinstance(cmd, int) else cmd[0]
        out = bytearray(length)
        device.readfrom_mem_into(addr, reg, out)
        return out

    def write_bytes(self, addr, buf):
        device = self._device(addr)
        data = bytes(buf)
        if len(data) >= 2:
            device.writeto_mem(addr, data[0], data[1:])

    def read_bytes(self, addr, number):
        self._device(addr)
        return bytearray(number)

    def write_quick(self, addr):
        self._device(addr)

    def read_byte(self, addr):
        self._device(addr)
        return 0
