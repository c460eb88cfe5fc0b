# The simulated board of the unix port: a virtual tower instead of sensors and LEDs
# (contract "Simulated board <-> virtual tower"; the other end is host/sticktable/sim/runner.py).
#
#   samples (tower -> firmware): one line of JSON (the sensor-trace meta), then records of
#       struct "<I4i3hB": t_ms, lc0..lc3 (MISSING for none), ax, ay, az (milli-g), buttons mask;
#       t_ms = 0xFFFFFFFF ends the samples.
#   frames (firmware -> tower): b"A" after each processed sample (lockstep), and
#       b"L" + u16le length + GRB bytes whenever the LED frame changes.
#   host link: a binary stream pair (stdin/stdout on a pty under the runner).
#   paced (default): simulated time waits for the host, see App.held in tablefw/app.py.
#
# Unix-port facts this relies on: a FileIO's read(n)/readinto(buf) waits until it has them all,
# so the host stream is read one byte at a time while poll says it is readable (records arrive
# whole: the tower writes each with one write() of less than PIPE_BUF). select.poll.ipoll()
# is allocation-free, which keeps read_sample() allocation-free. Waiting is done on asyncio's
# I/O queue, the way asyncio's own streams wait. StreamHost (the host link over two byte streams)
# is shared with the RP2040 board, whose host link is USB CDC stdin/stdout.

import asyncio
import binascii
import json
import os
import select

from micropython import const

from tablefw import pins

NO_SAMPLE = const(-1)  # same values as tablefw.app
END = const(-2)
RECORD = const(27)  # struct.calcsize("<I4i3hB")
RECORD_CELLS = const(4)
_END_T = const(0xFFFFFFFF)
_READABLE = select.POLLIN | select.POLLHUP | select.POLLERR


def _i32(b, o):
    v = b[o] | b[o + 1] << 8 | b[o + 2] << 16 | b[o + 3] << 24
    return v - 0x100000000 if v & 0x80000000 else v


def _i16(b, o):
    v = b[o] | b[o + 1] << 8
    return v - 0x10000 if v & 0x8000 else v


def wait_readable(stream):
    # Awaitable: suspends the task until `stream` polls readable (asyncio's stream idiom).
    yield asyncio.core._io_queue.queue_read(stream)


def poller(stream):
    poll = select.poll()
    poll.register(stream, select.POLLIN)
    return poll


def ready(poll):
    for entry in poll.ipoll(0):  # the tuple is the poller's own: no allocation
        if entry[1] & _READABLE:
            return True
    return False


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


class StreamHost:
    """The host link over a pair of byte streams (unix: a pty; RP2040: USB CDC stdin/stdout)."""

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


class SimBoard(StreamHost):
    """The Board interface (see tablefw/app.py) over a virtual tower's pipes."""

    def __init__(self, samples, frames, host_in, host_out, board_id=None, seats=None, paced=True):
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
            "reset": "power-on",
            "seats": int(seats or meta.get("seats", pins.SEATS)),
            "cells": cells,
        }
        self.config = {
            "counts_per_gram": meta["counts_per_gram"],
            "cell_xy_mm": meta["cell_xy_mm"],
            "stick_g": meta["stick_g"],
            "rate_hz": meta.get("rate_hz", 80),
            "zero_counts": meta.get("zero_counts"),
        }
        self.faults = 0
        self.paced = paced  # simulated time waits for the host (see tablefw/app.py)
        self._ncells = cells if cells < RECORD_CELLS else RECORD_CELLS
        self._record = bytearray(RECORD)
        self._buttons = 0
        self._ended = False
        self._samples_poll = poller(samples)
        self._header = bytearray(3)
        self._header[0] = ord("L")

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
        for k in range(self._ncells):
            cells[k] = _i32(b, 4 + 4 * k)
        accel[0] = _i16(b, 20)
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

    def show(self, frame):
        header = self._header
        n = len(frame)
        header[1] = n & 0xFF
        header[2] = n >> 8
        self._frames.write(header)
        self._frames.write(frame)

    def watchdog_feed(self):
        pass
