"""Sticks placed on a slow plate whose ringing is not learned yet (issue 10).

On a slow, nearly undamped plate (6-9 Hz, zeta ~0.01) a stick's landing, or the tremor of a
slow hand near the plate's resonance, rings it for seconds with a few grams, too little for
the ringing fit and too much for any 8-sample window to hold; the next hand comes first and
one episode runs over several sticks, each missed. Averaged over 2-3 periods the ringing
leaves little: a whole stick's level that holds there is placed (tablefw/settle.py,
SlowRing). A hand still holding part of a stick, its tremor swinging the level as a ringing
would, leaves it short of a whole stick: that is not placed."""

import pytest

from sticktable.sim.detection import run_detector
from sticktable.sim.evaluate import PLACED_WINDOW, evaluate, match_times
from sticktable.sim.game import SimGame
from sticktable.sim.regimes import REGIMES
from sticktable.sim.scenarios import scenario


def missed_placements(truth, events, before_ms):
    """Placements of `truth` before `before_ms` the bench's matching finds no report for."""
    want = [e["t_ms"] for e in truth if e["kind"] == "placed" and e["t_ms"] < before_ms]
    seen = [e["t_ms"] for e in events if e["kind"] == "placed"]
    pairs, _ = match_times(want, seen, PLACED_WINDOW)
    return want, [t for t, f in pairs if f is None]


@pytest.mark.parametrize("seed", [1000, 1002])
def test_sticks_placed_before_the_ringing_is_learned_are_reported(seed):
    sc = scenario("touch-fall-slow", seed=seed)
    touch = next(e["t_ms"] for e in sc.truth if e["kind"] == "touch")
    first, missed = missed_placements(sc.truth, run_detector(sc.meta, sc.samples), touch)
    assert len(first) == 5
    assert not missed, missed


@pytest.mark.parametrize("seed", [1008, 1011])
def test_slow_hands_first_sticks_on_an_unlearned_slow_plate_are_placed(seed):
    # (independent tuning games: the first three sticks of 1008 and the second of 1011, each
    # brought by a slow hand whose tremor rang the plate, were missed or placed seconds late)
    game = SimGame(["Ann", "Bo", "Cy"], seed=seed, physics=REGIMES["independent"][1], lively=1.5)
    samples = list(game.samples())
    first, missed = missed_placements(game.truth_events(), run_detector(game.meta, samples), 10000)
    assert len(first) >= 2
    assert not missed, missed


def test_a_hand_holding_part_of_a_stick_with_tremor_is_not_a_placement():
    # The original tower (no ringing) at 17.3-18.2 s: a hand holds ~80 % of a stick with a
    # tremor no window holds through; averaged, its level held. Placed there, the release
    # read as a fall (the simulated game seed 7 of the house test and the README screen).
    game = SimGame(["Ann", "Bo"], seed=7)
    samples = list(game.samples())
    tally = evaluate(game.truth_events(), run_detector(game.meta, samples), "seed 7")
    assert not tally.misses, tally.misses
