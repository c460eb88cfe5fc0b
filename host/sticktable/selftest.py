"""`sticktable selftest`: check a table's sensing before play, as a report card.

    sticktable selftest [--port DEV | --sim] --mass GRAMS [--seed N]

Steps (the person follows the prompts; under --sim each is acted out on the virtual tower in
simulated time, so the whole card takes seconds):
- the empty plate still for a few seconds: the noise floor and the accelerometer's sanity
  (about 1 g, the table about level, little noise);
- the known mass at the centre and over each cell: gain error (weighed against the mass) and
  centre-of-pressure error (found against where it stands);
- the empty plate for a minute: drift;
- a tap on the plate: its resonance (frequency, damping) learned by the firmware's detector,
  and the ring test: how much of the ringing the detector's filter leaves.
Each line says pass or fail and, when it fails, what to fix. Exit 0 when all pass, 1 if not.
"""

from __future__ import annotations

import math
from array import array

from sticktable.errors import UserError

MASS_GAIN_PCT = 1.0  # the known mass weighed within 1 %
COP_MM = 5.0  # ... and found within 5 mm of where it stands
NOISE_G = 0.5  # the empty plate's total: 1 sigma under 0.5 g (~6 % of a stick)
DRIFT_G_PER_MIN = 0.5
ACCEL_G_TOL_MG = 60  # |a| = 1 g within 6 %
LEVEL_DEG = 3.0  # the table within 3 degrees of level
ACCEL_NOISE_MG = 10.0
RING_HZ = (4.0, 40.0)  # a resonance the detector can learn at ~80 samples/s
RING_LEFT_PCT = 25.0  # the filter leaves under a quarter of the ringing
STILL_MS = 3000
DRIFT_MS = 60_000
TAP_MS = 2500


class Check:
    def __init__(self, name: str, ok: bool, value: str, fix: str = ""):
        self.name, self.ok, self.value, self.fix = name, ok, value, fix

    def line(self) -> str:
        text = f"  {'PASS' if self.ok else 'FAIL'}  {self.name:<28} {self.value}"
        return text + ("" if self.ok else f"\n        fix: {self.fix}")


def _cell_grams(samples, meta) -> list[list[float]]:
    """Per sample, grams on each cell against zero_counts (missing readings: the last one)."""
    cpg, zero = meta["counts_per_gram"], meta["zero_counts"]
    recent = [[z, z, z] for z in zero]  # median of three: the HX711's wild values go
    first = True
    out = []
    for s in samples:
        for i, v in enumerate(s.cells):
            if v is not None and -8388608 < v < 8388607:
                recent[i] = [v, v, v] if first else recent[i][1:] + [v]
        first = False
        out.append([(sorted(recent[i])[1] - zero[i]) / cpg[i] for i in range(len(cpg))])
    return out


def _median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def _level(samples, meta) -> list[float]:
    """Each cell's median grams over a window (a still plate)."""
    per = _cell_grams(samples, meta)
    return [_median([row[i] for row in per]) for i in range(len(meta["counts_per_gram"]))]


def _sd(values):
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1))


def noise_and_accel(still, meta) -> list[Check]:
    totals = [sum(row) for row in _cell_grams(still, meta)]
    sd = _sd(totals)
    checks = [
        Check(
            "noise floor (total, 1 sigma)",
            sd <= NOISE_G,
            f"{sd:.3f} g (limit {NOISE_G} g)",
            "shorten and shield the HX711 wires, power the cells from a clean supply, "
            "keep the table off vibrating furniture",
        )
    ]
    ax = [s.ax for s in still]
    ay = [s.ay for s in still]
    az = [s.az for s in still]
    mx, my, mz = (sum(v) / len(v) for v in (ax, ay, az))
    norm = math.sqrt(mx * mx + my * my + mz * mz)
    tilt = math.degrees(math.atan2(math.hypot(mx, my), mz)) if mz else 90.0
    a_noise = max(_sd(ax), _sd(ay), _sd(az))
    checks.append(
        Check(
            "accelerometer: 1 g",
            abs(norm - 1000) <= ACCEL_G_TOL_MG,
            f"{norm:.0f} mg",
            "check the accelerometer's wiring and its range setting (milli-g, +-2 g)",
        )
    )
    checks.append(
        Check(
            "accelerometer: table level",
            tilt <= LEVEL_DEG and mz > 0,
            f"{tilt:.1f} deg from z up",
            "level the table, and mount the accelerometer flat with z up in the base",
        )
    )
    checks.append(
        Check(
            "accelerometer: noise",
            a_noise <= ACCEL_NOISE_MG,
            f"{a_noise:.1f} mg (limit {ACCEL_NOISE_MG:g})",
            "fix the accelerometer firmly in the base; check its supply",
        )
    )
    return checks


def gain_and_cop(empty, placed: list[tuple[tuple[float, float], list]], meta, mass) -> list[Check]:
    zero = _level(empty, meta)
    xy = meta["cell_xy_mm"]
    checks = []
    for (x, y), samples in placed:
        level = [g - z for g, z in zip(_level(samples, meta), zero, strict=True)]
        total = sum(level)
        err = 100.0 * (total - mass) / mass
        cx = sum(g * p[0] for g, p in zip(level, xy, strict=True)) / total if total else 0.0
        cy = sum(g * p[1] for g, p in zip(level, xy, strict=True)) / total if total else 0.0
        off = math.hypot(cx - x, cy - y)
        where = "centre" if (x, y) == (0.0, 0.0) else f"({x:g}, {y:g}) mm"
        checks.append(
            Check(
                f"mass at {where}",
                abs(err) <= MASS_GAIN_PCT and off <= COP_MM,
                f"gain {err:+.2f} %, centre of pressure off by {off:.1f} mm",
                "recalibrate (sticktable calibrate --mass GRAMS); if one spot stays off, check "
                "that cell's mounting and that cell_xy_mm says where the cells really are",
            )
        )
    return checks


def drift(minute, meta) -> Check:
    totals = [sum(row) for row in _cell_grams(minute, meta)]
    t0 = minute[0].t_ms
    span = (minute[-1].t_ms - t0) / 60000.0 or 1.0
    head = [g for s, g in zip(minute, totals, strict=True) if s.t_ms - t0 < 2000]
    tail = [g for s, g in zip(minute, totals, strict=True) if minute[-1].t_ms - s.t_ms < 2000]
    rate = (_median(tail) - _median(head)) / span
    return Check(
        "drift over a minute",
        abs(rate) <= DRIFT_G_PER_MIN,
        f"{rate:+.2f} g/min (limit {DRIFT_G_PER_MIN:g})",
        "let the table warm up for 15 minutes; a steady drift after that is creep: check the "
        "cells are mounted without side load",
    )


def resonance(tap, meta) -> list[Check]:
    """Feed the tap to the firmware's detector: what it learned, and what its filter leaves."""
    from tablefw.calibrator import make_detector
    from tablefw.reading import MISSING
    from tablefw.ringfit import describe

    det = make_detector({k: v for k, v in meta.items() if k != "ring"})  # from the tap alone
    n = int(meta["cells"])
    cells = array("i", [0] * n)
    out = array("i", [0, 0, 0, 0])
    raw, nulled = [], []
    learned_at = None
    for s in tap:
        for i in range(n):
            v = s.cells[i]
            cells[i] = MISSING if v is None else v
        det.feed(s.t_ms, cells, s.ax, s.ay, s.az)
        while det.pop(out):
            pass
        raw.append(det.raw_total())
        nulled.append(det.total())
        if learned_at is None and det.resonance()[1]:
            learned_at = len(raw)
    a1, a2 = det.resonance()
    if not a2:
        return [
            Check(
                "plate resonance (tap)",
                False,
                "no ringing learned",
                "tap the plate firmly once with a knuckle; if it still does not ring, the "
                "plate may be damped enough that ringing is no problem (then ignore this line)",
            )
        ]
    rate = 1000.0 / _median([b.t_ms - a.t_ms for a, b in zip(tap, tap[1:], strict=False)])
    period, zeta = describe(a1, a2) or (float("inf"), 0.0)
    hz = rate / period
    checks = [
        Check(
            "plate resonance (tap)",
            RING_HZ[0] <= hz <= RING_HZ[1],
            f"{hz:.1f} Hz, damping ratio {zeta:.3f}",
            "the plate rings too close to the sample rate's limit: stiffen the plate or add "
            "mass under it",
        )
    ]
    # The ring test: the ringing the filter leaves against the raw ringing, over half a
    # second from when the detector had learned it.
    span = slice(learned_at + 6, learned_at + 46)
    level = _median(raw[-20:])
    ring_raw = max((abs(v - level) for v in raw[span]), default=0)
    ring_left = max((abs(v - level) for v in nulled[span]), default=0)
    left = 100.0 * ring_left / ring_raw if ring_raw else 0.0
    checks.append(
        Check(
            "ring test (filter leaves)",
            left <= RING_LEFT_PCT,
            f"{left:.0f} % of {ring_raw / 100:.1f} g ringing",
            "tap again on a still plate (nothing touching it); if it stays high, the plate "
            "rings in more than one way: fix loose parts of the plate",
        )
    )
    return checks


def report(meta, bench, mass: float) -> tuple[bool, list[Check]]:
    """Run every step on `bench` (a SimBench or a LinkBench) and grade it."""
    checks: list[Check] = []
    if not meta.get("zero_counts"):
        raise UserError("the board has no zero_counts: run `sticktable calibrate` first")
    still = bench.window(("empty",), STILL_MS, "Empty the plate and keep hands off the table.")
    checks += noise_and_accel(still, meta)
    placed = []
    spots = [(0.0, 0.0)] + [(float(p[0]), float(p[1])) for p in meta["cell_xy_mm"]]
    for x, y in spots:
        where = "at the centre" if (x, y) == (0.0, 0.0) else f"right over ({x:g}, {y:g}) mm"
        samples = bench.window(("mass", x, y), STILL_MS, f"Put the {mass:g} g mass {where}.")
        placed.append(((x, y), samples))
    checks += gain_and_cop(still, placed, meta, mass)
    minute = bench.window(("empty",), DRIFT_MS, "Take the mass off; keep the plate empty.")
    checks.append(drift(minute, meta))
    tap = bench.window(("tap",), TAP_MS, "Tap the plate firmly once, then keep hands off.")
    checks += resonance(tap, meta)
    return all(c.ok for c in checks), checks
