# The RP2040 table board (Raspberry Pi Pico): the Board interface of tablefw/app.py over the real
# parts. Pins come from tablefw/pins.py (generated from hardware/pinmap.json).
#
#   load cells     4 HX711 on one clock (GP2), DOUT on GP3-6, read by the PIO program below:
#                  it waits for all four to be ready and clocks them itself, so no interrupt
#                  can stretch a clock pulse; the CPU polls the RX FIFO (tablefw/hx711.py
#                  untangles the bits). Every reading goes through hx711.Validator (rails,
#                  bit errors, stuck chips -> MISSING); a cell without a valid reading for
#                  CELL_TIMEOUT_MS is the `cells` fault. A chip whose DOUT never falls stalls
#                  the PIO program (it waits for all four): after DEAD_MS without a reading the
#                  board stops it and reads with the GPIO reader (hx711.HX711Bus, interrupts
#                  off only around each clock-high), which reads around the dead chip.
#   accelerometer  LIS3DH on I2C1 (tablefw/accel.py), read once per load-cell sample.
#   rings          NeoPixel chain on GP22 through the built-in `neopixel` module; the frame is
#                  already GRB and power-capped by tablefw/rings.py.
#   buttons        one per seat, active low with internal pull-ups, read once per sample.
#   host link      USB CDC stdin/stdout (board_base.StreamHost).
#   watchdog       machine.WDT, fed by the app's ticker task.
# All but the PIO reader is board_base.PinBoard, shared with the ESP32 (board_esp32.py).
# Import only assembles the PIO program; hardware is touched when RP2Board() is made.
# ruff: noqa: F405 - the PIO program's names come from the assembler (and the stubs' star import)

import array
import time

import rp2
from machine import Pin
from micropython import const

from tablefw import pins as pin_map
from tablefw.board_base import FAULT_ACCEL, FAULT_CELLS, PinBoard, gpio_bus  # noqa: F401 - faults
from tablefw.hx711 import DEAD_MS, PIO_WORDS, unpack_pio

try:
    from typing_extensions import TYPE_CHECKING  # type: ignore
except ImportError:
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import *  # noqa: F403 - the PIO assembler's names, for the type checker

PIO_FREQ = const(1_000_000)  # 1 us per PIO cycle: SCK high 5 us, a whole reading ~250 us


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


class RP2Board(PinBoard):
    def __init__(self, watchdog=True):
        for n in pin_map.HX711_DOUT:
            Pin(n, Pin.IN)
        self._sm = rp2.StateMachine(
            0,
            hx711x4,
            freq=PIO_FREQ,
            sideset_base=Pin(pin_map.HX711_SCK, Pin.OUT, value=0),
            in_base=Pin(pin_map.HX711_DOUT[0], Pin.IN),
        )
        self._sm.active(1)
        self._words = array.array("i", [0] * PIO_WORDS)
        self._bus = None  # the GPIO reader, once the PIO program has been given up
        PinBoard.__init__(self, "rp2", pin_map, watchdog)
        self._last = time.ticks_ms()  # the PIO program's last reading

    def read_cells(self, raw, now):
        bus = self._bus
        if bus is not None:
            return bus.read(raw)
        sm = self._sm
        if sm.rx_fifo() < PIO_WORDS:
            if time.ticks_diff(now, self._last) > DEAD_MS:
                self._fallback()
            return False
        words = self._words
        for i in range(PIO_WORDS):
            words[i] = sm.get()  # 24-bit words: small ints
        unpack_pio(words, raw)
        self._last = now
        return True

    def _fallback(self):
        # Allocates, once: the PIO program is stopped for good and the pins become GPIO.
        self._sm.active(0)
        self._bus = gpio_bus(pin_map)
