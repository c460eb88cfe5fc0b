# Fake `neopixel`: keeps the buffer and counts writes.
class NeoPixel:
    def __init__(self, pin, n):
        self.pin = pin
        self.n = n
        self.buf = bytearray(3 * n)
        self.writes = 0

    def write(self):
        self.writes += 1
