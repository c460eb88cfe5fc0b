"""Calibration end to end: the solver, stick-mass learning, and `sticktable calibrate` against the
simulated board (the real firmware under MicroPython) on a virtual plate with known gains."""

import json
import math
import random
import subprocess
import sys
import time

import pytest

from sticktable.calibration import (
    CalibrationError,
    command,
    grams,
    query,
    solve,
    stick_masses,
)
from sticktable.commands.calibrate import SimPlate, accuracy, walk
from sticktable.link import BoardLink
from sticktable.sim.runner import SimTable
from sticktable.sim.tower import lever_weights

CELLS = [[-65, -65], [65, -65], [65, 65], [-65, 65]]
GAINS = [2150.0, -2080.0, 2230.0, 1990.0]
ZERO = [120_000, -40_000, 8_000, 310_000]


def _reading(g, x, y, rng, noise=30):
    w = lever_weights(CELLS, x, y)
    return [
        z + round(k * g * wi + rng.gauss(0, noise)) for z, k, wi in zip(ZERO, GAINS, w, strict=True)
    ]


def test_a_stiff_plate_needs_the_moment_rows():
    # On a rigid plate every load spreads over the cells in a 3-dimensional space: the sums
    # alone leave the plate's twist free, the moments pin it down.
    rng = random.Random(1)
    spots = [tuple(p) for p in CELLS] + [(0.0, 0.0)]
    placements = [_reading(200, x, y, rng) for x, y in spots]
    got = solve(ZERO, placements, 200, spots, CELLS)
    for k, true in zip(got, GAINS, strict=True):
        assert k == pytest.approx(true, rel=0.001)
    try:
        sums_only = solve(ZERO, placements, 200)
    except CalibrationError:
        return
    assert max(abs(k - t) / abs(t) for k, t in zip(sums_only, GAINS, strict=True)) > 0.01


def test_masses_put_down_off_their_marks_barely_move_the_gains():
    # A plate that is not rigid (the sums tell the cells apart): 5 mm placement errors must not
    # bias the fit, since the moment rows weigh little.
    rng = random.Random(2)
    placements, spots = [], []
    for i in range(4):
        w = [0.06] * 4
        w[i] = 0.70
        w[(i + 1) % 4] = w[(i + 3) % 4] = 0.12
        placements.append(
            [z + round(k * 200 * wi) for z, k, wi in zip(ZERO, GAINS, w, strict=True)]
        )
        spots.append((CELLS[i][0] + rng.uniform(-5, 5), CELLS[i][1] + rng.uniform(-5, 5)))
    got = solve(ZERO, placements, 200, spots, CELLS)
    for k, true in zip(got, GAINS, strict=True):
        assert k == pytest.approx(true, rel=0.005)


def test_sticks_are_weighed_one_by_one():
    rng = random.Random(3)
    masses = [8.1, 7.8, 8.4, 8.0]
    levels, total = [], 0.0
    for m in masses:
        total += m
        levels.append(_reading(total, 10, -5, rng, noise=0))
    sticks = stick_masses(levels, ZERO, GAINS)
    assert sticks.masses == pytest.approx(masses, abs=0.01)
    assert sticks.mean == pytest.approx(8.075, abs=0.01)
    assert sticks.spread_pct == pytest.approx(100 * 0.6 / 8.075, abs=0.2)
    assert grams(levels[-1], ZERO, GAINS) == pytest.approx(sum(masses), abs=0.01)


def _after_boot_tare(link):
    deadline = time.monotonic() + 10
    while True:
        cal = query(link)
        if cal["tare"] or time.monotonic() > deadline:
            return cal
        link.poll(0.2)


def _empty(plate):
    # The empty plate's true reading now: each cell's zero offset plus its warm-up drift.
    b = plate.truth
    warm = 1 - math.exp(-plate.tower.t / 1000 / b.warmup_tau_s)
    minutes = plate.tower.t / 60000
    return [
        z + k * (w * warm + c * minutes)
        for z, k, w, c in zip(
            b.zero_counts, b.counts_per_gram, b.warmup_g, b.creep_g_per_min, strict=True
        )
    ]


@pytest.fixture
def answers(monkeypatch):
    """Enter for every prompt."""
    asked = []
    monkeypatch.setattr("builtins.input", lambda prompt="": asked.append(prompt) or "")
    return asked


@pytest.mark.parametrize("seed", [1, 7])
def test_calibrate_recovers_the_simulated_gains(seed, tmp_path, answers, capsys):
    plate = SimPlate(seed, 200.0)
    cal_file = tmp_path / "calibration.json"
    with SimTable(plate.samples(), plate.meta(cal_file)) as table:
        link = BoardLink.open(table.port, hello_timeout=20, ack_on_poll=True)
        try:
            before = _after_boot_tare(link)
            cal = walk(link, 200.0, 4, yes=True, plate=plate)
            after = query(link)
            with pytest.raises(CalibrationError, match="ring must be"):
                command(link, "cal", ring=[0.2, 0.05])  # < 2 samples a cycle: not sampled
            command(link, "arm")
            with pytest.raises(CalibrationError, match="in play"):
                command(link, "cal", stick_g=9.0)
            with pytest.raises(CalibrationError, match="in play"):
                command(link, "tare")
        finally:
            link.close()
    # An uncalibrated board tares itself on its first still second (the empty plate).
    assert before["tare"] == "boot" and before["stored"] is True and before["play"] is False
    assert before["zero_counts"] == pytest.approx(_empty(plate), abs=500)
    errors = accuracy(cal, plate)
    assert max(abs(e) for e in errors) < 0.5, errors
    real = plate.stick_g[:4]
    assert cal["stick_g"] == pytest.approx(sum(real) / 4, abs=0.05)
    assert after["counts_per_gram"] == cal["counts_per_gram"] and after["tare"] == "cal"
    assert json.loads(cal_file.read_text())["counts_per_gram"] == cal["counts_per_gram"]
    # The tap: the plate's ringing learned, used and stored with the rest.
    rate = plate.tower.board.rate_hz  # the simulated board's true sample rate
    assert rate / cal["ring"][0] == pytest.approx(plate.tower.physics.ring_hz, rel=0.05)
    assert after["ring"] == cal["ring"] and json.loads(cal_file.read_text())["ring"] == cal["ring"]
    assert answers == []  # --yes asks nothing: no Enter per step, no confirmation
    out = capsys.readouterr().out
    assert "residual g" in out and "sticks: 4 weighed" in out


def test_the_stored_calibration_outlives_a_restart_and_tare_works(tmp_path):
    plate = SimPlate(3, 200.0)
    cal_file = tmp_path / "calibration.json"
    stored = {
        "counts_per_gram": [2100.5, -2000.25, 1999.0, 2222.0],
        "zero_counts": [1, 2, 3, 4],
        "cell_xy_mm": [[-60, -60], [60, -60], [60, 60], [-60, 60]],
        "stick_g": 7.5,
    }
    cal_file.write_text(json.dumps(stored))
    with SimTable(plate.samples(), plate.meta(cal_file)) as table:
        link = BoardLink.open(table.port, hello_timeout=20, ack_on_poll=True)
        try:
            first = query(link)
            end = time.monotonic() + 1.0
            while time.monotonic() < end:  # a second of samples for the tare
                link.poll(0.1)
            command(link, "tare")
            tared = query(link)
            with pytest.raises(CalibrationError, match="counts_per_gram"):
                command(link, "cal", counts_per_gram=[1, 2])
        finally:
            link.close()
    for key in ("counts_per_gram", "cell_xy_mm", "stick_g"):
        assert first[key] == stored[key]
    # The stored zero is far from the plate's reading, which is not empty by it: kept at boot.
    assert first["zero_counts"] == stored["zero_counts"] and first["tare"] == "stored"
    assert tared["tare"] == "command"
    assert tared["zero_counts"] == pytest.approx(_empty(plate), abs=500)
    assert json.loads(cal_file.read_text())["zero_counts"] == stored["zero_counts"]  # not saved


def _cli(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "sticktable", "calibrate", "--sim", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_walks_through_and_prints_the_accuracy():
    done = _cli("--mass", "150", "--sticks", "2", stdin="\n" * 9 + "y\n")
    assert done.returncode == 0, done.stderr
    assert "Put the 150 g mass right over cell 1" in done.stdout
    assert "Send this calibration to the board? [y/N]" in done.stdout
    worst = float(done.stdout.split("worst ")[1].split(" %")[0])
    assert worst < 0.5


def test_cli_sends_nothing_without_a_yes_or_an_answer():
    no = _cli("--mass", "150", "--sticks", "0", stdin="\n" * 7 + "n\n")
    assert no.returncode == 1 and no.stderr.strip() == (
        "sticktable: not sent: the board keeps its calibration"
    )
    short = _cli("--mass", "150", stdin="\n\n")
    assert short.returncode == 1
    assert (
        short.stderr.strip() == "sticktable: no answer on stdin: calibration stopped, nothing sent"
    )
    bad = _cli("--mass", "-3")
    assert bad.returncode == 1 and "positive" in bad.stderr


def test_a_board_whose_hello_does_not_list_calibration_is_told_to_update():
    from sticktable.link import HostSession
    from tablefw import proto

    session = HostSession(lambda frame: None, lambda: 0.0)
    hello = {"k": "hello", "s": 0, "u": 1, "proto": [1, 3], "boot": "0badc0de", "seats": 4}
    session.feed(proto.encode({**hello, "cmds": ["show", "arm", "stream"]}))
    assert session.accepts("arm") and not session.accepts("calq")
    with pytest.raises(CalibrationError, match="does not take `calq`.*make flash"):
        query(session)
    session.feed(proto.encode({**hello, "boot": "0badc0df"}))  # 1.1: no list, all accepted
    assert session.accepts("calq") and session.accepts("tare")
