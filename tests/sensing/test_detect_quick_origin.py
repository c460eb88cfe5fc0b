"""A fall taken on the quick window keeps the press watch's origin from that window (issue 10).

A lower level held _QUICK samples (50 ms) is a fall, committed at once (tablefw/detect.py
`_step`). The press watch's origin (total and moments, `_keep_origin`) was taken over the
stable window's 8 samples, half of them from before the drop: 4 g and 160 g x mm off after an
8 g stick left off-centre, until the next stable window took it again. A hand touching the
tower within those 50 ms holds the plate off stable, so its whole press was measured from that
origin: its line stood off like a stick gone, a fall told and a stick placed for it."""

import random
from array import array

from tablefw.detect import FELL, PLACED, Detector

CPG = 2000.0
XY = [(-66, -66), (66, -66), (66, 66), (-66, 66)]


def _cells(sticks):
    """Each cell's grams under `sticks` ((grams, (x, y)) on a square of cells 132 mm apart)."""
    w = [0.0] * 4
    for g, (x, y) in sticks:
        for c, (cx, cy) in enumerate(XY):
            w[c] += g * (1 + x * cx / 66 / 66) * (1 + y * cy / 66 / 66) / 4
    return w


def _game(seed, press_after_ms):
    """Four 8 g sticks (the last 40 mm off-centre); the last falls at once at 9.0 s, and a hand
    presses up to 100 g from `press_after_ms` after the fall's quick window was taken, then
    lets go. The events after the fall's own: (kind, count)."""
    rng = random.Random(seed)
    det = Detector([CPG] * 4, XY, 8.0, rate_hz=80)
    cells = array("i", [0] * 4)
    out = array("i", [0] * 4)
    tower = [(8.0, (0, 0))] * 3 + [(8.0, (40, 0))]
    plan = [(3000, [])] + [(1500, tower[:k]) for k in range(1, 5)]
    plan += [(48 + press_after_ms, tower[:3])]  # (the quick window is taken 48 ms in)
    for i in range(60):
        g = 100.0 * min(i, 30) / 30 if i < 45 else 100.0 * (60 - i) / 15
        plan.append((12, tower[:3] + [(g, (-30, 20))]))
    plan.append((2000, tower[:3]))
    events = []
    t = 0
    for ms, sticks in plan:
        w = _cells(sticks)
        for _ in range(ms // 12):
            for c in range(4):
                cells[c] = int((w[c] + rng.gauss(0, 0.03)) * CPG)
            det.feed(t, cells, 0, 0, 1000)
            while det.pop(out):
                events.append((out[0], out[1], out[2]))
            t += 12
    after = [e for e in events if e[1] >= 9000]
    assert after[0][0] == FELL and after[0][2] == 1, after  # the fall itself, told once
    return [(k, n) for k, _, n in after[1:]]


def test_a_hand_right_after_a_quick_fall_is_measured_from_the_level_after_it():
    for seed in range(1, 5):
        told = _game(seed, 12)
        assert (FELL, 1) not in told and (PLACED, 1) not in told, (seed, told)
