# The RP2040's HX711 reader: a PIO program clocks the shared SCK and samples the four DOUT pins
# per bit, so no interrupt can stretch a clock pulse past the chips' 60 us power-down; the CPU
# only untangles the bits (hx711.unpack_pio). Same API as the GPIO reader hx711.HX711Bus (like
# robert-hh's hx711_gpio/hx711_pio pair), so a board can use either, and fall back from one to
# the other. Import assembles the program; hardware is touched when HX711PIO() is made.
# ruff: noqa: F405 - the PIO program's names come from the assembler (and the stubs' star import)

import array
import time

import rp2
from machine import Pin

from tablefw.compat import const, ticks_diff
from tablefw.hx711 import DEAD_MS, PIO_WORDS, PULSES_A128, SETTLE_MS, unpack_pio

try:
    from typing_extensions import TYPE_CHECKING  # type: ignore
except ImportError:
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import *  # noqa: F403 - the PIO assembler's names, for the type checker

PIO_FREQ = const(1_000_000)  # 1 us per PIO cycle: SCK high 5 us, a whole reading ~250 us
CHIPS = const(4)  # the program samples 4 consecutive DOUT pins (`in pins, 4`)


# Four HX711s: side-set = the shared SCK, in_base = the first of the 4 consecutive DOUT pins.
# Waits until all four DOUT pins are low (every chip has data), clocks 24 bits sampling the 4
# pins while SCK is high, then gives the 25th pulse (channel A, gain 128). SCK is never high
# for more than a few cycles, far below the HX711's 60 us power-down. Autopush every 24 bits
# keeps each word below 2**30: reading it on the CPU never allocates (hx711.unpack_pio).
@rp2.asm_pio(
    sideset_init=rp2.PIO.OUT_LOW,
    in_shiftdir=rp2.PIO.SHIFT_LEFT,
    autopush=True,
    push_thresh=24,
    fifo_join=rp2.PIO.JOIN_RX,
)
def hx711x4():
    label("wait")
    mov(isr, null).side(0)  # also empties the input shift counter
    in_(pins, 4).side(0)
    mov(y, isr).side(0)
    jmp(not_y, "ready").side(0)  # all four DOUT low
    jmp("wait").side(0)
    label("ready")
    mov(isr, null).side(0)
    set(x, 23).side(0)
    label("bit")
    nop().side(1)[3]  # SCK high; DOUT settles (> 0.1 us)
    in_(pins, 4).side(1)
    jmp(x_dec, "bit").side(0)[3]
    nop().side(1)[3]  # the 25th pulse: channel A, gain 128
    nop().side(0)[3]


class HX711PIO:
    """Four chips on one clock pin number `sck`, data on the consecutive pin numbers `douts`,
    read by PIO state machine `sm_id`. The API of hx711.HX711Bus: ready(), read(out),
    set_gain(), power_down(), power_up(), `dead`. The program waits for all four chips, so one
    that stops answering stalls them all: after DEAD_MS without a reading every chip counts as
    dead (a board then reads with HX711Bus, which reads around the one that failed)."""

    def __init__(self, sck, douts, sm_id=0, clock_ms=None):
        if len(douts) != CHIPS or list(douts) != list(range(douts[0], douts[0] + CHIPS)):
            raise ValueError("the PIO reader needs 4 consecutive DOUT pins")
        self.sck = sck
        self.douts = tuple(douts)
        self.sm_id = sm_id
        self.clock_ms = clock_ms or time.ticks_ms
        self.pulses = PULSES_A128
        self.dead = 0  # bitmask: all chips once the program has stalled for DEAD_MS
        self._words = array.array("i", [0] * PIO_WORDS)
        for n in self.douts:
            Pin(n, Pin.IN)
        self._sm = self._start()

    def ready(self):
        """True when a whole reading waits in the FIFO; False meanwhile (and sets `dead` once
        the program has waited DEAD_MS for a chip)."""
        if self._sm.rx_fifo() >= PIO_WORDS:
            return True
        if ticks_diff(self.clock_ms(), self._last) > DEAD_MS:
            self.dead = (1 << CHIPS) - 1
        return False

    def read(self, out):
        """Signed counts of the four chips into out[] if a reading is there (True); False if
        not yet, or while the chips settle after power_up (the reading is dropped)."""
        if not self.ready():
            return False
        sm = self._sm
        words = self._words
        for i in range(PIO_WORDS):
            words[i] = sm.get()  # 24-bit words: small ints
        now = self.clock_ms()
        self._last = now
        self.dead = 0
        if ticks_diff(now, self._settle_from) < SETTLE_MS:
            return False
        unpack_pio(words, out)
        return True

    def set_gain(self, pulses):
        """Only channel A gain 128 (the program's 25 pulses); ValueError for another."""
        if pulses != PULSES_A128:
            raise ValueError("the PIO reader clocks channel A, gain 128 only")

    def power_down(self):
        """Stop the program and hold SCK high (> 60 us): the chips stop converting."""
        self.stop()
        Pin(self.sck, Pin.OUT, value=1)

    def power_up(self):
        """Restart the program with SCK low; the chips settle for SETTLE_MS (readings dropped)."""
        self._sm = self._start()

    def _start(self):
        sm = rp2.StateMachine(
            self.sm_id,
            hx711x4,
            freq=PIO_FREQ,
            sideset_base=Pin(self.sck, Pin.OUT, value=0),
            in_base=Pin(self.douts[0], Pin.IN),
        )
        sm.active(1)
        now = self.clock_ms()
        self._last = now
        self._settle_from = now
        return sm

    def stop(self):
        """Stop the program for good (its pins can then be used as GPIO)."""
        self._sm.active(0)
