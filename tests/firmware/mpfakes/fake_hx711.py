# Pin-level fakes of HX711 chips on one shared clock, for driver tests under MicroPython.
#
# Behaves like the datasheet: conversions complete every period (80/s); DOUT is high while
# converting and falls when data is ready; each SCK rising edge shifts out the next bit, MSB
# first, 24-bit two's complement; the 25th pulse pulls DOUT high (26/27 pulses select other
# gains); SCK high for more than 60 us powers the chip down, and after SCK falls again it needs
# 4 conversion periods to settle. Time is a fake microsecond clock: every pin access takes 1 us
# and tests move it on with clock.advance().


class Clock:
    def __init__(self):
        self.us = 0

    def advance(self, us):
        self.us += us


class FakeHX711:
    def __init__(self, clock, values, period_us=12500, phase_us=0):
        self.clock = clock
        self.values = values  # conversion k reads values[k % len(values)]
        self.period = period_us
        self.phase = phase_us
        self.settle_until = 0  # after a power-down: no data before this time
        self.pulses = 0  # pulses of the read in progress
        self.latched = 0  # the word being shifted out
        self.read_k = -1  # conversion being read (or last read)
        self.bit = 1  # what DOUT shows during a read
        self.gain_pulses = []  # total pulses of each completed read
        self.midconversion = 0  # rising edges while DOUT said "not ready"
        self.high_since = None  # SCK high since (us), None while low
        self.max_high_us = 0
        self.power_downs = 0

    def _done(self):
        # Index of the last completed conversion now (-1: none yet, or still settling).
        t = self.clock.us
        if t < self.settle_until or t < self.phase + self.period:
            return -1
        return (t - self.phase) // self.period - 1

    def powered_down(self):
        hs = self.high_since
        return hs is not None and self.clock.us - hs > 60

    def dout(self):
        if self.powered_down():
            return 1
        if self.pulses:
            return self.bit
        return 0 if self._done() > self.read_k else 1

    def rise(self):
        self.high_since = self.clock.us
        if self.pulses == 0:
            k = self._done()
            if k <= self.read_k:
                self.midconversion += 1  # clocked while converting: garbage for the reader
                return
            self.read_k = k
            self.latched = self.values[k % len(self.values)] & 0xFFFFFF
        self.pulses += 1
        if self.pulses <= 24:
            self.bit = (self.latched >> (24 - self.pulses)) & 1
        else:
            self.bit = 1  # the 25th pulse pulls DOUT high

    def fall(self):
        high = self.clock.us - self.high_since
        self.high_since = None
        self.max_high_us = max(self.max_high_us, high)
        if high > 60:  # it was powered down: restart, settle for 4 conversions
            self.power_downs += 1
            self.pulses = 0
            self.settle_until = self.clock.us + 4 * self.period
            self.read_k = (self.settle_until - self.phase) // self.period - 1
            return
        if self.pulses >= 25:
            self.gain_pulses.append(self.pulses)
            self.pulses = 0


class SckPin:
    def __init__(self, clock, chips):
        self.clock = clock
        self.chips = chips
        self.level = 0

    def value(self, v=None):
        self.clock.advance(1)
        if v is None:
            return self.level
        v = 1 if v else 0
        if v != self.level:
            self.level = v
            for chip in self.chips:
                if v:
                    chip.rise()
                else:
                    chip.fall()
        return None


class DoutPin:
    def __init__(self, clock, chip):
        self.clock = clock
        self.chip = chip

    def value(self, v=None):
        self.clock.advance(1)
        return self.chip.dout()


def bus(values_per_chip, period_us=12500, phases=None):
    """A clock, the chips, the shared SCK pin and each chip's DOUT pin."""
    clock = Clock()
    phases = phases or [0] * len(values_per_chip)
    chips = [FakeHX711(clock, v, period_us, phases[i]) for i, v in enumerate(values_per_chip)]
    return clock, chips, SckPin(clock, chips), [DoutPin(clock, c) for c in chips]
