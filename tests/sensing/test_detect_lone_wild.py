"""A wild value on one cell, under the spike limit (an HX711 bit error of 4-15 g), while a hand
presses: the median of three passes it when it is not the middle reading, and through the
ringing filter's boxcar its step off the hand's line held as long as a stick gone takes
(slow-hands tuning game 1012, turn 38: "fell 1" with none fallen). A lone out-and-back on one
cell, the others still, is no load (tablefw/median.py lone_wild)."""

import dataclasses

import pytest
from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector
from sticktable.sim.scenarios import scenario

BIT = 1 << 14  # about 7.6 g on the virtual tower's cells


def _flipped(samples, at_ms, cell):
    """`samples` with one reading of `cell` at `at_ms` off by a flipped bit."""
    out = []
    for s in samples:
        if s.t_ms == at_ms and s.cells[cell] is not None:
            cells = list(s.cells)
            cells[cell] ^= BIT
            s = dataclasses.replace(s, cells=tuple(cells))
        out.append(s)
    return out


def _kinds(found):
    return [(e["kind"], e.get("count")) for e in found]


@pytest.mark.parametrize("cell", [0, 1, 2, 3])
def test_a_bit_error_on_one_cell_halfway_through_each_press_changes_nothing(cell):
    # press-fall, seed 2: ten presses, a stick falling during the last four. Before: a bit
    # error on any one cell halfway through each press changed what was told.
    sc = scenario("press-fall", seed=2)
    times = [s.t_ms for s in sc.samples]
    samples = sc.samples
    for e in sc.truth:
        if e["kind"] == "placed":
            mid = (e["onset_ms"] + e["t_ms"]) // 2
            samples = _flipped(samples, min(times, key=lambda t: abs(t - mid)), cell)
    assert _kinds(run_detector(sc.meta, samples)) == _kinds(run_detector(sc.meta, sc.samples))


def test_the_slow_hands_game_s_bit_error_is_no_fall():
    # Cell 1 read 7.6 g low for one sample at 138.22 s while the hand pressed.
    game = tuning_game("slow-hands", 1012)
    found = run_detector(game.meta, samples_between(game, 130000, 139000))
    assert not [e for e in found if e["kind"] == "fell" and 137800 < e["t_ms"] < 138500], found
