"""After the base shakes, the detector waits out a hush before it calls the plate calm: _SHAKE_MS,
and on a slow plate two thirds of what its boxcar (a period long) adds over the fast one's 4
samples (ringfit.period). It was the whole of that: on independent's 6-8 Hz plates some 200 ms
after every jolt of the base, a stick landing on the table beside the tower too, in which
nothing was placed, nothing fell and no lean was watched for. Half or two thirds took the
same 6 miss lines off independent's 96 tuning games, none new; a quarter brought 3 new."""

from tuning_games import told_between, tuning_game, turn_span


def test_a_stick_that_falls_while_a_hand_places_one_is_told_with_the_placement():
    # Independent 1090, turn 26: a hand placing a stick from 91.9 s to 93.0 s on a 6.1 Hz
    # plate, another stick falling at 92.03 s. Before: the plate was never calm long enough for the
    # fall to be seen through the hush, and the turn was told as one touch (78.5 g).
    game = tuning_game("independent", 1090)
    assert told_between(game, *turn_span(game, 26)) == [("fell", 1), ("placed", None)]


def test_a_lean_just_after_a_placement_is_watched_for_before_the_touch_that_follows():
    # Independent 1093, turn 18 (DETECTOR.md limit 6): the table leant on at 70.8 s, 0.3 s
    # after a stick was placed, then a touch from 71.7 s. Before: the lean watch, which looks
    # only once the plate has been quiet a while, had not begun when the touch came, and its
    # let-go was told as a stick placed and one fallen.
    game = tuning_game("independent", 1093)
    assert told_between(game, *turn_span(game, 18)) == [("placed", None), ("touch", None)]
