"""The app feeds the board's watchdog only while its sampler is alive, under MicroPython.

A sampler that dies (here: a board whose read raises) stops the feeds, so the watchdog resets
the board; a sampler that has simply run out of samples (or waits for one) keeps feeding.
"""

import json
import struct

from micropython_runner import SOURCE_HEAP

RECORD = struct.Struct("<I4i3hB")
META = {
    "cells": 4,
    "counts_per_gram": [2000.0] * 4,
    "stick_g": 8.0,
    "cell_xy_mm": [[-60, -60], [60, -60], [60, 60], [-60, 60]],
}

SCRIPT = r"""
import asyncio, sys
from tablefw.app import App
from tablefw.board_sim import SimBoard

crash_after = int(sys.argv[3])


class Board(SimBoard):
    def read_sample(self, cells, accel):
        t = SimBoard.read_sample(self, cells, accel)
        if crash_after and t > crash_after:
            raise ValueError("a driver bug")
        return t


board = Board(open(sys.argv[1], "rb"), open(sys.argv[2], "wb"), open("/dev/null", "rb"),
              open("/dev/null", "wb"), paced=False)
app = App(board)


async def main():
    asyncio.create_task(app.sampler())
    asyncio.create_task(app.ticker())
    await asyncio.sleep_ms(500)


asyncio.run(main())
"""


def feeds_after_last_sample(mp, tmp_path, crash_after: int) -> int:
    samples, frames = tmp_path / "samples.bin", tmp_path / "frames.bin"
    records = [RECORD.pack(12 * i, 1, 2, 3, 4, 0, 0, 1000, 0) for i in range(1, 101)]
    records.append(RECORD.pack(0xFFFFFFFF, 0, 0, 0, 0, 0, 0, 0, 0))
    samples.write_bytes((json.dumps(META) + "\n").encode() + b"".join(records))
    script = tmp_path / "watchdog.py"
    script.write_text(SCRIPT)
    # SOURCE_HEAP: the whole app compiled from source fragments the board's heap (a
    # board loads .mpy files; tests/bench/bench_ram.py reports both budgets).
    proc = mp(script, str(samples), str(frames), str(crash_after), heap=SOURCE_HEAP)
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    out = frames.read_bytes()
    assert out.count(b"A") == (100 if not crash_after else crash_after // 12)
    assert out.count(b"W") >= 1  # fed while the sampler was alive
    tail = out[out.rindex(b"A") + 1 :]
    assert tail.replace(b"W\xd0\x07", b"") == b""  # feeds only: "W" + 2000 ms (u16le)
    return tail.count(b"W")


def test_a_finished_sampler_keeps_the_watchdog_fed(mp, tmp_path):
    assert feeds_after_last_sample(mp, tmp_path, crash_after=0) >= 3  # ~10 in 0.5 s


def test_a_dead_sampler_starves_the_watchdog(mp, tmp_path):
    assert feeds_after_last_sample(mp, tmp_path, crash_after=600) <= 1
