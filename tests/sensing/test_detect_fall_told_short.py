"""A fall whose onsets told more sticks than its level then showed: the level was caught short
of the fall (mid-ring), and its rest, leaving soon after, is no stick of its own (issue 10).

The fall's level is counted less what the onsets told (tablefw/detect.py `_fell`). When it
counted fewer than were told, the fall was kept at its level's count and the onsets forgotten:
the rest that left next was counted on the whole drop against that smaller count, and told as
one more stick."""

from tuning_games import sticks_fallen, tuning_game


def test_the_rest_of_a_fall_its_onsets_told_in_full_is_no_extra_stick():
    # Slow-hands tower (tuning seed 1033, turn 32): a knock at 120.92 s sends 3 sticks off
    # (24 g). The onsets told 2 + 1 (121.21 s, 121.26 s); the level taken at 121.34 s, mid-ring,
    # was 19.7 g down (counted 2), and the last 4.6 g leaving at 121.42 s was told as a 4th.
    assert sticks_fallen(tuning_game("slow-hands", 1033), 120500, 122500) == (3, 3)


def test_the_rest_of_a_fall_held_up_by_a_hand_is_no_extra_stick():
    # Independent tower (tuning seed 1053, turn 12): a stick is placed (40.43-41.36 s) and
    # told at 40.67 s while its hand still pressed; another falls at 40.62 s, its level taken
    # at 40.87 s 7.3 g down, short of the 12 g stick. The hand then pressed on (41.18-41.35 s),
    # and as it let go the rest, 5.0 g, was told as a second stick at 41.51 s, 0.64 s after
    # the fall: past _SHORT_MS, which now runs from the hand's last press.
    assert sticks_fallen(tuning_game("independent", 1053), 40000, 42500) == (1, 1)


def test_the_rest_of_a_fall_whose_level_was_caught_in_a_trough_is_no_stick():
    # Noisy tower (tuning seed 1061): a stick falls at 5.90 s; the fall's level, taken at
    # 6.06 s, is 5.7 g down against an 8 g stick, and the total stands above it until 6.49 s.
    # The rest leaving at 6.73 s, 0.68 s after the fall, was told "fell 1" in the next turn.
    assert sticks_fallen(tuning_game("noisy", 1061), 0, 9000) == (1, 1)
