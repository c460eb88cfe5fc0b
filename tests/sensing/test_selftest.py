"""`sticktable selftest --sim`: the report card on the virtual tower, in simulated time."""

import subprocess
import sys

import pytest

from sticktable.commands.selftest import SimBench
from sticktable.selftest import Check, drift, gain_and_cop, noise_and_accel


def selftest(*args):
    return subprocess.run(
        [sys.executable, "-m", "sticktable", "selftest", *args],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_the_virtual_tower_passes_every_check():
    done = selftest("--sim", "--seed", "3", "--mass", "200")
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    for name in ("noise floor", "accelerometer: 1 g", "mass at centre", "drift over a minute",
                 "plate resonance", "ring test"):  # fmt: skip
        assert f"PASS  {name}" in out, out
    assert out.count("PASS  mass at") == 5  # the centre and each of the four cells
    assert "FAIL" not in out


def test_a_bad_cell_fails_the_gain_check_and_says_what_to_fix():
    bench = SimBench(3, 200.0)
    meta = dict(bench.meta)
    meta["counts_per_gram"] = list(meta["counts_per_gram"])
    meta["counts_per_gram"][1] *= 1.05  # the calibration is 5 % off on cell 2
    empty = bench.window(("empty",), 2000, "")
    placed = [((x, y), bench.window(("mass", x, y), 2000, "")) for x, y in [(0.0, 0.0)]]
    checks = gain_and_cop(empty, placed, meta, 200.0)
    assert not checks[0].ok and "recalibrate" in checks[0].line()


def test_noise_drift_and_a_tilted_accelerometer_are_caught():
    bench = SimBench(4, 200.0)
    board = bench.tower.board
    board.noise_g = [1.0] * len(board.noise_g)  # a noisy cell wiring
    board.creep_g_per_min = [2.0] * len(board.noise_g)  # creeping cells
    board.accel_offset = (150.0, 0.0, 0.0)  # a table leaning ~9 degrees
    still = bench.window(("empty",), 2000, "")
    checks = {c.name: c for c in noise_and_accel(still, bench.meta)}
    assert not checks["noise floor (total, 1 sigma)"].ok
    assert not checks["accelerometer: table level"].ok
    assert not drift(bench.window(("empty",), 60000, ""), bench.meta).ok


def test_a_check_line_names_the_fix_only_when_it_fails():
    assert "fix" not in Check("x", True, "1", "do y").line()
    assert "fix: do y" in Check("x", False, "1", "do y").line()


@pytest.mark.parametrize("args", [["--sim", "--mass", "0"], ["--sim", "--mass", "-5"]])
def test_a_bad_mass_is_a_one_line_error(args):
    done = selftest(*args)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "sticktable: --mass must be a positive number of grams"
    ]
