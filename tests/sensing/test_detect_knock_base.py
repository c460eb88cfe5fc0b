"""A knock that opens an episode does not become the base's reference for it (issue 10).

The press watch (tablefw/pressfall.py) reports a stick that left while a hand pressed only if
the base tilts as it did when the episode began: a table leant on shifts the moments too. That
reference is the base accelerometer's sums over the last 32 samples. A knock opens an episode
(its ringing swings the load past the episode's threshold) with its jolt in those sums; against
them the base, back as it was, looked tilted for the rest of the episode, and a stick that fell
during the next press was taken for the table leant on: both it and the stick placed went
unreported, the episode ending at its level as a touch."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector


def test_a_stick_that_falls_during_a_press_after_a_knock_is_told():
    # Ring-heavy tower (tuning seed 1020): a knock at 41.00 s opens an episode; a hand presses
    # a stick on from 41.91 s, another stick falls at 42.07 s, the hand lets go at 42.95 s.
    game = tuning_game("ring-heavy", 1020)
    truth = game.truth_events()
    knock = [e for e in truth if e["kind"] == "knock" and 40900 < e["t_ms"] < 41100]
    fell = [e for e in truth if e["kind"] == "fell" and 42000 < e["t_ms"] < 42200]
    placed = [e for e in truth if e["kind"] == "placed" and 42900 < e["t_ms"] < 43000]
    assert knock and fell and placed and placed[0]["onset_ms"] < fell[0]["t_ms"]
    found = run_detector(game.meta, samples_between(game, 0, 44000))
    told = [(e["kind"], e.get("count")) for e in found if 42000 < e["t_ms"] < 44000]
    assert told == [("fell", 1), ("placed", None)], told
