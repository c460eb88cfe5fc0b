"""A lower level held 50 ms, right after the total dipped half a stick and came back to the
level, is a swing (what a ringing learned slightly off leaves of a knock's), not a weight
gone: a weight that left stays gone. No fall is told at once; a stable window tells
(settle.swung)."""

from tuning_games import samples_between, sticks_fallen, tuning_game

from sticktable.sim.detection import run_detector


def test_a_knocks_swing_after_a_touch_is_no_fall_and_placement():
    # Independent game (tuning seed 1016), 88-100 s: a knock (98.06 s), then a 150 g touch
    # (98.31-98.88 s) on the slow plate. What the ringing filter left swung the total by
    # +-0.8 stick: a lower level held 50 ms was told "fell 1" (99.2 s), and the swing back
    # "placed" (99.42 s). Nothing fell, nothing was placed.
    game = tuning_game("independent", 1016)
    found = run_detector(game.meta, samples_between(game, 88000, 100000))
    truth = [e for e in game.truth_events() if 98000 <= e["t_ms"] <= 100000]
    assert not any(e["kind"] in ("placed", "fell") for e in truth)
    after = [e["kind"] for e in found if e["t_ms"] > 98000]
    assert "fell" not in after and "placed" not in after, found


def test_a_heavy_knocks_trough_is_no_fall():
    # Ring-heavy game (tuning seed 1004), 281.44 s: a knock that swung the total by 90 g, no
    # stick moved. What the learned ringing left of it swung by up to 13 g, and a trough held
    # within a band for 50 ms (281.64-281.68 s) was told "fell 2" (the next turn's press, at
    # 283.0 s, was told "fell 1" too; that went with it). Within a knock's ringing, the total
    # having gone over a band above the level just before is a swing.
    game = tuning_game("ring-heavy", 1004)
    found = run_detector(game.meta, samples_between(game, 0, 282500))
    truth = [e for e in game.truth_events() if 281000 <= e["t_ms"] <= 282500]
    assert [e["kind"] for e in truth if e["kind"] != "button"] == ["knock"]
    assert not [e for e in found if 281400 <= e["t_ms"] <= 282500], found[-3:]


def test_a_heavy_knocks_ringing_past_its_second_is_no_further_stick():
    # Real game (tuning seed 1090), 162.50 s: a knock sent two sticks off (162.57 s), both told
    # (163.09 s, 163.13 s). Its ringing outlasted _KNOCK_RING_MS: 1.07 s after the knock what
    # the learned ringing left still swung 2.8 sticks below the level, and that trough was
    # told as a third stick (163.57 s, in the next turn). A further stick of the fall a knock
    # set off must show gone in the newest load too, for twice that time.
    game = tuning_game("real", 1090)
    knocks = [e for e in game.truth_events() if e["kind"] == "knock"]
    assert any(162000 <= e["t_ms"] <= 164500 for e in knocks)
    assert sticks_fallen(game, 162000, 164500) == (2, 2)
