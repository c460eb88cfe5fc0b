"""The app reports a board's failing parts as `fault` events, once per change, under MicroPython:
from the sample stream (a cell silent for over a second, accelerometer errors) and directly."""

import json
import struct

from micropython_runner import SOURCE_HEAP

from tablefw.reading import MISSING

RECORD = struct.Struct("<I4i3hB")
ACCEL_FAILED = -32768
META = {
    "cells": 4,
    "counts_per_gram": [2000.0] * 4,
    "stick_g": 8.0,
    "cell_xy_mm": [[-60, -60], [60, -60], [60, 60], [-60, 60]],
}
ZERO = [10000, 20000, 30000, 40000]

DIRECT = r"""
import sys
from tablefw.app import App
from tablefw.board_sim import SimBoard

board = SimBoard(open(sys.argv[1], "rb"), open("/dev/null", "wb"), open("/dev/null", "rb"),
                 open(sys.argv[2], "wb"))
app = App(board)

for faults in (0, 1, 1, 3, 2, 0):  # bit 0: cells, bit 1: accelerometer
    board.faults = faults
    app.report_faults(1234)
app.send_events()
"""

STREAM = r"""
import sys
from tablefw.app import App, END
from tablefw.board_sim import SimBoard

board = SimBoard(open(sys.argv[1], "rb"), open("/dev/null", "wb"), open("/dev/null", "rb"),
                 open(sys.argv[2], "wb"))
app = App(board)
while app.step() != END:
    pass
app.send_events()
print(app.accel[0], app.accel[1], app.accel[2])
"""


def faults_sent(host_text: str) -> list[tuple]:
    faults = {}  # by seq (a link may resend unacknowledged events)
    for line in host_text.splitlines():
        body = json.loads(line[1 : line.rindex("*")])
        if body["k"] == "fault":
            faults[body["s"]] = (body["what"], body["ok"], body["t"])
    return [faults[s] for s in sorted(faults)]


def run(mp, tmp_path, script_text, records=()):
    samples, host = tmp_path / "samples.bin", tmp_path / "host.txt"
    samples.write_bytes((json.dumps(META) + "\n").encode() + b"".join(records))
    script = tmp_path / "faults.py"
    script.write_text(script_text)
    proc = mp(script, str(samples), str(host), heap=SOURCE_HEAP)  # the whole app from source
    assert proc.returncode == 0, proc.stdout.decode() + proc.stderr.decode()
    return proc.stdout.decode(), faults_sent(host.read_text())


def test_faults_are_reported_on_change(mp, tmp_path):
    _, faults = run(mp, tmp_path, DIRECT)
    assert faults == [
        ("cells", False, 1234),
        ("accel", False, 1234),
        ("cells", True, 1234),
        ("accel", True, 1234),
    ]


def test_faults_from_the_sample_stream(mp, tmp_path):
    records = []
    for i in range(400):  # 12 ms apart: 4.8 s
        t = 12 * (i + 1)
        cells = list(ZERO)
        if 50 <= i < 200:  # cell 1 silent from 0.6 s to 2.4 s
            cells[1] = MISSING
        if i == 30:
            cells[2] = MISSING  # one lost reading is no fault
        ax = ACCEL_FAILED if 250 <= i < 260 else 5
        records.append(RECORD.pack(t, *cells, ax, -7, 1002, 0))
    records.append(RECORD.pack(0xFFFFFFFF, 0, 0, 0, 0, 0, 0, 0, 0))
    out, faults = run(mp, tmp_path, STREAM, records)
    last_heard = 12 * 50  # cell 1's last reading
    assert faults == [
        ("cells", False, last_heard + 1008),  # the first sample more than 1 s after it spoke
        ("cells", True, 12 * 201),  # it answers again
        ("accel", False, 12 * 251),
        ("accel", True, 12 * 261),
    ]
    assert out.split() == ["5", "-7", "1002"]
