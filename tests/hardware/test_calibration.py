"""Load-cell calibration: the solver recovers each cell's counts per gram from placements
that load every cell a little, and the board-side reader runs under MicroPython."""

import json
import random

import pytest
from hardware import HARDWARE_DIR, calibration

GAINS = [2150.0, -2080.0, 2230.0, 1990.0]  # counts per gram, sign included (wiring)
ZERO = [120_000, -40_000, 8_000, 310_000]


def _reading(weights, mass, rng):
    """Raw counts with `mass` grams shared between the cells by `weights`, plus noise."""
    return [
        z + round(k * mass * w + rng.gauss(0, 30))
        for z, k, w in zip(ZERO, GAINS, weights, strict=True)
    ]


def _placements(mass, rng):
    """The mass over each cell in turn: most of it on that cell, some on its neighbours."""
    out = []
    for i in range(4):
        weights = [0.06] * 4
        weights[i] = 0.70
        weights[(i + 1) % 4] = weights[(i + 3) % 4] = 0.12
        out.append(_reading(weights, mass, rng))
    return out


def test_solver_recovers_each_cell():
    rng = random.Random(5)
    counts = calibration.solve(ZERO, _placements(200, rng), 200)
    for got, true in zip(counts, GAINS, strict=True):
        assert got == pytest.approx(true, rel=0.002)


def test_calibration_weighs_the_centre_and_the_sticks():
    rng = random.Random(6)
    readings = {
        "zero": ZERO,
        "cells": _placements(200, rng),
        "centre": _reading([0.25] * 4, 200, rng),
        "sticks": [10, _reading([0.25] * 4, 81.0, rng)],
    }
    result = calibration.calibration(readings, 200)
    assert calibration.grams(readings["centre"], ZERO, result["counts_per_gram"]) == pytest.approx(
        200, abs=0.5
    )
    assert result["stick_g"] == pytest.approx(8.1, abs=0.05)
    assert set(result) == {"counts_per_gram", "zero_counts", "cell_xy_mm", "stick_g"}


def test_a_dead_cell_is_reported():
    rng = random.Random(7)
    placements = _placements(200, rng)
    for reading in placements:
        reading[2] = ZERO[2]  # cell 3 never changes
    with pytest.raises(calibration.CalibrationError):
        calibration.solve(ZERO, placements, 200)


def test_cli_recomputes_from_saved_readings(tmp_path, capsys):
    rng = random.Random(8)
    saved = tmp_path / "readings.json"
    saved.write_text(json.dumps({"zero": ZERO, "cells": _placements(100, rng)}))
    out = tmp_path / "calibration.json"
    assert calibration.main(["--readings", str(saved), "--mass", "100", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["counts_per_gram"][1] == pytest.approx(GAINS[1], rel=0.01)
    saved.write_text(json.dumps({"zero": ZERO, "cells": []}))
    assert calibration.main(["--readings", str(saved), "--mass", "100", "--out", str(out)]) == 1
    assert "calibration: need 4 placements" in capsys.readouterr().err


FAKE_MACHINE = """
class Pin:
    IN = 0
    OUT = 1

    def __init__(self, n, mode=-1, value=None):
        self.n = n

    def value(self, v=None):
        return 0  # DOUT low: data ready, every bit 0
def disable_irq():
    return 0
def enable_irq(state):
    pass
"""


def test_board_reader_runs_under_micropython(mp, tmp_path):
    (tmp_path / "machine.py").write_text(FAKE_MACHINE)
    result = mp(HARDWARE_DIR / "read_cells.py", extra_path=[tmp_path])
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(result.stdout) == [0, 0, 0, 0]
