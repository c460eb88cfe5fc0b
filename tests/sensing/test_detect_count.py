"""Falls counted from the sticks weighed on the tower (tablefw/count.py), on towers of the
physics sweep (tuning games of sim/regimes.py)."""

from tuning_games import sticks_fallen, tuning_game


def test_a_whole_tower_falling_is_counted_from_its_weighed_sticks():
    # 3-cells tuning game 1005, turn 57: 30 sticks, weighed 0.16 g short each on average,
    # all fall; the drop is 0.6 of a stick more than their weighed sum, and was counted 31.
    # (With the single fall just before it, 31 sticks fell in this window.)
    assert sticks_fallen(tuning_game("3-cells", 1005), 206900, 212000) == (31, 31)


def test_a_burst_is_counted_against_the_sticks_weighed_as_placed_too():
    # Noisy tuning game 1063, turn 52: 8 of 11 sticks fall at 192.89 s, 62.5 g. The tower's
    # weighed sum had taken each earlier fall's measuring error: 92.2 g, 8.38 g a stick,
    # against 7.96 g learned from the placements (the sticks weigh 7.7-8.1 g): 7.46 sticks,
    # counted 7. Judged against the mean of the two (8.17 g): 7.65, counted 8.
    assert sticks_fallen(tuning_game("noisy", 1063), 192800, 193900) == (8, 8)


def test_no_fall_takes_the_plate_below_its_empty_weight():
    # Independent tuning game 1067, turn 0: the game's first stick (12.2 g) falls at 5.18 s,
    # before any ringing is learned; its level was taken mid-slide, 5 g still on the plate,
    # and the unlearned ringing then swung the total 5 g below the empty plate: "fell 1"
    # again at 5.86 s, from a tower with no stick left on it.
    assert sticks_fallen(tuning_game("independent", 1067), 4700, 6600) == (1, 1)
