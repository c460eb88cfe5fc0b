# What every board shares: the sample-read results, fault bits and timeouts that tablefw.app
# relies on, and the host link over a pair of byte streams (unix port: a pty; RP2040: USB CDC
# stdin/stdout; ESP32: the USB-UART bridge on stdin/stdout), read without blocking and waited
# on through asyncio's I/O queue. PinBoard is what the two real boards (board_rp2, board_esp32)
# share: everything but how the HX711s are clocked.

import array
import asyncio
import binascii
import os
import select

from tablefw import calib
from tablefw.clock import sleep_ms
from tablefw.compat import const

try:
    import time

    time.ticks_ms  # noqa: B018 - MicroPython: the board's own clock
except AttributeError:  # CPython (the Pi's board_blinka): the same names from tablefw.clock
    from tablefw import clock as time

NO_SAMPLE = const(-1)  # read_sample(): no sample ready yet
END = const(-2)  # read_sample(): the sample source is finished (simulation only)
FAULT_CELLS = const(1)  # bits of `faults`, in tablefw.app.FAULT_NAMES order
FAULT_ACCEL = const(2)
CELL_TIMEOUT_MS = const(1000)  # a cell without a reading this long is a fault
WDT_MS = const(2000)  # watchdog timeout (machine.WDT on the boards, the runner in simulation)
ACCEL_RETRY = const(80)  # samples between retries of a failed accelerometer (~1 s)
SAMPLE_POLL_MS = const(2)  # polling period for the next cell sample (one every 12.5 ms)
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
_READABLE = select.POLLIN | select.POLLHUP | select.POLLERR


def wait_readable(stream):
    # Awaitable: suspends the task until `stream` polls readable (asyncio's stream idiom).
    yield asyncio.core._io_queue.queue_read(stream)  # pyright: ignore[reportAttributeAccessIssue]


def poller(stream):
    poll = select.poll()
    poll.register(stream, select.POLLIN)
    return poll


def ready(poll):
    for entry in poll.ipoll(0):  # the tuple is the poller's own: no allocation
        if entry[1] & _READABLE:
            return True
    return False


class StreamHost:
    """The host link over a pair of byte streams (unix: a pty; RP2040: USB CDC stdin/stdout)."""

    diagnostics = {}  # noqa: RUF012 - never changed: boards with counters replace it

    def __init__(self, host_in, host_out):
        self._host_in = host_in
        self._host_out = host_out
        self._host_poll = poller(host_in)
        self._one = bytearray(1)

    def read_host(self, buf):
        n = 0
        one = self._one
        try:
            while n < len(buf) and ready(self._host_poll):
                if not self._host_in.readinto(one):
                    return n or -1  # end of file: the host side is gone
                buf[n] = one[0]
                n += 1
        except OSError:  # EIO on a pty whose other side has closed
            return n or -1
        return n

    def wait_host(self):
        return wait_readable(self._host_in)

    def write_host(self, data):
        self._host_out.write(data)
        return True


# -- the real boards ------------------------------------------------------------------------
# Their modules are imported inside the functions: this module is also imported on the unix
# port (board_sim; its machine has no Pin, and the drivers would only take its RAM) and by
# CPython (the host reads tablefw.app.FW_VERSION), where there is no `machine` or `neopixel`.


def reset_cause():
    import machine

    cause = machine.reset_cause()
    if cause == machine.WDT_RESET:
        return "watchdog"
    if cause == machine.PWRON_RESET:
        return "power-on"
    return "reset-%d" % cause


def stored_config(ncells):
    """The calibration in CALIBRATION over DEFAULT_CONFIG (the defaults alone if there is none
    or it is damaged)."""
    config = dict(DEFAULT_CONFIG)
    stored = calib.load(CALIBRATION)
    if stored and calib.check(dict(config, **stored), ncells) is None:
        config.update(stored)
    return config


def gpio_bus(pin_map):
    """The HX711s on GPIO pins, read by hx711.HX711Bus with interrupts off only around each
    clock-high (an interrupt there could hold SCK high past the chips' 60 us power-down)."""
    import machine
    from machine import Pin

    from tablefw.hx711 import HX711Bus

    sck = Pin(pin_map.HX711_SCK, Pin.OUT, value=0)
    douts = [Pin(n, Pin.IN) for n in pin_map.HX711_DOUT]
    return HX711Bus(sck, douts, machine.disable_irq, machine.enable_irq)


class PinBoard(StreamHost):
    """The Board interface of tablefw/app.py over real parts, shared by the RP2040 and the ESP32.

    Every cell reading goes through hx711.Validator (rails, bit errors, stuck chips -> MISSING);
    a cell without a valid reading for CELL_TIMEOUT_MS is the `cells` fault. The LIS3DH on
    machine.I2C is read once per cell sample (a failure is the `accel` fault, retried about once
    a second); NeoPixels through the built-in `neopixel` (the frame is already GRB and
    power-capped by tablefw/rings.py); seat buttons active low with internal pull-ups;
    machine.WDT fed by the app's ticker; the host link on stdin/stdout.
    A subclass clocks the HX711s: read_cells(raw, now) -> True when raw holds a new reading of
    every cell (signed counts, MISSING for a chip read around); never blocks, never allocates.
    """

    def __init__(self, name, pin_map, watchdog=True):
        import sys

        import machine
        import neopixel
        from machine import I2C, Pin

        from tablefw.accel import LIS3DH
        from tablefw.hx711 import Validator

        StreamHost.__init__(self, sys.stdin.buffer, sys.stdout.buffer)
        ncells = len(pin_map.HX711_DOUT)
        self._raw = array.array("i", [0] * ncells)
        self._valid = Validator(ncells)
        self._heard = [time.ticks_ms()] * ncells  # last valid reading
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
        self.info = {
            "board": name + "-" + binascii.hexlify(machine.unique_id()).decode(),
            "boot": binascii.hexlify(os.urandom(4)).decode(),
            "reset": reset_cause(),
            "seats": pin_map.SEATS,
            "cells": ncells,
        }
        self.config = stored_config(ncells)
        self.cal_file = CALIBRATION
        self._wdt = machine.WDT(timeout=WDT_MS) if watchdog else None

    # -- samples (no allocation) ---------------------------------------------------------------

    def read_cells(self, raw, now):
        raise NotImplementedError

    def read_sample(self, cells, accel):
        now = time.ticks_ms()
        if not self.read_cells(self._raw, now):
            self._check_cells(now)
            return NO_SAMPLE
        ok = self._valid.filter(self._raw, cells)
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
        return sleep_ms(SAMPLE_POLL_MS)

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
        # Only between games (the app refuses in play): a flash write stalls the chip.
        return calib.save(CALIBRATION, config)

    # -- rings, watchdog ------------------------------------------------------------------------

    def show(self, frame):
        self._np.buf[:] = frame  # both GRB, 3 bytes per LED
        self._np.write()

    def watchdog_feed(self):
        if self._wdt is not None:
            self._wdt.feed()
