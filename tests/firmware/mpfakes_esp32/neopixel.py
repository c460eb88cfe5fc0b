# Fake `neopixel` (the ESP32 port's, driven by machine.bitstream over RMT): keeps the buffer,
# counts writes and keeps what the last write sent.
class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(bpp * n)
        self.writes = 0
        self.sent = b""

    def write(self):
        self.writes += 1
        self.sent = bytes(self.buf)
