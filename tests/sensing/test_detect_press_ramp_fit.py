"""The press watch fits the hand's spot again when its first fit was wrong (issue 10).

The watch (tablefw/pressfall.py) fits the hand's spot on a press's first samples. Taken as the
press still rings (the cells, read at slightly different moments, swing ~100 g x mm from sample
to sample), that fit can be off by a few mm: the residual then stands off the line from the
first sample judged and grows with the press, until it passes for a stick gone."""

import pytest
from tuning_games import fall_told_after, told_between, tuning_game, turn_span


# Real tower (tuning seed 1013), turn 54: a hand touched the tower at 217.0 s, 44 g; its
# residual stood 76-91 g x mm off the first fit's line from the first sample judged, and grew
# with the press (99-116 at 50 g): "fell 1" at 217.4 s, and a stick placed for it.
# Independent tower (tuning seed 1039), turn 29: a hand pressed 20 -> 126 g over the first
# fit's 8 samples, which swung 90-360 g x mm off the fit so far; judged, the press stood
# 310 g x mm off the line at 138 g and 360-390 at 160 g: "fell 1" at 111.8 s, and a stick
# placed for it. (The first judged sample's moments swung with the ringing: the residual after
# it is no scaled copy of them, only of its size.)
# Noisy cells (tuning seed 1075), turn 24: a touch ramped to 88 g, its first fit's samples
# swinging 8-250 g x mm off the fit so far; judged, the press stood 143 g x mm off the line and
# grew to 198 as the hand pressed on to 96 g, up 9 %, short of the eighth once asked: "fell 1"
# at 92.6 s, and a stick placed for it as the hand let go.
@pytest.mark.parametrize(
    "regime, seed, turn",
    [("real", 1013, 54), ("independent", 1039, 29), ("noisy", 1075, 24)],
    ids=["first-fit-rang", "brisk-ramp", "load-up-a-tenth"],
)
def test_a_touch_whose_first_fit_was_taken_off_the_hands_spot_is_no_fall(regime, seed, turn):
    game = tuning_game(regime, seed)
    truth = game.truth_events()
    start, end = turn_span(game, turn)
    kinds = [e["kind"] for e in truth if start <= e["t_ms"] < end]
    assert kinds == ["button", "placed", "touch"], kinds
    assert told_between(game, start, end) == [("placed", None), ("touch", None)]


def test_a_stick_leaving_during_the_first_fit_is_told_on_time():
    # Overlap tower (tuning seed 1013): a stick fell at 134.99 s while a hand pressed on
    # 11 -> 39 g, during the first fit (its residuals off the fit so far grew 11 -> 99 g x mm,
    # no swing); off the line from the first sample judged as the press went on (109 -> 275),
    # it is told at 135.16 s. Fitted again as a line that was wrong, it came 230 ms later.
    late = fall_told_after(tuning_game("overlap", 1013), (134900, 135100), 136500)
    assert late is not None and late <= 200, late
