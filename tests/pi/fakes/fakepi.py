# The Raspberry Pi's hardware as seen from below Blinka, for tests on a PC. Blinka and the
# CircuitPython libraries run unchanged; what they finally talk to is faked here, behaving like
# the datasheets:
#
#   gpiod (fakes/gpiod)          the Pi's GPIO controller "pinctrl-bcm2711": lines that are
#                                inputs (with their bias) or outputs, and what is wired to them:
#                                four HX711s on the pin map's clock and data lines (the
#                                datasheet model of tests/firmware/mpfakes/fake_hx711.py, here in
#                                real microseconds: a clock held high > 60 us powers a chip
#                                down), and the seat buttons (to GND: a pressed one reads 0).
#   Adafruit_PureIO.smbus        /dev/i2c-1 with a LIS3DH at 0x18 (register file, auto-increment)
#                                or, with FAKEPI_NO_ACCEL=1, no device: every transfer fails with
#                                EREMOTEIO, as the Pi's I2C controller reports a NACK.
#   _rpi_ws281x                  the DMA/PWM (or SPI) driver of rpi_ws281x: shifts out each LED's
#                                24 bits in the strip type's order to a chain of WS2812s, which
#                                take the first byte as green, then red, then blue.
#
# The world's inputs come from a virtual tower: FAKEPI_SAMPLES names a file of the simulated
# board's sample records (struct "<I4i3hB": t_ms, four raw cells with MISSING for a dead chip,
# ax/ay/az in milli-g, buttons), played out in real time from the moment the program first
# touches the hardware. Without it the tower stands empty and still. The world has no thread
# of its own (a Pi's program has none either, and one would stall it at random): each access to
# a line or the I2C device moves it on to the sample of the current time. FAKEPI_LEDS names a
# file that gets one line per LED frame shifted out: "<gpio> <hex of the wire bytes>".
# Tests in the same process use `world()` directly (stall the clock line, read the chips).

import os
import random
import struct
import time

from fake_hx711 import FakeHX711
from fake_lis3dh_bus import LIS3DHBus

RECORD = struct.Struct("<I4i3hB")
MISSING = -(2**30)
ACCEL_FAILED = -32768
EREMOTEIO = 121
STILL_COUNTS = (84000, 91000, 87000, 89000)  # an empty plate's raw readings
NOISE = 3  # counts either side: an HX711's own noise at gain 128
LABEL = "pinctrl-bcm2711"
NUM_LINES = 58


class RealClock:
    """FakeHX711's clock in real microseconds (the Pi's code runs in real time)."""

    def __init__(self):
        self._start = time.monotonic_ns()
        self.edge = None  # while a line changes: the moment it changed, for every chip on it

    @property
    def us(self):
        if self.edge is not None:
            return self.edge
        return (time.monotonic_ns() - self._start) // 1000

    def advance(self, us):
        pass  # pin accesses take their real time here


class VirtualClock(RealClock):
    """A RealClock that only moves when told: each pin access takes 1 us, a stall or a lag
    as long as asked. A test on it gives the same pulses on a busy machine as on an idle one."""

    def __init__(self):
        RealClock.__init__(self)
        self.now = 0

    @property
    def us(self):
        return self.now if self.edge is None else self.edge

    def advance(self, us):
        self.now += us


class Cell:
    """One chip's input: the current sample's raw reading plus the chip's own noise of a few
    counts (a one-item sequence for FakeHX711: each conversion reads item 0)."""

    def __init__(self, world, index):
        self.world = world
        self.index = index
        self._noise = random.Random(index)

    def __len__(self):
        return 1

    def __getitem__(self, k):
        value = self.world.sample[1 + self.index]
        return 0 if value == MISSING else value + self._noise.randint(-NOISE, NOISE)


class World:
    def __init__(self):
        from tablefw import pins_pi as pins

        self.pins = pins
        self.clock = RealClock()
        self.sample = (0, *STILL_COUNTS, 0, 0, 1000, 0)
        self.levels = {}  # line -> level driven by the program (outputs)
        self.bias = {}  # line -> "up", "down" or None (inputs)
        self.stall_us = 0  # the next rising edge of the HX711 clock takes this long
        self.lag_us = 0  # ... and each of the read's clock-lows after it this long
        self._lagging = 0  # clock-lows still to stretch
        self._edges = []  # clock edges (time, level) the chips have not seen yet
        self.chips = [
            FakeHX711(self.clock, Cell(self, i), b_values=Cell(self, i))
            for i in range(len(pins.HX711_DOUT))
        ]
        self.dout = {line: chip for line, chip in zip(pins.HX711_DOUT, self.chips, strict=True)}
        self.buttons = {line: seat for seat, line in enumerate(pins.BUTTONS)}
        self.accel = LIS3DHBus()
        self.accel._reset()
        LIS3DHBus.dead = bool(os.environ.get("FAKEPI_NO_ACCEL"))
        self.wire_frames = []  # (gpio, wire bytes) per frame shifted out
        self._leds = os.environ.get("FAKEPI_LEDS")
        self._set_accel()
        self._samples = []  # the tower's records still to come
        feed = os.environ.get("FAKEPI_SAMPLES")
        if feed:
            data = open(feed, "rb").read()
            records = (RECORD.unpack_from(data, i) for i in range(0, len(data), RECORD.size))
            self._samples = [r for r in records if r[0] != 0xFFFFFFFF][::-1]
        self._start_ms = time.monotonic() * 1000 - (self._samples[-1][0] if self._samples else 0)

    # -- the virtual tower ---------------------------------------------------------------------

    def advance(self):
        """Move on to the tower's sample of this moment (the last one stays when it is done)."""
        samples = self._samples
        if not samples:
            return
        now = time.monotonic() * 1000 - self._start_ms
        sample = None
        while samples and samples[-1][0] <= now:
            sample = samples.pop()
        if sample is not None:
            self.sample = sample
            self._set_accel()
        if self._edges:
            return  # a clock edge the chips have not seen yet: maybe a read's first pulse
        for chip, value in zip(self.chips, self.sample[1:5], strict=True):
            if chip.between_reads():
                # A missing reading is a conversion that never came (DOUT stays high); a chip
                # already shifting a word out finishes it, as a real one does.
                chip.dead = value == MISSING

    def _set_accel(self):
        ax, ay, az = self.sample[5:8]
        regs = self.accel.regs
        for i, mg in enumerate((ax if ax != ACCEL_FAILED else 0, ay, az)):
            raw = (mg << 4) & 0xFFFF  # 12-bit left-justified, 1 mg per digit (HR, +-2 g)
            regs[0x28 + 2 * i] = raw & 0xFF
            regs[0x29 + 2 * i] = raw >> 8

    def accel_failing(self):
        self.advance()
        return self.sample[5] == ACCEL_FAILED

    # -- GPIO lines ------------------------------------------------------------------------------

    def drive(self, line, level):
        self.clock.advance(1)
        self.advance()
        old = self.levels.get(line, 0)
        self.levels[line] = level
        if line == self.pins.HX711_SCK and level != old:
            # One wire: every chip sees the edge at the same instant. The chips' work on it is
            # done at the next look at a line, at the edge's time: the fake's own Python must
            # not stretch the pulse it is judging.
            self._edges.append((self.clock.us, level))
            if level and self.stall_us:
                stall, self.stall_us = self.stall_us, 0
                self._spend(stall)  # the process was preempted with the clock high
                self._lagging = 25  # the rest of the read (24 pulses at most), if lag_us
            elif not level and self._lagging and self.lag_us:
                self._lagging -= 1
                self._spend(self.lag_us)  # a busy machine: the read's tail runs slow (clock low)

    def _apply_edges(self):
        for at, level in self._edges:
            self.clock.edge = at
            for chip in self.chips:
                if level:
                    chip.rise()
                else:
                    chip.fall()
        self.clock.edge = None
        self._edges.clear()

    def _spend(self, us):
        if isinstance(self.clock, VirtualClock):
            self.clock.advance(us)
        else:
            _busy(us)

    def read(self, line):
        self.clock.advance(1)
        self._apply_edges()
        self.advance()
        if line in self.levels:
            return self.levels[line]
        chip = self.dout.get(line)
        if chip is not None:
            return chip.dout()
        seat = self.buttons.get(line)
        if seat is not None and self.sample[8] & (1 << seat):
            return 0  # pressed: the button shorts the line to GND
        bias = self.bias.get(line)
        return 0 if bias == "down" else 1 if bias == "up" else 0

    # -- the LED chain -------------------------------------------------------------------------

    def shift_out(self, gpio, wire):
        self.wire_frames.append((gpio, bytes(wire)))
        if self._leds:
            with open(self._leds, "a") as out:
                out.write(f"{gpio} {bytes(wire).hex()}\n")


def _busy(us):
    end = time.perf_counter() + us / 1e6
    while time.perf_counter() < end:
        pass


_world = None


def world():
    global _world
    if _world is None:
        _world = World()
    return _world


def ws2812_colours(wire):
    """What a chain of WS2812s shows for the wire bytes: (r, g, b) per LED (GRB on the wire)."""
    return [(wire[i + 1], wire[i], wire[i + 2]) for i in range(0, len(wire) - 2, 3)]
