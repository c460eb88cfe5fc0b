"""The detector under the real MicroPython interpreter: the same events as under CPython, and no
allocation per sample (every feed() and pop() runs under micropython.heap_lock())."""

import json
from pathlib import Path

import pytest

from sticktable.sim.detection import run_detector
from sticktable.sim.trace import read_trace

MP_DETECT = Path(__file__).with_name("mp_detect.py")
NAMES = [
    "touch",
    "knock-off",
    "fall-after-place",
    "topple",
    "wild",
    "missing",
    "inverted",
    "cascade",
]


def micropython_events(mp, path, *flags):
    done = mp(MP_DETECT, str(path), *flags)
    assert done.returncode == 0, done.stdout.decode()[-2000:] + done.stderr.decode()[-2000:]
    lines = done.stdout.decode().splitlines()
    return [json.loads(line) for line in lines if line.startswith("{")], lines


@pytest.mark.parametrize("name", NAMES)
def test_same_events_under_micropython_and_cpython_without_allocating(mp, trace_file, name):
    path, _ = trace_file(name, 1)
    meta, samples = read_trace(path)
    expected = run_detector(meta, samples)
    assert expected, "a scenario with no events proves nothing"
    got, _ = micropython_events(mp, path, "--lock")
    assert got == expected


def test_same_events_on_a_three_cell_board_with_heavy_sticks(mp, trace_file):
    path, _ = trace_file("burst", 4, cells=3, stick_g=12.0)
    meta, samples = read_trace(path)
    assert meta["cells"] == 3
    expected = run_detector(meta, samples)
    assert any(e["kind"] == "fell" for e in expected)
    got, _ = micropython_events(mp, path, "--lock")
    assert got == expected


def test_heap_lock_really_catches_an_allocation(mp, tmp_path):
    script = tmp_path / "alloc.py"
    script.write_text(
        "import micropython\n"
        "micropython.heap_lock()\n"
        "try:\n"
        "    x = [1, 2, 3]\n"
        "    micropython.heap_unlock()\n"
        "    print('no error')\n"
        "except MemoryError:\n"
        "    micropython.heap_unlock()\n"
        "    print('MemoryError')\n"
    )
    assert mp(script).stdout.decode().strip() == "MemoryError"


def test_arm_and_missing_cells_do_not_allocate_in_feed(mp, tmp_path):
    script = tmp_path / "arm.py"
    script.write_text(
        "import micropython\n"
        "from array import array\n"
        "from tablefw.detect import Detector, MISSING\n"
        "d = Detector([2150.0, -2100.0, 2200.0, 2000.0], [[-70, -70], [70, -70], [70, 70],"
        " [-70, 70]], 8.0, 80, [1000, -2000, 3000, 400])\n"
        "cells = array('i', [50000, -40000, 60000, 30000])\n"
        "out = array('i', [0, 0, 0, 0])\n"
        "for t in range(3000):\n"
        "    if t == 1500:\n"
        "        d.arm()\n"
        "    cells[t % 4] = MISSING if t % 7 == 0 else 50000 + (t % 5) * 3000\n"
        "    az = 1000 if t < 2500 else 700\n"
        "    micropython.heap_lock()\n"
        "    n = d.feed(t * 12, cells, 3, -4, az)\n"
        "    while d.pop(out):\n"
        "        pass\n"
        "    micropython.heap_unlock()\n"
        "print('ok')\n"
    )
    done = mp(script)
    assert done.stdout.decode().strip() == "ok", done.stdout.decode() + done.stderr.decode()


def test_a_slow_plate_is_learned_and_nulled_without_allocating(mp, tmp_path):
    # The period's boxcar is resized while feed() runs (tablefw/detect.py _period).
    from test_detect_slow_ring import CPG, RATE, ringing

    from sticktable.sim.tower import Sample
    from sticktable.sim.trace import write_trace

    totals = ringing(7.0, 0.01, 18.0, {1.0: 30.0, 5.0: 30.0, 9.0: 30.0}, noise_g=0.3)
    for n in range(int(12.0 * RATE), len(totals)):
        totals[n] += 12.0 if n < int(15.0 * RATE) else 0.0  # a stick placed, then it falls
    samples = [
        Sample(int(n * 1000 / RATE), tuple(int(g / 4 * CPG) for _ in range(4)), 0, 0, 1000)
        for n, g in enumerate(totals)
    ]
    meta = {
        "rate_hz": 80,
        "cells": 4,
        "counts_per_gram": [CPG] * 4,
        "cell_xy_mm": [[-66, -66], [66, -66], [66, 66], [-66, 66]],
        "stick_g": 12.0,
    }
    path = tmp_path / "slow.csv"
    write_trace(path, meta, samples)
    meta, samples = read_trace(path)
    expected = run_detector(meta, samples)
    assert [e["kind"] for e in expected] == ["placed", "fell"], expected
    got, _ = micropython_events(mp, path, "--lock")
    assert got == expected
