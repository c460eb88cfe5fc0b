"""On a real board the seat buttons are read between load-cell samples too: a short press
while the cells are silent (chips being reset, a read the machine stalled) is still reported.
Under MicroPython, with the board's clock and a board whose cells give nothing."""

import json

from micropython_runner import SOURCE_HEAP

META = {
    "cells": 4,
    "counts_per_gram": [2000.0] * 4,
    "stick_g": 8.0,
    "cell_xy_mm": [[-60, -60], [60, -60], [60, 60], [-60, 60]],
}

SILENT_CELLS = r"""
import sys, time
from tablefw.app import App, NO_SAMPLE
from tablefw.board_sim import SimBoard


class SilentCells(SimBoard):
    # Real time, and cells that give no reading at all; seat 2 pressed 100-200 ms in.
    def read_sample(self, cells, accel):
        return NO_SAMPLE

    def buttons(self):
        ms = time.ticks_diff(time.ticks_ms(), start)
        return 1 << 2 if 100 <= ms < 200 else 0


board = SilentCells(open(sys.argv[1], "rb"), open("/dev/null", "wb"), open("/dev/null", "rb"),
                    open("/dev/null", "wb"), paced=sys.argv[2] == "paced")
app = App(board)
start = time.ticks_ms()
while time.ticks_diff(time.ticks_ms(), start) < 400:
    app.step()
    time.sleep_ms(5)
ev = [0, 0, 0, 0]
got = []
while app._queue.pop(ev):
    got.append(list(ev))
print(got)
"""


def presses(mp, tmp_path, pacing):
    samples = tmp_path / "samples.bin"
    samples.write_bytes((json.dumps(META) + "\n").encode())
    script = tmp_path / "silent.py"
    script.write_text(SILENT_CELLS)
    proc = mp(script, str(samples), pacing, heap=SOURCE_HEAP)
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    return json.loads(proc.stdout.decode().strip().splitlines()[-1])


def test_a_press_while_the_cells_are_silent_is_reported(mp, tmp_path):
    from tablefw import schema

    got = presses(mp, tmp_path, "real")
    assert [(kind, seat, long) for kind, _, seat, long in got] == [(schema.BUTTON, 2, 0)]


def test_a_simulated_board_reads_its_buttons_with_its_samples_only(mp, tmp_path):
    # Its buttons come in the sample records, stamped with simulated time.
    assert presses(mp, tmp_path, "paced") == []
