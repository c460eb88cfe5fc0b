# LIS3DH accelerometer in the tower's base (I2C), read once per load-cell sample.
#
# Why the LIS3DH: common and cheap on 3.3 V breakouts, I2C, and in high-resolution mode at
# +-2 g it gives 12 bits at 1 mg per digit (a 5 degree lean is ~87 mg: plenty of resolution);
# 100 Hz output matches the 80/s sampling; block data update keeps a reading's bytes together.
# The bus object is passed in (machine.I2C on the board, a fake in tests); buffers are
# preallocated so read() never allocates while the bus works. An I2C error makes read() return
# False: the board turns that into an "accel" fault.

from tablefw.compat import const

ADDR = const(0x18)  # SDO/SA0 low
WHO_AM_I = const(0x0F)
CHIP_ID = const(0x33)
CTRL_REG1 = const(0x20)
CTRL_REG4 = const(0x23)
OUT_X_L = const(0x28)
AUTO_INCREMENT = const(0x80)  # register address bit 7: read several registers in one go
REG1_100HZ_XYZ = const(0x57)  # ODR 100 Hz, normal power, X/Y/Z on
REG4_BDU_HR_2G = const(0x88)  # block data update, high resolution, +-2 g (1 mg per digit)


def _mg(lo, hi):
    # 12-bit left-justified two's complement -> milli-g (1 mg/digit in HR mode at +-2 g).
    v = lo | hi << 8
    if v & 0x8000:
        v -= 0x10000
    return v >> 4


class LIS3DH:
    def __init__(self, i2c, addr=ADDR):
        self.i2c = i2c
        self.addr = addr
        self._buf = bytearray(6)
        self._id = bytearray(1)
        self.ok = False

    def init(self):
        """Check the chip is there and start it; False (and `ok` False) if it does not answer."""
        try:
            self.i2c.readfrom_mem_into(self.addr, WHO_AM_I, self._id)
            if self._id[0] != CHIP_ID:
                self.ok = False
                return False
            self.i2c.writeto_mem(self.addr, CTRL_REG1, bytes((REG1_100HZ_XYZ,)))
            self.i2c.writeto_mem(self.addr, CTRL_REG4, bytes((REG4_BDU_HR_2G,)))
        except OSError:
            self.ok = False
            return False
        self.ok = True
        return True

    def read(self, out):
        """Fill out[0:3] with x, y, z in milli-g; False if the bus failed (out unchanged)."""
        b = self._buf
        try:
            self.i2c.readfrom_mem_into(self.addr, OUT_X_L | AUTO_INCREMENT, b)
        except OSError:
            self.ok = False
            return False
        out[0] = _mg(b[0], b[1])
        out[1] = _mg(b[2], b[3])
        out[2] = _mg(b[4], b[5])
        self.ok = True
        return True
