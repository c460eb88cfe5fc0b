"""A light hand on a tower of light sticks (firmware/DETECTOR.md, limit 2): a touch pressing
15-20 g on 12 g sticks (the `independent` regime) holds at 1.2-1.3 sticks, and a window that
held there loosely through a ringing was told "placed", its let-go "fell 1". Once three sticks
are weighed, a level that holds only loosely is one stick only up to 120 % of their mass
(settle.loose_holds)."""

from tuning_games import told_between, tuning_game


def test_a_light_touch_through_a_knocks_ringing_is_a_touch():
    # Independent tuning game 1054, turn 7: a knock at 33.46 s rings the slow plate by 80 g;
    # a touch at 33.61-34.31 s presses 15-19 g on sticks learned at 12.3 g. It was placed at
    # 15.0 g (34.05 s) and its let-go told "fell 1" (34.36 s).
    assert told_between(tuning_game("independent", 1054), 33400, 34555) == [("touch", None)]


def test_a_light_touch_after_a_knock_is_a_touch_too():
    # Independent tuning game 1058, turn 30: the same after a knock at 110.24 s, the touch
    # placed at 15.5 g (110.56 s), sticks learned at 11.6 g.
    assert told_between(tuning_game("independent", 1058), 110200, 111567) == [("touch", None)]


def test_before_three_sticks_are_weighed_a_loose_level_of_a_heavy_reading_is_placed():
    # Independent tuning game 1039, turns 2 and 3 (9.6 and 12.7 s): the plate's ringing is not
    # learned yet (or only just), and two sticks of 11.9 and 12.4 g hold loosely at 15.2 and
    # 14.6 g. Judged against the nominal stick's 120 % too, neither was placed, nor the touch
    # between them told.
    told = told_between(tuning_game("independent", 1039), 9000, 13766)
    assert told == [("placed", None), ("touch", None), ("placed", None)]
