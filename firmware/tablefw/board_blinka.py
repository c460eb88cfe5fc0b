# The table's board on a Raspberry Pi with no microcontroller: the same application
# (tablefw/app.py) under CPython, its parts reached through Blinka, CircuitPython's hardware API
# on Linux. Pins come from tablefw/pins_pi.py (BCM numbers, generated from hardware/pinmap.json).
#
#   load cells     4 HX711 on one clock (GPIO5), DOUT on GPIO6/12/13/16, bit-banged through
#                  Blinka's digitalio by hx711.HX711Bus. Linux user space cannot keep
#                  interrupts off: a clock pulse stretched past the HX711's 60 us (the process
#                  preempted while SCK is high) powers the chips down and their next readings
#                  are garbage. Every clock-high is timed; a reading with a long one is
#                  discarded and the bus resynchronised (the chips restart and settle), never
#                  read as a weight. `diagnostics` counts them; the doctor reports the rate.
#   accelerometer  LIS3DH at 0x18 on /dev/i2c-1 (busio.I2C), through the project's own driver
#                  (tablefw/accel.py); no I2C bus or no chip is the `accel` fault, retried.
#   rings          the NeoPixel chain on GPIO10 (rpi_ws281x's SPI mode) through
#                  adafruit-circuitpython-neopixel; the frame is already GRB and capped.
#   buttons        one per seat through digitalio, active low with the internal pull-up.
#   host link      stdin/stdout: `sticktable run --board pi` starts this on a pty.
#   watchdog       none (the host restarts a firmware that exits).
# Everything else (reading checks, the `cells` fault, the accelerometer retry, buttons) is
# board_base.PinBoard, as on the RP2040 and the ESP32.

import array
import asyncio
import binascii
import os
import sys

from tablefw import pins_pi as pin_map
from tablefw.accel import LIS3DH
from tablefw.board_base import FAULT_ACCEL, PinBoard, stored_config
from tablefw.clock import ticks_diff, ticks_ms, ticks_us
from tablefw.hx711 import POWER_DOWN_US, SETTLE_MS, HX711Bus, Validator

REALTIME_PRIORITY = 20  # SCHED_FIFO, below the kernel's own threaded interrupts (50)
_NO_DEVICE = 19  # ENODEV: what the accelerometer's transfers raise when there is no I2C bus


class Line:
    """machine.Pin's value() over a Blinka DigitalInOut (what hx711 and PinBoard call)."""

    def __init__(self, pin, output=False, pull_up=False):
        import digitalio

        self._io = digitalio.DigitalInOut(pin)
        if output:
            self._io.switch_to_output(value=False)
        else:
            self._io.switch_to_input(pull=digitalio.Pull.UP if pull_up else None)

    def value(self, v=None):
        if v is None:
            return 1 if self._io.value else 0
        self._io.value = bool(v)
        return None


class MemI2C:
    """machine.I2C's register transfers (what tablefw.accel calls) over a busio.I2C; OSError
    for every transfer when the bus itself is missing (I2C not enabled on the Pi)."""

    def __init__(self, board):
        try:
            import busio

            self._i2c = busio.I2C(board.SCL, board.SDA)
            self.error = None
        except (RuntimeError, OSError, ValueError) as err:
            self._i2c = None
            self.error = str(err)

    def _bus(self):
        if self._i2c is None:
            raise OSError(_NO_DEVICE, "no I2C bus")
        while not self._i2c.try_lock():
            pass
        return self._i2c

    def readfrom_mem_into(self, addr, reg, buf):
        bus = self._bus()
        try:
            bus.writeto_then_readfrom(addr, bytes((reg,)), buf)
        finally:
            bus.unlock()

    def writeto_mem(self, addr, reg, data):
        bus = self._bus()
        try:
            bus.writeto(addr, bytes((reg,)) + bytes(data))
        finally:
            bus.unlock()


class TimedBus(HX711Bus):
    """HX711Bus from user space: times each clock-high; a reading during which one ran past
    POWER_DOWN_US is discarded and the bus resynchronised (the chips powered down)."""

    def __init__(self, sck, douts):
        HX711Bus.__init__(self, sck, douts, clock_ms=ticks_ms)  # no interrupt control here
        self.long_reads = 0  # readings discarded for a long clock pulse
        self.reads = 0  # readings kept
        self._long = False
        self._resync = False  # waiting for the chips to settle after a long pulse

    def _pulse(self):
        # Timed from before the write that raises SCK to after the one that lowers it: at
        # least as long as the line was high, wherever in the two writes the process stalled.
        sck = self.sck
        start = ticks_us()
        sck.value(1)
        sck.value(0)
        if ticks_us() - start > POWER_DOWN_US:
            self._long = True

    def read(self, out):
        if self._resync and self._resetting is None:
            if ticks_diff(ticks_ms(), self._settle_from) < SETTLE_MS:
                return False  # not clocked at all while they settle: no pulse to run long
            self._resync = False
        self._long = False
        got = HX711Bus.read(self, out)
        if self._long:
            # The chips the stall powered down restart at their first bit, and may count the
            # read's last pulses as a read of their own: a reset puts every one in step.
            self.long_reads += 1
            self.reset()
            self._resync = True
            return False
        if got:
            self.reads += 1
        return got


class BlinkaBoard(PinBoard):
    """The Board interface of tablefw/app.py over Blinka (see the top of this file)."""

    def __init__(self, host_in, host_out):
        import board
        import neopixel

        self._host_in = host_in  # file descriptors
        self._host_out = host_out
        os.set_blocking(host_in, False)
        self._bus = TimedBus(
            Line(getattr(board, "D%d" % pin_map.HX711_SCK), output=True),
            [Line(getattr(board, "D%d" % n)) for n in pin_map.HX711_DOUT],
        )
        ncells = len(pin_map.HX711_DOUT)
        self._raw = array.array("i", [0] * ncells)
        self._valid = Validator(ncells)
        self._heard = [ticks_ms()] * ncells
        self._i2c = MemI2C(board)
        self._accel = LIS3DH(self._i2c, pin_map.ACCEL_ADDR)
        self._accel_wait = 0
        self._accel_set = self._accel.init()
        self.faults = 0 if self._accel_set else FAULT_ACCEL
        self.paced = False
        leds = pin_map.SEATS * pin_map.LEDS_PER_RING
        self._np = neopixel.NeoPixel(
            getattr(board, "D%d" % pin_map.NEOPIXEL),
            leds,
            brightness=1.0,
            auto_write=False,
            pixel_order=neopixel.GRB,
        )
        self._buttons = tuple(
            Line(getattr(board, "D%d" % n), pull_up=True) for n in pin_map.BUTTONS
        )
        self.info = {
            "board": "pi-" + _machine_id(),
            "boot": binascii.hexlify(os.urandom(4)).decode(),
            "reset": "power-on",
            "seats": pin_map.SEATS,
            "cells": ncells,
        }
        self.config = stored_config(ncells)
        self.cal_file = os.environ.get("STICKTABLE_PI_CALIBRATION", "calibration.json")
        self._wdt = None

    def read_cells(self, raw, now):
        return self._bus.read(raw)

    @property
    def diagnostics(self):
        bus = self._bus
        return {"hx711_long": bus.long_reads, "hx711_reads": bus.reads}

    # -- the host link: a pty (or any file descriptor pair) -------------------------------------

    def read_host(self, buf):
        try:
            data = os.read(self._host_in, len(buf))
        except BlockingIOError:
            return 0
        except OSError:  # EIO: the other side of the pty has closed
            return -1
        if not data:
            return -1
        buf[: len(data)] = data
        return len(data)

    async def wait_host(self):
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        loop.add_reader(self._host_in, lambda: ready.done() or ready.set_result(None))
        try:
            await ready
        finally:
            loop.remove_reader(self._host_in)

    def write_host(self, data):
        view = memoryview(data)
        while view:
            try:
                n = os.write(self._host_out, view)
            except BlockingIOError:
                continue
            except OSError:
                return False
            view = view[n:]
        return True

    def show(self, frame):
        self._np[:] = [(frame[i + 1], frame[i], frame[i + 2]) for i in range(0, len(frame), 3)]
        self._np.show()


def _machine_id():
    try:
        with open("/etc/machine-id") as f:
            return f.read().strip()[:12]
    except OSError:
        return "unknown"


def _realtime():
    """Ask Linux for a real-time priority, so that other processes cannot preempt us while
    SCK is high (root or CAP_SYS_NICE; without it the long-pulse check does all the work). The
    app sleeps between samples, so it never holds a core."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(REALTIME_PRIORITY))
    except (AttributeError, OSError):
        pass


def main():
    """Run the table application on the Pi's parts, the host link on stdin/stdout."""
    from tablefw import app

    host_in, host_out = sys.stdin.fileno(), sys.stdout.fileno()
    _realtime()
    sys.stdout = sys.stderr  # anything printed (Blinka says which board it found) is no frame
    # Blinka offers to install missing backends when stdin is a terminal: here it is the link.
    os.environ["BLINKA_SKIP_DEPENDENCY_CHECK"] = "1"
    app.main(BlinkaBoard(host_in, host_out))
