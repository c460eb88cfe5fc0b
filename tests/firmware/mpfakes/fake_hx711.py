# Pin-level fakes of HX711 chips on one shared clock, for driver tests under MicroPython.
#
# Behaves like the datasheet: a conversion completes every period (12.5 ms: 80/s); DOUT is high
# while converting and falls when data is ready; each SCK rising edge shifts out the next bit,
# MSB first, 24-bit two's complement; the 25th pulse pulls DOUT high. The pulse count of a read
# selects the input of the conversions after it (25 = channel A gain 128, 26 = channel B gain
# 32, 27 = channel A gain 64); after such a change the next 4 conversions are not settled
# (GARBAGE). SCK high for more than 60 us powers the chip down (DOUT high, no conversions); when
# SCK falls again it restarts at channel A gain 128 and its first 4 conversions (~50 ms) are
# GARBAGE too. A `dead` chip never pulls DOUT low. Time is a fake microsecond clock: every pin
# access takes 1 us and tests move it on with clock.advance().

GARBAGE = 0x2AAAAA  # what an unsettled conversion gives here: a plausible-looking wrong value


class Clock:
    def __init__(self):
        self.us = 0

    def advance(self, us):
        self.us += us

    def ms(self):
        return self.us // 1000


class FakeHX711:
    def __init__(self, clock, values, period_us=12500, phase_us=0, b_values=None):
        self.clock = clock
        self.values = values  # channel A conversion k reads values[k % len(values)]
        self.b_values = b_values or [v >> 2 for v in values]  # channel B (its own input)
        self.period = period_us
        self.start = phase_us  # conversions complete at start + (k + 1) * period
        self.garbage_until = 0  # conversions completing up to this time are not settled
        self.mode = 25  # pulses of the last read: the input of the next conversions
        self.dead = False
        self.pulses = 0  # pulses of the read in progress
        self.latched = 0  # the word being shifted out
        self.read_k = -1  # conversion being read (or last read)
        self.bit = 1  # what DOUT shows during a read
        self.gain_pulses = []  # total pulses of each completed read
        self.midconversion = 0  # rising edges while DOUT said "not ready"
        self.high_since = None  # SCK high since (us), None while low
        self.max_high_us = 0
        self.power_downs = 0
        self.fell = 0  # when SCK last fell (us)
        self.read_delays = []  # per read: us from DOUT falling (data ready) to its first pulse

    def _done(self):
        # Index of the last completed conversion now (-1: none yet).
        t = self.clock.us
        if t < self.start + self.period:
            return -1
        return (t - self.start) // self.period - 1

    def _value(self, k):
        done_at = self.start + (k + 1) * self.period
        if done_at <= self.garbage_until:
            return GARBAGE
        if self.mode == 26:
            return self.b_values[k % len(self.b_values)]
        v = self.values[k % len(self.values)]
        return v >> 1 if self.mode == 27 else v  # gain 64: half the counts of gain 128

    def powered_down(self):
        hs = self.high_since
        return hs is not None and self.clock.us - hs > 60

    def _finish(self):
        # A read ends when the pulses stop (25-27 of them): its count selects the next input.
        self.gain_pulses.append(self.pulses)
        if self.pulses != self.mode:
            self.mode = self.pulses
            # The conversion running now and the next 3 are not settled.
            self.garbage_until = self.start + (self._done() + 5) * self.period
        self.pulses = 0

    def _idle(self):
        if self.pulses >= 25 and self.high_since is None and self.clock.us - self.fell > 20:
            self._finish()

    def between_reads(self):
        """True when no word is being shifted out (a read's pulses have stopped)."""
        self._idle()
        return self.pulses == 0

    def dout(self):
        self._idle()
        if self.dead or self.powered_down():
            return 1
        if self.pulses:
            return self.bit
        k = self._done()
        return 0 if k > self.read_k else 1

    def rise(self):
        self._idle()
        self.high_since = self.clock.us
        if self.dead:
            return
        if self.pulses == 0:
            k = self._done()
            if k <= self.read_k:
                self.midconversion += 1  # clocked while converting: garbage for the reader
                return
            self.read_k = k
            self.latched = self._value(k) & 0xFFFFFF
            self.read_delays.append(self.clock.us - (self.start + (k + 1) * self.period))
        self.pulses += 1
        if self.pulses <= 24:
            self.bit = (self.latched >> (24 - self.pulses)) & 1
        else:
            self.bit = 1  # the 25th pulse pulls DOUT high

    def fall(self):
        now = self.clock.us
        high = now - self.high_since
        self.high_since = None
        self.fell = now
        self.max_high_us = max(self.max_high_us, high)
        if high > 60:  # it was powered down: restart at A/128, unsettled for 4 conversions
            self.power_downs += 1
            self.pulses = 0
            self.mode = 25
            self.start = now
            self.read_k = -1
            self.garbage_until = now + 4 * self.period
            return
        if self.pulses >= 27:
            self._finish()


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
