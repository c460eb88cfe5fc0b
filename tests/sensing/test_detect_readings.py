"""What a cell's reading is taken as before anything else (issue 10, precision): a missing
reading while the load moves left a step in the moments that looked like a stick leaving under
a press.

Synthetic traces, fed to the firmware's detector one sample at a time."""

from array import array

from tablefw.calibrator import make_detector
from tablefw.reading import MISSING

CPG = 2000.0
META = {"rate_hz": 80, "cells": 4, "counts_per_gram": [CPG] * 4, "stick_g": 12.0,
        "cell_xy_mm": [[-70, -70], [70, -70], [70, 70], [-70, 70]], "sticks": 36,
        "accel": "base-mg", "zero_counts": [0] * 4}  # fmt: skip


def _feed(meta, rows):
    """Feed (t, cells) rows; the detector's raw and nulled totals after each (g x100)."""
    det = make_detector(meta)
    cells = array("i", [0] * 4)
    raw = []
    nulled = []
    for t, row in rows:
        for i in range(4):
            cells[i] = MISSING if row[i] is None else row[i]
        det.feed(t, cells, 0, 0, 1000)
        raw.append(det.raw_total())
        nulled.append(det.total())
    return det, raw, nulled


def test_a_missing_reading_while_the_load_moves_is_taken_halfway():
    # A hand pressing moves every cell; a cell with no reading repeated its last one, a step
    # behind the others for a sample: a step of the moments off the hand's line, spread by the
    # boxcar (noisy tuning seed 1014 turn 63: three such on one cell early in a press). Now
    # halfway between its neighbours.
    rows = []
    for k in range(400):
        g = 100.0 + max(0, k - 300) * 1.5  # every cell rising 1.5 g a sample from 3.75 s
        row = [round(g * CPG)] * 4
        if k == 320:
            row[2] = None
        rows.append((round(k * 12.5), row))
    _, raw, _ = _feed(META, rows)
    steps = [raw[k + 1] - raw[k] for k in range(305, 340)]
    assert max(steps) - min(steps) <= 4, steps
