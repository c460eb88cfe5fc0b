"""The app reports a board's failing parts as `fault` events, once per change, under MicroPython."""

import json

META = {
    "cells": 4,
    "counts_per_gram": [2000.0] * 4,
    "stick_g": 8.0,
    "cell_xy_mm": [[-60, -60], [60, -60], [60, 60], [-60, 60]],
}

SCRIPT = r"""
import sys
from tablefw.app import App
from tablefw.board_sim import SimBoard

board = SimBoard(open(sys.argv[1], "rb"), open("/dev/null", "wb"), open("/dev/null", "rb"),
                 open(sys.argv[2], "wb"))
app = App(board)

for faults in (0, 1, 1, 3, 2, 0):  # bit 0: cells, bit 1: accelerometer
    board.faults = faults
    app.report_faults()
"""


def test_faults_are_reported_on_change(mp, tmp_path):
    samples, host = tmp_path / "samples.bin", tmp_path / "host.txt"
    samples.write_bytes((json.dumps(META) + "\n").encode())
    script = tmp_path / "faults.py"
    script.write_text(SCRIPT)
    proc = mp(script, str(samples), str(host))
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    faults = {}  # by seq (a link may resend unacknowledged events)
    for line in host.read_text().splitlines():
        body = json.loads(line[1 : line.rindex("*")])
        if body["k"] == "fault":
            faults[body["s"]] = (body["what"], body["ok"])
    assert [faults[s] for s in sorted(faults)] == [
        ("cells", False),
        ("accel", False),
        ("cells", True),
        ("accel", True),
    ]
