"""Falls counted from the sticks weighed on the tower (tablefw/count.py), on towers of the
physics sweep (tuning games of sim/regimes.py)."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector


def _events(regime, seed, start, end):
    game = tuning_game(regime, seed)
    truth = [e for e in game.truth_events() if start <= e["t_ms"] <= end]
    found = run_detector(game.meta, samples_between(game, 0, end))
    return truth, [e for e in found if start <= e["t_ms"] <= end]


def test_a_whole_tower_falling_is_counted_from_its_weighed_sticks():
    # 3-cells tuning game 1005, turn 57: 30 sticks, weighed 0.16 g short each on average,
    # all fall; the drop is 0.6 of a stick more than their weighed sum, and was counted 31.
    # (With the single fall just before it, 31 sticks fell in this window.)
    truth, found = _events("3-cells", 1005, 206900, 212000)
    told = sum(e["count"] for e in found if e["kind"] == "fell")
    assert told == sum(e["count"] for e in truth if e["kind"] == "fell") == 31, found
