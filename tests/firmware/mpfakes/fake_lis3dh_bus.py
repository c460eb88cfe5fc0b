# A LIS3DH at 0x18 on an I2C bus, for the fake `machine` modules of each board: the register
# file, auto-increment reads (bit 7 of the register address), and a `dead` switch that makes
# every transfer fail with the errno the board's port raises for a device that does not answer.


class LIS3DHBus:
    regs = bytearray(0x40)
    dead = False
    errno = 5  # EIO (rp2); a board's I2C subclass sets its own

    def _reset(self):
        self.regs[0x0F] = 0x33  # WHO_AM_I

    def _check(self, addr):
        if type(self).dead or addr != 0x18:
            raise OSError(self.errno)

    def readfrom_mem_into(self, addr, reg, buf):
        self._check(addr)
        start = reg & 0x7F
        for i in range(len(buf)):
            buf[i] = self.regs[start + (i if reg & 0x80 else 0)]

    def writeto_mem(self, addr, reg, data):
        self._check(addr)
        self.regs[reg] = data[0]
