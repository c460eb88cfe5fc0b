# The simulated board of the unix port: a virtual tower instead of sensors and LEDs
# (contract "Simulated board <-> virtual tower"; the other end is host/sticktable/sim/runner.py).
#
#   samples (tower -> firmware): one line of JSON (the sensor-trace meta), then records of
#       struct "<I4i3hB": t_ms, lc0..lc3 (MISSING for none), ax, ay, az (milli-g), buttons mask;
#       t_ms = 0xFFFFFFFF ends the samples.
#       Sensor failures ride in the records: a cell that stopped answering is MISSING (no
#       reading for more than CELL_TIMEOUT_MS of sample time sets the "cells" fault); ax =
#       ACCEL_FAILED means the accelerometer did not answer (an I2C error: the "accel" fault,
#       the last good reading is kept, as on the RP2040); ax = ACCEL_STUCK means the read never
#       returns (a stuck I2C bus): the firmware hangs right there until the watchdog resets it.
#   frames (firmware -> tower): b"A" after each processed sample (lockstep),
#       b"L" + u16le length + GRB bytes whenever the LED frame changes, and
#       b"W" + u16le timeout_ms for each watchdog feed: the tower plays the RP2040's watchdog
#       peripheral (the first feed starts it; no feed for timeout_ms of real time and it kills
#       the firmware and starts it again with --reset watchdog, like the chip's reset).
#   host link: a binary stream pair (stdin/stdout on a pty under the runner).
#   kept: keep_file stands for the RP2040's watchdog scratch registers (tablefw/keep.py).
#   paced (default): simulated time waits for the host, see App.held in tablefw/app.py.
#
# Unix-port facts this relies on: a FileIO's read(n)/readinto(buf) waits until it has them all,
# so the host stream is read one byte at a time while poll says it is readable (records arrive
# whole: the tower writes each with one write() of less than PIPE_BUF). select.poll.ipoll()
# is allocation-free, which keeps read_sample() allocation-free. Waiting is done on asyncio's
# I/O queue, the way asyncio's own streams wait. StreamHost (the host link over two byte streams)
# is shared with the RP2040 board, whose host link is USB CDC stdin/stdout.

import array
import binascii
import json
import os
import time

from tablefw import calib, keep, pins
from tablefw.board_base import (
    CELL_TIMEOUT_MS,
    END,
    FAULT_ACCEL,
    FAULT_CELLS,
    NO_SAMPLE,
    WDT_MS,
    StreamHost,
    poller,
    ready,
    wait_readable,
)
from tablefw.compat import const
from tablefw.reading import MISSING

RECORD = const(27)  # struct.calcsize("<I4i3hB")
RECORD_CELLS = const(4)
_END_T = const(0xFFFFFFFF)
_T_MASK = const(0x3FFFFFFF)  # cell clocks keep t_ms modulo 2**30, compared like ticks
ACCEL_FAILED = const(-32768)  # ax of a record: the accelerometer read failed
ACCEL_STUCK = const(-32767)  # ax of a record: the accelerometer read never returns


def _i32(b, o):
    v = b[o] | b[o + 1] << 8 | b[o + 2] << 16 | b[o + 3] << 24
    return v - 0x100000000 if v & 0x80000000 else v


def _i16(b, o):
    v = b[o] | b[o + 1] << 8
    return v - 0x10000 if v & 0x8000 else v


def read_meta(stream):
    """The first line of the samples stream as a dict (read byte by byte: nothing past it)."""
    line = bytearray()
    one = bytearray(1)
    while True:
        if not stream.readinto(one):
            raise OSError("sample stream ended before its meta line")
        if one[0] == 10:
            return json.loads(line)
        line.append(one[0])


class SimBoard(StreamHost):
    """The Board interface (see tablefw/app.py) over a virtual tower's pipes."""

    def __init__(
        self,
        samples,
        frames,
        host_in,
        host_out,
        board_id=None,
        seats=None,
        paced=True,
        reset="power-on",
        keep_file=None,
    ):
        StreamHost.__init__(self, host_in, host_out)
        self._samples = samples
        self._frames = frames
        meta = read_meta(samples)
        self.meta = meta
        cells = int(meta.get("cells", RECORD_CELLS))
        if board_id is None:
            # Stable for a tower configuration, so journals can tell simulated tables apart.
            board_id = "sim-%08x" % (binascii.crc32(json.dumps(meta).encode()) & 0xFFFFFFFF)
        self.info = {
            "board": board_id,
            "boot": binascii.hexlify(os.urandom(4)).decode(),
            "reset": reset,  # the runner says "watchdog" when its watchdog restarted us
            "seats": int(seats or meta.get("seats", pins.SEATS)),
            "cells": cells,
        }
        # The link's state kept across a reset: a file the simulated table keeps across its
        # watchdog resets and starts afresh at power-on (tablefw/keep.py).
        self.keep = keep.attach(self.info, keep.FileStore(keep_file) if keep_file else None)
        self.config = {
            "counts_per_gram": meta["counts_per_gram"],
            "cell_xy_mm": meta["cell_xy_mm"],
            "stick_g": meta["stick_g"],
            "rate_hz": meta.get("rate_hz", 80),
            "zero_counts": meta.get("zero_counts"),
            "ring": meta.get("ring"),
        }
        # The board's filesystem: meta "cal_file" (a path), where a stored calibration is read
        # at start (it outlives a watchdog reset) and written by the `cal` command. Without
        # it a calibration is kept in RAM only.
        self.cal_file = meta.get("cal_file")
        stored = calib.load(self.cal_file) if self.cal_file else None
        if stored and calib.check(dict(self.config, **stored), cells) is None:
            self.config.update(stored)
        self.faults = 0
        self.paced = paced  # simulated time waits for the host (see tablefw/app.py)
        self._ncells = cells if cells < RECORD_CELLS else RECORD_CELLS
        self._record = bytearray(RECORD)
        self._buttons = 0
        self._ended = False
        self._samples_poll = poller(samples)
        self._header = bytearray(3)
        self._header[0] = ord("L")
        self._feed = bytearray(b"W\x00\x00")
        self._feed[1] = WDT_MS & 0xFF
        self._feed[2] = WDT_MS >> 8
        self._heard = array.array("i", [0] * cells)  # t_ms of each cell's last reading
        self._started = False  # a first sample was read (its time starts the cell clocks)

    # -- samples ------------------------------------------------------------------------------

    def read_sample(self, cells, accel):
        if self._ended:
            return END
        if not ready(self._samples_poll):
            return NO_SAMPLE
        b = self._record
        if self._samples.readinto(b) != RECORD:
            self._ended = True  # the tower closed the pipe
            return END
        t = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
        if t == _END_T:
            self._ended = True
            return END
        if not self._started:
            self._started = True
            for k in range(self._ncells):
                self._heard[k] = t & _T_MASK
        heard = self._heard
        silent = False
        for k in range(self._ncells):
            v = _i32(b, 4 + 4 * k)
            cells[k] = v
            if v != MISSING:
                heard[k] = t & _T_MASK
            elif (t - heard[k]) & _T_MASK > CELL_TIMEOUT_MS:
                silent = True
        if silent:
            self.faults |= FAULT_CELLS
        else:
            self.faults &= ~FAULT_CELLS
        ax = _i16(b, 20)
        if ax == ACCEL_STUCK:
            while True:  # a read that never returns: only the watchdog gets us out
                time.sleep_ms(1000)
        if ax == ACCEL_FAILED:
            self.faults |= FAULT_ACCEL  # keep the last good reading
        else:
            self.faults &= ~FAULT_ACCEL
            accel[0] = ax
            accel[1] = _i16(b, 22)
            accel[2] = _i16(b, 24)
        self._buttons = b[26]
        return t

    def wait_sample(self):
        return wait_readable(self._samples)

    def sample_done(self):
        self._frames.write(b"A")

    def buttons(self):
        return self._buttons

    # -- LEDs ---------------------------------------------------------------------------------

    def save_config(self, config):
        return calib.save(self.cal_file, config) if self.cal_file else None

    def show(self, frame):
        header = self._header
        n = len(frame)
        header[1] = n & 0xFF
        header[2] = n >> 8
        self._frames.write(header)
        self._frames.write(frame)

    def watchdog_feed(self):
        self._frames.write(self._feed)
