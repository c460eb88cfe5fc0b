"""Sticks a heavy knock sent off are counted over a whole period of the ringing (issue 10).

A knock rings a lightly damped plate by 100 g and more. The ringing the detector learned from
small events is a few % off the plate's (the cells' noise biases those fits), and what the
inverse filter leaves of the knock's ringing swings the nulled total by some grams for a second:
more than the 4-sample boxcar of a fast ringing averages away, and with a fall under way the
last sticks' drop dipped under their count's threshold every period. That leftover rings at the
plate's own frequency: over one whole period of the learned ringing it averages out, and the
count of a fall under way is judged there. Even that average swings by a stick or more after a
heavy knock, so a further stick holds its count a window, and the count told is the least the
hold saw."""

import pytest
from tuning_games import samples_between, told_between, tuning_game, turn_span

from sticktable.sim.detection import run_detector


def test_sticks_a_heavy_knock_sent_off_are_told_in_its_turn():
    # Ring-heavy tower (tuning seed 1014): 13.7 Hz at 88 samples/s, zeta 0.011, a1, a2 ~ (283,
    # -251) in Q8; the fits had learned (267, -242) from placements. A knock at 131.47 s sent 3
    # sticks off: "fell 2" came at 131.67 s, and the third only 11 ms after the next turn's
    # button (132.45 s), as "fell 1" of the next turn.
    game = tuning_game("ring-heavy", 1014)
    truth = game.truth_events()
    knock = [e["t_ms"] for e in truth if e["kind"] == "knock" and 131400 < e["t_ms"] < 131500]
    fell = [e for e in truth if e["kind"] == "fell" and 131400 < e["t_ms"] < 132500]
    assert knock and [e["count"] for e in fell] == [3]
    button = [e["t_ms"] for e in truth if e["kind"] == "button" and e["t_ms"] > knock[0]][0]
    assert 132400 < button < 132500
    found = run_detector(game.meta, samples_between(game, 0, button))
    told = [e for e in found if e["kind"] == "fell" and e["t_ms"] > knock[0]]
    assert sum(e["count"] for e in told) == 3
    # (The sticks after the first hold their count a window after a knock: the last is told
    # 343 ms after the fall began, 0.56 s before the button, where it was 184 ms before that.)
    assert told[-1]["t_ms"] < fell[0]["t_ms"] + 400


@pytest.mark.parametrize(
    "regime, seed, turn, count",
    [("ring-heavy", 1077, 44, 2), ("ring-heavy", 1094, 46, 3), ("overlap", 1049, 17, 3)],
    ids=["period-average-swings", "swings-for-0.3-s", "drop-deepens-in-the-hold"],
)
def test_sticks_a_knock_sent_off_are_told_no_more_than_fell(regime, seed, turn, count):
    # Ring-heavy 1077 (knock at 170.06 s, 2 sticks off) and 1094 (177.78 s, 3): over a whole
    # period the nulled drop still swung after the knock, in 1094 by 1.5 sticks over 0.3 s,
    # and held over _QUICK samples it told one stick too many ("fell 1" at 170.34 s and at
    # 178.47 s). Further sticks after a knock now hold their count a window. Overlap 1049
    # (69.17 s, 3 off): "fell 2" at 69.43 s, then, the drop deepening on the hold's last
    # sample, "fell 2" again at 69.57 s; the count told is now the least the hold saw.
    game = tuning_game(regime, seed)
    start, end = turn_span(game, turn)
    truth = game.truth_events()
    assert any(e["kind"] == "knock" and start <= e["t_ms"] < end for e in truth)
    fell = [e["count"] for e in truth if e["kind"] == "fell" and start <= e["t_ms"] < end]
    assert fell == [count]
    told = told_between(game, start, end)
    assert sum(n for kind, n in told if kind == "fell") == count, told
