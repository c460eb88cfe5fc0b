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
# Import only assembles the PIO program; hardware is touched when RP2Board() is made.
# ruff: noqa: F405 - the PIO program's names come from the assembler (and the stubs' star import)

import array
import asyncio
import binascii
import os
import sys
import time

import machine
import neopixel
import rp2
from machine import I2C, Pin
from micropython import const

from tablefw import calib
from tablefw import pins as pin_map
from tablefw.accel import LIS3DH
from tablefw.board_base import (
    CELL_TIMEOUT_MS,
    FAULT_ACCEL,
    FAULT_CELLS,
    NO_SAMPLE,
    WDT_MS,
    StreamHost,
)
from tablefw.hx711 import DEAD_MS, PIO_WORDS, HX711Bus, Validator, unpack_pio

try:
    from typing_extensions import TYPE_CHECKING  # type: ignore
except ImportError:
    TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import *  # noqa: F403 - the PIO assembler's names, for the type checker

ACCEL_RETRY = const(80)  # samples between retries of a failed accelerometer (~1 s)
PIO_FREQ = const(1_000_000)  # 1 us per PIO cycle: SCK high 5 us, a whole reading ~250 us
SAMPLE_POLL_MS = const(2)  # FIFO polling period while waiting for the next sample (12.5 ms)
CALIBRATION = "calibration.json"  # written by `sticktable calibrate`, never during play
# Until the table is calibrated: ~2150 counts/g (1 kg, 1 mV/V cell at gain 128), the cells at
# the corners of a 130 mm square, 8 g sticks.
DEFAULT_CONFIG = {
    "counts_per_gram": [2150.0, 2150.0, 2150.0, 2150.0],
    "cell_xy_mm": [[-65, -65], [65, -65], [65, 65], [-65, 65]],
    "stick_g": 8.0,
    "rate_hz": 80,
    "zero_counts": None,
}


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


def _reset_cause():
    cause = machine.reset_cause()
    if cause == machine.WDT_RESET:
        return "watchdog"
    if cause == machine.PWRON_RESET:
        return "power-on"
    return "reset-%d" % cause


def _config():
    config = dict(DEFAULT_CONFIG)
    stored = calib.load(CALIBRATION)
    if stored and calib.check(dict(config, **stored), len(pin_map.HX711_DOUT)) is None:
        config.update(stored)  # else not calibrated yet (or a damaged file): the defaults
    return config


class RP2Board(StreamHost):
    def __init__(self, watchdog=True):
        StreamHost.__init__(self, sys.stdin.buffer, sys.stdout.buffer)
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
        ncells = len(pin_map.HX711_DOUT)
        self._raw = array.array("i", [0] * ncells)
        self._valid = Validator(ncells)
        self._heard = [time.ticks_ms()] * ncells  # last valid reading
        self._bus = None  # the GPIO reader, once the PIO program has been given up
        self._accel = LIS3DH(
            I2C(pin_map.I2C_ID, sda=Pin(pin_map.I2C_SDA), scl=Pin(pin_map.I2C_SCL), freq=400_000),
            pin_map.ACCEL_ADDR,
        )
        self._accel_wait = 0
        self._accel_set = self._accel.init()  # configured: a chip that was absent is not
        self.faults = 0 if self._accel_set else FAULT_ACCEL
        self.paced = False  # real time never waits
        leds = pin_map.SEATS * pin_map.LEDS_PER_RING
        self._np = neopixel.NeoPixel(Pin(pin_map.NEOPIXEL, Pin.OUT), leds)
        self._buttons = tuple(Pin(n, Pin.IN, Pin.PULL_UP) for n in pin_map.BUTTONS)
        self._last = time.ticks_ms()
        self.info = {
            "board": "rp2-" + binascii.hexlify(machine.unique_id()).decode(),
            "boot": binascii.hexlify(os.urandom(4)).decode(),
            "reset": _reset_cause(),
            "seats": pin_map.SEATS,
            "cells": len(pin_map.HX711_DOUT),
        }
        self.config = _config()
        self.cal_file = CALIBRATION
        self._wdt = machine.WDT(timeout=WDT_MS) if watchdog else None

    # -- samples (no allocation) ---------------------------------------------------------------

    def read_sample(self, cells, accel):
        sm = self._sm
        now = time.ticks_ms()
        raw = self._raw
        if self._bus is None:
            if sm.rx_fifo() < PIO_WORDS:
                if time.ticks_diff(now, self._last) > DEAD_MS:
                    self._fallback()
                self._check_cells(now)
                return NO_SAMPLE
            words = self._words
            for i in range(PIO_WORDS):
                words[i] = sm.get()  # 24-bit words: small ints
            unpack_pio(words, raw)
        elif not self._bus.read(raw):
            self._check_cells(now)
            return NO_SAMPLE
        self._last = now
        ok = self._valid.filter(raw, cells)
        heard = self._heard
        for i in range(len(heard)):
            if ok & (1 << i):
                heard[i] = now
        self._check_cells(now)
        self._read_accel(accel)
        return now

    def _check_cells(self, now):
        for t in self._heard:
            if time.ticks_diff(now, t) > CELL_TIMEOUT_MS:
                self.faults |= FAULT_CELLS
                return
        self.faults &= ~FAULT_CELLS

    def _fallback(self):
        # Allocates, once: the PIO program is stopped for good and the pins become GPIO.
        self._sm.active(0)
        sck = Pin(pin_map.HX711_SCK, Pin.OUT, value=0)
        douts = [Pin(n, Pin.IN) for n in pin_map.HX711_DOUT]
        self._bus = HX711Bus(sck, douts, machine.disable_irq, machine.enable_irq)

    def _read_accel(self, accel):
        # A failed accelerometer keeps the last reading and is retried about once a second
        # (a failing I2C transfer raises, and raising allocates).
        if self._accel_wait:
            self._accel_wait -= 1
            return
        if not self._accel_set:
            self._accel_set = self._accel.init()  # it answers again: configure it first
        if self._accel_set and self._accel.read(accel):
            self.faults &= ~FAULT_ACCEL
        else:
            self.faults |= FAULT_ACCEL
            self._accel_wait = ACCEL_RETRY

    def wait_sample(self):
        # sleep_ms returns asyncio's preallocated generator: awaiting it allocates nothing.
        return asyncio.sleep_ms(SAMPLE_POLL_MS)

    def sample_done(self):
        pass

    def buttons(self):
        mask = 0
        bit = 1
        for pin in self._buttons:
            if not pin.value():
                mask |= bit
            bit <<= 1
        return mask

    def save_config(self, config):
        # Only between games (the app refuses in play): the flash write stalls the chip.
        return calib.save(CALIBRATION, config)

    # -- rings, watchdog ------------------------------------------------------------------------

    def show(self, frame):
        self._np.buf[:] = frame  # both GRB, 3 bytes per LED
        self._np.write()

    def watchdog_feed(self):
        if self._wdt is not None:
            self._wdt.feed()
