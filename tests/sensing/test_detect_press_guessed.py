"""A missing reading repeated as a press ramps up stays out of the press watch's first fit
(issue 10): replays the start of a tuning game of the "shaky-hands" regime (seed 1018)."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector


def test_a_missing_reading_on_a_press_s_ramp_is_no_stick_gone():
    # Turn 20: a stick is pressed on from 80.52 s and let go at 81.17 s; nothing falls. Cell 2
    # gave no reading at 80.623 s, on the press's brisk ramp, where its neighbours lay 18 g
    # apart: the previous reading was repeated, 11.7 g off. Before: the press watch fitted the
    # hand's spot on it, the line came out tilted, and the press's residual off it was told
    # as a stick gone ("fell 1"). A guessed reading is left out of the first fit, as the
    # trusted line already leaves it unjudged.
    game = tuning_game("shaky-hands", 1018)
    truth = [e for e in game.truth_events() if 80000 <= e["t_ms"] <= 81600]
    assert [e["kind"] for e in truth] == ["placed"]
    found = run_detector(game.meta, samples_between(game, 0, 81600))
    assert [e["kind"] for e in found if e["t_ms"] >= 80000] == ["placed"], found
