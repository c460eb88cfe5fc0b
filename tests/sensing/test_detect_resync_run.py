"""A resync takes an offset the plate has held for its whole still run, never one that came
within it: a band grown wide lets a slow hand's first grams pass for a still plate, window
after window, and following them loses the stick."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector


def test_a_slow_hand_after_a_rebuild_is_no_new_level():
    # Independent game (tuning seed 1008), 100-114 s: the tower toppled (104.5 s) and was
    # rebuilt by hand (to 110.05 s); the hands taught the noise band 5 g. A slow hand then
    # brought a 11.7 g stick (110.76-111.58 s), pausing on the way; 4 g in, the level had
    # moved less than half a band over the last 0.3 s, the plate had been "still" for 2 s,
    # and the resync took those 4 g as the plate's level. The rest, 7 g, was too light for a
    # stick, and the placement was missed.
    game = tuning_game("independent", 1008)
    truth = [e for e in game.truth_events() if 110000 <= e["t_ms"] <= 114000]
    assert [e["kind"] for e in truth if e["kind"] == "placed"] == ["placed"]
    found = run_detector(game.meta, samples_between(game, 100000, 114000))
    late = [e for e in found if 110000 <= e["t_ms"] <= 114000]
    assert [e["kind"] for e in late] == ["placed"], found
