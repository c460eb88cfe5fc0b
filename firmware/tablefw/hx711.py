# HX711 24-bit load-cell ADCs, several on one shared clock (SCK), each with its own DOUT.
#
# Datasheet facts this follows: DOUT is high while a conversion runs and falls when data is
# ready; each SCK pulse shifts out one bit, MSB first, 24-bit two's complement; 25 pulses in all
# select channel A gain 128 for the next conversion (26 = B/32, 27 = A/64); SCK held high for
# more than 60 us powers the chip down (so a clock-high phase must never be stretched by an
# interrupt).
#
# Two readers, hardware passed in so tests can drive them with pin-level fakes:
#   HX711Bus(sck, douts, irq_off, irq_on)  GPIO: bit-banged, interrupts off only while SCK is
#                                           high; used where there is no PIO (and in tests).
#   unpack_pio(words, out)                  RP2040: the PIO program in board_rp2.py clocks SCK
#                                           and samples all DOUT pins per bit (`in pins, 4`),
#                                           24 bits per pushed word; the CPU untangles them.
# Both are allocation-free per reading. Validation (wild values, dead chips, settling) is for
# the sensing issue (3); this gives it a clean base.

import array

from micropython import const

BITS = const(24)
PULSES_A128 = const(25)  # 24 data bits + 1: channel A, gain 128
POWER_DOWN_US = const(60)  # SCK high longer than this powers the chip down
PIO_CHIPS = const(4)  # the PIO program samples 4 consecutive DOUT pins
PIO_WORDS = const(4)  # 24 bits x 4 chips = 96 bits = 4 words of 24 bits


def signed24(v):
    """A raw 24-bit HX711 word as a signed integer."""
    return v - 0x1000000 if v & 0x800000 else v


class HX711Bus:
    """Chips sharing one clock pin `sck`, each with its own data pin in `douts` (GPIO reader).

    `irq_off()` -> state and `irq_on(state)` (e.g. machine.disable_irq / enable_irq) bracket
    each clock-high phase so an interrupt cannot stretch it past POWER_DOWN_US.
    """

    def __init__(self, sck, douts, irq_off=None, irq_on=None, pulses=PULSES_A128):
        self.sck = sck
        self.douts = tuple(douts)
        self.irq_off = irq_off
        self.irq_on = irq_on
        self.pulses = pulses
        self._raw = array.array("i", [0] * len(self.douts))
        sck.value(0)

    def ready(self):
        """True when every chip has finished a conversion (all DOUT low)."""
        for dout in self.douts:
            if dout.value():
                return False
        return True

    def read(self, out):
        """Read every chip into out[] (signed counts) if all are ready; else False, no clocking."""
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
        for i in range(n):
            out[i] = signed24(raw[i])
        return True

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

    def power_down(self):
        """Hold SCK high (> POWER_DOWN_US): the chips stop converting."""
        self.sck.value(1)

    def power_up(self):
        """SCK low again: the chips restart (and settle for 4 conversions before data is good)."""
        self.sck.value(0)


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
