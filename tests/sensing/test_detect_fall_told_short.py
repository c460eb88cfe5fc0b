"""A fall whose onsets told more sticks than its level then showed: the level was caught short
of the fall (mid-ring), and its rest, leaving soon after, is no stick of its own (issue 10).

The fall's level is counted less what the onsets told (tablefw/detect.py `_fell`). When it
counted fewer than were told, the fall was kept at its level's count and the onsets forgotten:
the rest that left next was counted on the whole drop against that smaller count, and told as
one more stick."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector


def test_the_rest_of_a_fall_its_onsets_told_in_full_is_no_extra_stick():
    # Slow-hands tower (tuning seed 1033, turn 32): a knock at 120.92 s sends 3 sticks off
    # (24 g). The onsets told 2 + 1 (121.21 s, 121.26 s); the level taken at 121.34 s, mid-ring,
    # was 19.7 g down (counted 2), and the last 4.6 g leaving at 121.42 s was told as a 4th.
    game = tuning_game("slow-hands", 1033)
    truth = [e for e in game.truth_events() if 120500 <= e["t_ms"] < 122500]
    assert sum(e.get("count", 0) for e in truth if e["kind"] == "fell") == 3, truth
    found = run_detector(game.meta, samples_between(game, 0, 122500))
    fell = [e for e in found if e["kind"] == "fell" and 120500 <= e["t_ms"] < 122500]
    assert sum(e["count"] for e in fell) == 3, fell
