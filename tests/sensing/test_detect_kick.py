"""A knock the base hardly feels still kicks a heavily ringing plate (issue 10).

The inverse filter turns the kick into a dip of the load lasting a few samples, which the
boxcar spreads over its length: before the fix the onset rule reported it as a stick leaving
("fall reported, none fell"). Now a kick (the base jolted, or the raw total jumped by more than
the drop could explain) holds the onset longer and asks the newest load, before the boxcar,
to show the weight still gone."""

import pytest
from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector
from sticktable.sim.scenarios import scenario


@pytest.mark.parametrize("seed", [1000, 1001, 1007, 1008, 1011])
def test_a_soft_knock_on_a_ringing_plate_is_no_fall(seed):
    sc = scenario("soft-knock", seed=seed)
    found = run_detector(sc.meta, sc.samples)
    assert sum(1 for e in sc.truth if e["kind"] == "knock") == 6
    assert [e for e in found if e["kind"] == "fell"] == []


def test_a_knock_before_the_plate_has_rung_freely_is_no_fall():
    # Noisy tower (tuning seed 1008): 7.46 s into the game, before the plate had rung freely
    # enough to learn its ringing, a knock the base hardly felt (50 mg) swung the cells by
    # 26 g, down for two samples and then back up by 19 g in one: "fell 2". A weight leaving
    # goes one way; until the ringing is learned, the raw total rising by over a stick in one
    # sample holds the onset back.
    game = tuning_game("noisy", 1008)
    knock = [e["t_ms"] for e in game.truth_events() if e["kind"] == "knock"][0]
    assert 7400 < knock < 7500
    assert not any(e["kind"] == "fell" and e["t_ms"] < 8000 for e in game.truth_events())
    samples = samples_between(game, 0, 8000)
    assert [e for e in run_detector(game.meta, samples) if e["kind"] == "fell"] == []
