"""A level taken under a placing hand after a fall, then the hand gone (issue 10).

A slow hand places a stick while another falls (the press watch tells the fall, the stick is
placed while the hand still presses it); the hand's first easing off is taken as a fall of
part of a stick, the level then taken with the hand still on. It presses once more and lets
go: the level is a part of a stick lower, with a hand seen in the episode. A hand adds
weight; a drop it leaves behind is the weight it held when the level was taken, so within
_TAIL_MS of a fall that came after the last placement the drop is that fall's tail
(tablefw/settle.py `tail_of`). Left unexplained, the level stayed 5 g high until the next
stick, whose rise then fell short of one stick and was never placed (independent tuning game
1005, turn 15)."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector


def test_the_next_stick_after_a_hand_left_a_fall_s_level_is_placed():
    game = tuning_game("independent", 1005)
    start, end = 50500, 58500
    truth = [e for e in game.truth_events() if start <= e["t_ms"] <= end]
    found = run_detector(game.meta, samples_between(game, 0, end))
    found = [e for e in found if start <= e["t_ms"] <= end]
    placed = [e["t_ms"] for e in found if e["kind"] == "placed"]
    want = [e["t_ms"] for e in truth if e["kind"] == "placed"]
    assert len(placed) == len(want) == 3, found  # turns 14, 15 and 16
    assert any(abs(t - 54595) < 1000 for t in placed), found  # turn 15's stick
    assert sum(e["count"] for e in found if e["kind"] == "fell") == 1, found
