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


def test_a_kick_the_base_does_not_feel_on_a_slowly_ringing_plate_is_no_fall():
    # Independent tower (tuning seed 1007): 102.08 s into the game a knock the base hardly felt
    # (no jolt) kicked the slow plate (7 Hz, a period of 12 samples) into a 28 g ringing. The
    # cells average over their conversion, so the inverse filter made of the kick a pulse four
    # samples long, which the one-period boxcar held as a drop of 4.9 g for 100 ms: run ahead
    # of the boxcar's lag, that was "fell 1". The newest load before the boxcar was back at the
    # level by then; a weight that left stays gone.
    game = tuning_game("independent", 1007)
    knock = [e["t_ms"] for e in game.truth_events() if e["kind"] == "knock"]
    assert any(102000 < t < 102100 for t in knock)
    assert not any(e["kind"] == "fell" and 101000 < e["t_ms"] < 103000 for e in game.truth_events())
    found = run_detector(game.meta, samples_between(game, 0, 102300))
    assert [e for e in found if e["kind"] == "fell" and e["t_ms"] > 101000] == []
    # (the stick placed just before is found)
    assert [e["kind"] for e in found if e["t_ms"] > 101000] == ["placed"]
