"""A stick let go that falls within one period of a slow plate (firmware/DETECTOR.md, limit 7):
the boxcar of a period never shows it resting, so the inverse filter's own output does
(settle.filtered_rest), and a press the boxcar still holds is no hand again unless that
output says so too (settle.hand_again). The `independent` tower with the issue's own
30-150 ms leaves pushed on it (bench_detect.py --set leave_ms=30,150)."""

from tuning_games import told_between, tuning_game

FAST_LEAVES = {"leave_ms": (30.0, 150.0)}


def test_a_stick_resting_60_ms_before_it_falls_is_placed_and_fell():
    # Independent tuning game 1008, turn 39: a press of 78 g let go at 157.87 s, its stick
    # (11.8 g) resting one stick up for 60 ms, then gone by 158.0 s. The total came back where
    # it was, and the turn was told as a touch.
    game = tuning_game("independent", 1008, **FAST_LEAVES)
    assert told_between(game, 155817, 159229) == [("placed", None), ("fell", 1)]


def test_the_same_later_in_that_game():
    # Turn 52: placed at 205.23 s and gone at 205.29 s; told as a touch.
    game = tuning_game("independent", 1008, **FAST_LEAVES)
    assert told_between(game, 204000, 206293) == [("placed", None), ("fell", 1)]
