"""A stick weighed while its hand still rested on it is corrected when the hand lifts, however
late: the level then drops by the hand's grams and holds, and that drop is the stick's rest,
not a new level to leave for a resync that the next hand may never allow."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector


def test_a_hand_lifting_off_its_placed_stick_late_leaves_the_stick_lighter():
    # 3-cells game (tuning seed 1014), 150-175 s: a slow hand's stick (7.6 g) was weighed at
    # 9.6 g at 168.9 s; the hand lifted 0.9 s later, past the rest's 0.8 s, and left the level
    # 1.9 g above the plate. A knock and a touch kept the plate from a 2 s resync, so the next
    # stick (placed 173.74 s, 7.7 g) rose only 5.8 g over that level: too light for a stick,
    # and it was missed.
    game = tuning_game("3-cells", 1014)
    truth = [e for e in game.truth_events() if 172000 <= e["t_ms"] <= 175000]
    assert [e["kind"] for e in truth if e["kind"] == "placed"] == ["placed"]
    found = run_detector(game.meta, samples_between(game, 150000, 175000))
    late = [e for e in found if 172000 <= e["t_ms"] <= 175000]
    assert [e["kind"] for e in late] == ["placed"], found
