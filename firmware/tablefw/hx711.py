# HX711 24-bit load-cell ADCs, several on one shared clock (SCK), each with its own DOUT.
#
# Datasheet facts this follows: DOUT is high while a conversion runs and falls when data is
# ready (~80/s with RATE high); each SCK pulse shifts out one bit, MSB first, 24-bit two's
# complement; 25 pulses in all select channel A gain 128 for the next conversion (26 = B/32,
# 27 = A/64); SCK held high for more than 60 us powers the chip down, and after power-up (or a
# channel/gain change) the output needs 4 conversions (~50 ms at 80/s) to settle: data read
# meanwhile is not valid.
#
# Two readers with one API (ready, read, set_gain, power_down, power_up, dead):
#   HX711Bus(sck, douts, irq_off, irq_on)  GPIO (here): bit-banged, interrupts off only while
#                                           SCK is high; used where there is no PIO, as the
#                                           RP2040's fallback when a chip stops answering, and
#                                           in tests (hardware passed in: pin-level fakes).
#   HX711PIO(sck, douts)                    RP2040 (tablefw/hx711_pio.py): a PIO program clocks
#                                           SCK and samples all DOUT pins per bit (`in pins,
#                                           4`), 24 bits per pushed word; unpack_pio (here)
#                                           untangles them.
# and one validator for both, Validator: per chip, rail values (saturated 0x7FFFFF/0x800000,
# what a chip with a loose wire or no chip at all gives) and a value repeated STUCK_N times
# (DOUT stuck low clocks out the same bits forever) are no reading (MISSING); the rest goes
# through a median of the last 3 readings, so a single wild value (a bit error) never passes;
# a reading 2**20 counts off the last (a high bit error: ~450 g on a 1 kg cell) is no reading
# either, for up to two in a row, so the median never passes a lesser bit error beside it.
# Everything here is allocation-free per reading (heap_lock tests).

import array
import time

from tablefw.compat import const, ticks_diff
from tablefw.median import gross, median3
from tablefw.reading import MISSING, RAIL_HI, RAIL_LO, signed24

BITS = const(24)
PULSES_A128 = const(25)  # 24 data bits + 1: channel A, gain 128
PULSES_B32 = const(26)
PULSES_A64 = const(27)
POWER_DOWN_US = const(60)  # SCK high longer than this powers the chip down
SETTLE_MS = const(65)  # 4 conversions to settle at 80/s, + one period of margin (78-92 Hz)
STEP_MS = const(40)  # a chip not ready this long (3 conversions at 80/s) is out of step: reset
DEAD_MS = const(500)  # a chip not ready this long is read around (MISSING) by HX711Bus
GROSS_SPIKE = const(65535)  # median.gross: a jump of 16 x (this + 1) = 2**20 counts is gross
STUCK_N = const(40)  # the same raw value this many times in a row (0.5 s): a dead chip
PIO_WORDS = const(4)  # 24 bits x 4 chips = 96 bits = 4 words of 24 bits


class HX711Bus:
    """Chips sharing one clock pin `sck`, each with its own data pin in `douts` (GPIO reader).

    `irq_off()` -> state and `irq_on(state)` (e.g. machine.disable_irq / enable_irq) bracket
    each clock-high phase so an interrupt cannot stretch it past POWER_DOWN_US. `clock_ms()`
    (time.ticks_ms on a board) times dead chips and settling. read() never waits: it reads once
    every chip still answering has data. A chip whose DOUT has not fallen for STEP_MS is out
    of step with the clock (it counted a pulse the others did not, or missed one): the chips
    are reset, once, by a power-down. One still silent DEAD_MS later is read around (MISSING)
    until it answers again, so one dead chip cannot stop the others.
    """

    def __init__(self, sck, douts, irq_off=None, irq_on=None, pulses=PULSES_A128, clock_ms=None):
        self.sck = sck
        self.douts = tuple(douts)
        self.irq_off = irq_off
        self.irq_on = irq_on
        self.pulses = pulses
        self.clock_ms = clock_ms or time.ticks_ms
        n = len(self.douts)
        self._raw = array.array("i", [0] * n)
        now = self.clock_ms()
        self._seen = [now] * n  # when each chip last had data ready (ticks: a list of them)
        self._settle_from = now  # readings before SETTLE_MS from here are not valid yet
        self._switch = pulses != PULSES_A128  # the next read changes the chips' gain
        self.dead = 0  # bitmask: chips read around
        self._reset_for = 0  # bitmask: chips silent since a reset made for them
        self._resetting = None  # while SCK is held high to reset the chips: since when (ms)
        sck.value(0)

    def ready(self):
        """True when every chip still answering has finished a conversion (DOUT low)."""
        now = self.clock_ms()
        douts = self.douts
        seen = self._seen
        waiting = False
        if self._resetting is not None:
            # Two ticks of the ms clock apart: SCK was high at least 1 ms, far past 60 us.
            if ticks_diff(now, self._resetting) >= 2:
                self._resetting = None
                self.power_up()
            return False
        for i in range(len(douts)):
            bit = 1 << i
            if not douts[i].value():
                seen[i] = now
                self.dead &= ~bit
                self._reset_for &= ~bit
            elif self.dead & bit:
                pass  # read around until it answers again
            elif ticks_diff(now, seen[i]) > DEAD_MS:
                self.dead |= bit
            elif ticks_diff(now, seen[i]) > STEP_MS and not self._reset_for & bit:
                # Out of step: a power-down brings every chip on the clock back to its
                # first bit (readings stop for SETTLE_MS). Once per silence: a chip truly
                # gone is read around after DEAD_MS.
                self._reset_for |= bit
                self.reset()
                return False
            else:
                waiting = True
        return not waiting and self.dead != (1 << len(douts)) - 1

    def read(self, out):
        """Read every answering chip into out[] (signed counts; MISSING for a dead chip) once
        all have data; False (nothing clocked) if not yet, or while the chips settle (the
        reading is clocked out and dropped)."""
        if not self.ready():
            return False
        douts = self.douts
        n = len(douts)
        raw = self._raw
        for i in range(n):
            raw[i] = 0
        for _ in range(BITS):
            self._pulse()
            for i in range(n):
                raw[i] = (raw[i] << 1) | douts[i].value()
        for _ in range(self.pulses - BITS):
            self._pulse()  # selects channel and gain of the next conversion
        if self._switch:
            self._switch = False
            self._settle_from = self.clock_ms()  # the new gain from the next conversion on
        if ticks_diff(self.clock_ms(), self._settle_from) < SETTLE_MS:
            return False
        dead = self.dead
        for i in range(n):
            out[i] = MISSING if dead & (1 << i) else signed24(raw[i])
        return True

    def set_gain(self, pulses):
        """25 = channel A gain 128, 26 = B gain 32, 27 = A gain 64: used from the next read on;
        the chips then settle (readings dropped for SETTLE_MS after that read)."""
        if pulses != self.pulses:
            self.pulses = pulses
            self._switch = True

    def _pulse(self):
        sck = self.sck
        irq_off = self.irq_off
        irq_on = self.irq_on
        if irq_off is None or irq_on is None:
            sck.value(1)
            sck.value(0)
        else:
            state = irq_off()
            sck.value(1)
            sck.value(0)
            irq_on(state)

    def reset(self):
        """Power the chips down and, at a ready() call at least 1 ms later, up again: every
        chip restarts at its first bit, whatever pulses it counted (never waits)."""
        self.power_down()
        self._resetting = self.clock_ms()

    def power_down(self):
        """Hold SCK high (> POWER_DOWN_US): the chips stop converting."""
        self.sck.value(1)

    def power_up(self):
        """SCK low again: the chips restart at channel A gain 128 and settle for 4 conversions
        (readings meanwhile are dropped)."""
        self.sck.value(0)
        now = self.clock_ms()
        self._settle_from = now
        for i in range(len(self._seen)):
            self._seen[i] = now
        self._switch = self.pulses != PULSES_A128  # the chips forgot it: the next read


def unpack_pio(words, out):
    """Untangle PIO_WORDS pushed words (6 bits per chip each, MSB first) into signed counts.

    Bit k of each 4-bit group is the DOUT pin in_base + k, i.e. chip k.
    """
    a = b = c = d = 0
    for w in range(PIO_WORDS):
        word = words[w]
        shift = 20
        while shift >= 0:
            nib = word >> shift
            a = (a << 1) | (nib & 1)
            b = (b << 1) | ((nib >> 1) & 1)
            c = (c << 1) | ((nib >> 2) & 1)
            d = (d << 1) | ((nib >> 3) & 1)
            shift -= 4
    out[0] = signed24(a)
    out[1] = signed24(b)
    out[2] = signed24(c)
    out[3] = signed24(d)


class Validator:
    """Per chip: no reading for rail values and stuck chips, else the median of the last 3
    readings. filter(raw, out) -> bitmask of the chips that gave a valid reading."""

    def __init__(self, n):
        self.n = n
        self._hist = array.array("i", [0] * (3 * n))  # last three valid readings per chip
        self._count = bytearray(n)  # valid readings so far (up to 3)
        self._next = bytearray(n)  # slot of the next reading in _hist
        self._last = array.array("i", [MISSING] * n)
        self._same = array.array("i", [0] * n)  # repeats of _last
        self._far = bytearray(n)  # gross readings in a row (median.gross)
        self.rejected = 0  # rail or stuck values seen (diagnostics)

    def filter(self, raw, out):
        ok = 0
        hist = self._hist
        for i in range(self.n):
            v = raw[i]
            if v == self._last[i]:
                self._same[i] += 1
            else:
                self._last[i] = v
                self._same[i] = 0
            k = 3 * i
            last = hist[k + (self._next[i] + 2) % 3]
            if (
                v >= RAIL_HI
                or v <= RAIL_LO
                or self._same[i] >= STUCK_N
                or self._count[i]
                and gross(v, last, GROSS_SPIKE, self._far, i)
            ):
                out[i] = MISSING
                if v != MISSING:
                    self.rejected += 1
                continue
            hist[k + self._next[i]] = v
            self._next[i] = (self._next[i] + 1) % 3
            count = self._count[i]
            if count < 3:
                count += 1
                self._count[i] = count
            if count < 3:
                out[i] = v  # not three yet: the newest
            else:
                out[i] = median3(hist[k], hist[k + 1], hist[k + 2])
            ok |= 1 << i
        return ok
