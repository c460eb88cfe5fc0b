"""A stick that falls while a hand presses a new one onto the tower (issue 10: touch and fall in
one episode). The press ends at the old level; the total alone says "touch". The detector must
say placed 1 and fell 1, from the moments (tablefw/pressfall.py, settle.swapped)."""

import dataclasses
import random

import pytest
from tuning_games import (
    fall_latency,
    samples_between,
    told_between,
    tuning_game,
    turn_span,
)

from sticktable.sim.detection import run_detector
from sticktable.sim.evaluate import evaluate
from sticktable.sim.scenarios import scenario


def _tally(seed, accel_noise_mg=0.0):
    sc = scenario("press-fall", seed=seed)
    samples = _noisier_base(sc.samples, accel_noise_mg, seed) if accel_noise_mg else sc.samples
    tally = evaluate(sc.truth, run_detector(sc.meta, samples), f"press-fall/{seed}")
    assert tally.turns_with_falls == 4  # four presses, a stick falls during each
    return tally


@pytest.mark.parametrize("seed", [1, 2, 4, 6])
def test_a_stick_falling_under_a_press_is_placed_and_fell(seed):
    assert not _tally(seed).misses


def test_a_press_back_at_its_level_with_its_moments_moved_is_placed_and_fell():
    # Seed 3: the fallen sticks stand 11-17 mm (stick-weighted) off the hand's spot, too near to
    # be told at once from the hand's wobble; the moments after the hand has gone tell (before:
    # 1 of 4 turns right, three presses reported as touches).
    tally = _tally(3)
    assert tally.fall_turns_exact >= 3, tally.misses
    assert tally.placed_found >= tally.placed_truth - 1, tally.misses


def test_a_stick_leaving_far_from_the_hand_is_told_while_the_hand_still_presses():
    # press-fall, seed 29, first press: a stick falls 80 mm from the hand's spot (13.76 s) and
    # rings the plate; what the filter leaves of that ringing jittered the residual off the
    # hand's line by more than the watch's noise from sample to sample, so the fall was told
    # only after the hand had let go (14.92 s, release at 14.52 s).
    sc = scenario("press-fall", seed=29)
    fell = [e["t_ms"] for e in sc.truth if e["kind"] == "fell"][0]
    release = next(e["t_ms"] for e in sc.truth if e["kind"] == "placed" and e["t_ms"] > fell)
    told = [e["t_ms"] for e in run_detector(sc.meta, sc.samples) if e["kind"] == "fell"]
    assert any(fell < t < release for t in told), (fell, release, told)


def _noisier_base(samples, sigma_mg, seed):
    """The samples with the accelerometer's noise raised (as on a noisy board: 5-15 mg)."""
    rng = random.Random(seed)

    def more(v):
        return v + round(rng.gauss(0.0, sigma_mg))

    return [dataclasses.replace(s, ax=more(s.ax), ay=more(s.ay), az=more(s.az)) for s in samples]


@pytest.mark.parametrize("seed", [5, 6, 9])
def test_a_noisy_accelerometer_does_not_pass_for_the_table_leant_on(seed):
    # The base's tilt is compared between the episode's start and end to tell a table leant
    # on from a stick swapped; with 8 mg more noise on the accelerometer, 8-sample means
    # differed by more than 3 mg by chance and the press came out a touch (before: these
    # seeds 3 of 4 turns right).
    assert not _tally(seed, accel_noise_mg=8.0).misses


def test_a_stick_landing_on_the_table_does_not_hold_back_the_press_watch():
    # Overlap game (tuning seed 1003), 60-77 s: a stick falls 180 ms into a press (74.73 s) and
    # lands on the table 250 ms later; the press is let go at 75.41 s. The landing jolts the
    # base (no knock: it does not ring the plate); the press watch used to stop for a knock's
    # 1 s of ringing then, and the fall was told only once the hand had gone (75.63 s).
    game = tuning_game("overlap", 1003)
    samples = samples_between(game, 60000, 77000)
    fell = [e["t_ms"] for e in run_detector(game.meta, samples) if e["kind"] == "fell"]
    assert any(74731 < t < 75405 for t in fell), fell


def test_a_stick_landing_on_the_table_is_no_knock_for_the_press_watch():
    # The same fall (overlap game, tuning seed 1003): the stick lands on the table 200-300 ms
    # after it left and jolts the base, by less than a knock. The press watch paused for that
    # jolt as for a knock's first 100 ms, though the plate did not ring, and told the fall 352
    # ms after it left (fell p95 target: 200 ms); it goes on through the jolt now.
    game = tuning_game("overlap", 1003)
    samples = samples_between(game, 60000, 76000)
    fell = [e["t_ms"] for e in run_detector(game.meta, samples) if e["kind"] == "fell"]
    assert any(74731 < t <= 74731 + 300 for t in fell), fell


def test_a_touch_during_which_a_stick_fell_is_a_touch_and_a_fall():
    # touch-fall-slow, seed 2: a hand presses, a stick falls from elsewhere (told at once by
    # the press watch), the hand goes; the level is one stick down. The touch was lost: only a
    # return to the old level told one.
    sc = scenario("touch-fall-slow", seed=2)
    tally = evaluate(sc.truth, run_detector(sc.meta, sc.samples), "touch-fall-slow/2")
    assert tally.touches_truth == 1
    assert tally.touches_found == 1, tally.misses
    assert tally.fall_turns_exact == tally.turns_with_falls, tally.misses


@pytest.mark.parametrize("seed", [1001, 1002])
def test_a_press_after_a_stick_came_to_rest_in_the_same_episode_is_no_fall(seed):
    # A slow hand's stick arrives over a second on a plate that rings on (the episode does not
    # end), rests, and then a hand touches elsewhere. The press watch measured the touch from
    # the level before the stick, so the resting stick (seed 1002), or the line it fitted on
    # that stick's ringing (seed 1001), was a step off the touching hand's line: "fell 1",
    # though no stick fell (first 10 s of each game).
    game = tuning_game("independent", seed)
    samples = samples_between(game, 0, 10000)
    assert not any(e["t_ms"] < 10000 for e in game.truth_events() if e["kind"] == "fell")
    fell = [e for e in run_detector(game.meta, samples) if e["kind"] == "fell"]
    assert not fell


def test_a_stick_falling_just_after_a_swapped_press_is_a_fall_of_its_own():
    # Overlap game (tuning seed 1000), 190-201 s: a stick falls under a press (199.55 s, told
    # at once), the hand lets go of its stick (199.86 s) and the level is back where it was
    # for a moment, ringing; another stick falls 80 ms after the release (199.94 s). The
    # placement waited for a still plate, which by then was one stick down: it looked like
    # the first fall alone (the placement and the second fall lost).
    game = tuning_game("overlap", 1000)
    samples = samples_between(game, 190000, 201000)
    turn = [e for e in run_detector(game.meta, samples) if 199000 < e["t_ms"] < 201000]
    assert [e["kind"] for e in turn] == ["fell", "placed", "fell"], turn


def test_a_knocks_ringing_shows_no_stick_let_go_that_fell():
    # Independent game (tuning seed 1003), 290-306 s: a slow hand's stick (placed 302.9 s, no
    # fall), then a knock at 304.25 s rings the slow plate by tens of grams. A moment of the
    # ringing at one stick up, then back down within 180 ms, passed for a stick let go that
    # rested and fell off at once: "placed" and "fell 1" at 304.56 s, though nothing moved.
    game = tuning_game("independent", 1003)
    assert not any(300000 < e["t_ms"] < 306000 for e in game.truth_events() if e["kind"] == "fell")
    samples = samples_between(game, 290000, 306000)
    after = [e for e in run_detector(game.meta, samples) if 304000 < e["t_ms"] < 306000]
    assert not after, after


@pytest.mark.parametrize(
    ("regime", "seed", "start", "press", "end"),
    [("original", 1000, 58000, 61000, 63400), ("3-cells", 1004, 310000, 335000, 337500)],
    ids=["original-1000", "3-cells-1004"],
)
def test_a_wild_value_under_the_spike_limit_does_not_bend_the_hands_line(
    regime, seed, start, press, end
):
    # A bit error on one cell (8-18 g, under the 25 g spike limit, so it passes the median)
    # early in a press, spread over a few samples by the ringing filter on a ringing plate:
    # it entered the fit of the hand's spot, the spot came out a few mm off, and the press
    # itself then stood off the line: "fell 1", though nothing fell (original 61.94 s,
    # 3-cells 335.98 s).
    game = tuning_game(regime, seed)
    assert not any(press < e["t_ms"] < end for e in game.truth_events() if e["kind"] == "fell")
    samples = samples_between(game, start, end)
    events = run_detector(game.meta, samples)
    fell = [e for e in events if e["kind"] == "fell" and e["t_ms"] > press]
    assert not fell, fell


def test_a_press_still_rising_is_not_the_hands_line_yet():
    # Overlap game (tuning seed 1004), 118-125.2 s: a brisk press rises to 80 g over 150 ms;
    # its first samples lie off the hand's final line (cells read at slightly different
    # moments, the plate undershoots). The spot fitted on the ramp was 1.5 mm off, which at
    # 80 g is a stick 28 mm away: "fell 1" at 125.00 s, while the hand still held its stick
    # (a stick fell only at 125.22 s, after the release).
    game = tuning_game("overlap", 1004)
    samples = samples_between(game, 118000, 125200)
    fell = [
        e for e in run_detector(game.meta, samples) if e["kind"] == "fell" and e["t_ms"] > 124000
    ]
    assert not fell, fell


def test_a_wild_reading_in_a_slow_ringing_after_a_touch_is_no_fall():
    # Independent tower (tuning seed 1008), a 156 g touch rings the plate by ~180 g: as the
    # hand has gone (50.62 s) cell 0's reading is missing once, guessed halfway through a fast
    # swing of the ringing (50.76 s); the inverse filter made a pulse of it, and the period's
    # average (10 samples) held what it left off the hand's line, still, for longer than the
    # press watch's hold: "fell 1" at 50.85 s (and "placed 1", the press back at its level).
    game = tuning_game("independent", 1008)
    assert not any(49000 < e["t_ms"] < 52000 for e in game.truth_events() if e["kind"] == "fell")
    events = run_detector(game.meta, samples_between(game, 0, 51200))
    fell = [e for e in events if e["kind"] == "fell" and e["t_ms"] > 50000]
    assert not fell, fell


def test_a_stick_falling_near_the_hands_spot_is_told_while_the_hand_still_presses():
    # Overlap game (tuning seed 1013): a stick falls at 57.61 s, 12-14 mm (its residual
    # 110-125 g x mm) from the spot of a hand that presses a new stick on until 58.09 s. Too
    # near to be told at once, it was told only once the hand had gone (58.47 s); its residual
    # held still off a line that had held, while the hand pressed on: told at once now.
    game = tuning_game("overlap", 1013)
    fell = [e["t_ms"] for e in game.truth_events() if e["kind"] == "fell" and 57000 < e["t_ms"]]
    assert fell[0] == 57611
    events = run_detector(game.meta, samples_between(game, 0, 58080))
    told = [e["t_ms"] for e in events if e["kind"] == "fell" and e["t_ms"] > 57611]
    assert told and told[0] <= 57611 + 200, told


def test_the_first_press_on_noisy_cells_is_judged_against_their_noise():
    # Noisy game (tuning seed 1006), the game's first press (3.78 s, 89 g): the hand's spot,
    # fitted on the press's ramp, was trusted with the residual's noise still at its assumed
    # minimum (it was learned only from the judged samples after): the next samples, 150-230
    # g x mm off the line (2.5x noise at 80 g is 2 mm of the spot), held: "fell 1" at 4.01 s,
    # though nothing fell. The noise is learned from the first fit's samples too now.
    game = tuning_game("noisy", 1006)
    assert not any(e["t_ms"] < 6000 for e in game.truth_events() if e["kind"] == "fell")
    events = run_detector(game.meta, samples_between(game, 0, 5000))
    fell = [e for e in events if e["kind"] == "fell"]
    assert not fell, fell


@pytest.mark.parametrize(
    ("seed", "fell_ms", "release_ms"), [(1007, 18326, 18781), (1015, 16604, 17335)]
)
def test_a_stick_leaving_under_a_press_on_a_slow_plate_is_told_through_the_boxcars_lag(
    seed, fell_ms, release_ms
):
    # Independent tower (6-9 Hz, a period's boxcar of 11-12 samples lags the moments by ~70
    # ms), sticks leaving over 150-220 ms: a stick falls while a hand presses a new one on.
    # The residual off the hand's line came through the boxcar late and was held 4 samples:
    # told 254 ms (seed 1007) and 213 ms (seed 1015) after it began to leave. Run on by its
    # change over half the boxcar, and the load before the boxcar off the line too, it is told
    # within 200 ms, the hand still pressing.
    game = tuning_game("independent", seed)
    assert any(e["kind"] == "fell" and e["t_ms"] == fell_ms for e in game.truth_events())
    events = run_detector(game.meta, samples_between(game, 0, fell_ms + 400))
    told = [e["t_ms"] for e in events if e["kind"] == "fell" and e["t_ms"] > fell_ms - 50]
    assert told and told[0] <= min(fell_ms + 200, release_ms), told


def test_a_stick_gone_far_off_while_the_hands_spot_was_fitted_is_placed_and_fell():
    # Overlap game (tuning seed 1005), 71.8 s: a hand presses a stick on, and 86 ms into the
    # press another falls, a stick ~100 mm away (stick-weighted), while the press watch was
    # still fitting the hand's spot: the line took the fall in, and the watch never saw a
    # residual. Back at the old level the moments stood moved by it: "touch" before.
    game = tuning_game("overlap", 1005)
    samples = samples_between(game, 64000, 73000)
    turn = [e for e in run_detector(game.meta, samples) if 71000 < e["t_ms"] < 73000]
    assert [e["kind"] for e in turn] == ["placed", "fell"], turn


def test_a_touch_just_after_a_knock_is_no_stick_gone_far_off():
    # Overlap game (tuning seed 1016), 89.1 s: a knock, then a hand touches the tower; back at
    # the old level the moments stood moved by a stick over 40 mm away (the knock moved the
    # sticks and rang the moments), and the press watch had seen nothing: "placed 1, fell 1"
    # for a touch when a far shift alone was taken as a stick swapped.
    game = tuning_game("overlap", 1016)
    samples = samples_between(game, 80000, 90500)
    turn = [e for e in run_detector(game.meta, samples) if 89000 < e["t_ms"] < 90500]
    assert [e["kind"] for e in turn] == ["touch"], turn


def test_a_stick_leaving_under_a_hand_on_a_plate_ringing_9_samples_a_cycle_is_run_on():
    # Independent game (tuning seed 1030), 123.64 s: a stick falls while a hand presses another
    # on a plate ringing at 8.9 Hz, 9.1 samples a cycle, whose boxcar is the fast one of 4
    # samples: with the inverse filter it lags the stick leaving by about 3 samples, and the
    # residual was judged only as it came through: "fell 1" 272 ms after the stick began to
    # leave. Run on by its change over 2 samples while the hand presses (pressfall._runs_on).
    assert fall_latency("independent", 1030, (123600, 123700)) < 200


def test_a_stick_placed_just_before_a_topple_is_no_stick_run_on_off_the_line():
    # Independent game (tuning seed 1084), turn 63: a stick placed at 241.58 s on a plate
    # ringing at 8.7 Hz, 9.9 samples a cycle, and the tower starts to topple 23 ms later.
    # With the hand gone, the centre of pressure running out to the footprint's edge moves the
    # moments steadily one way, and run on like a residual under a hand it was told "fell 1"
    # at 241.70 s, the placement missed.
    game = tuning_game("independent", 1084)
    start, end = turn_span(game, 63)
    assert told_between(game, start, end) == [("placed", None), ("topple", None)]


@pytest.mark.parametrize(
    ("seed", "began", "told_in"),
    [(1053, (116370, 116400), 195), (1040, (174600, 174630), 195)],
)
def test_a_stick_run_on_under_a_hand_is_not_held_by_the_newest_load_s_noise(seed, began, told_in):
    # Independent 1053 at 116.39 s and 1040 at 174.62 s: a stick falls while a hand presses, on
    # a slow plate. The run-on residual stood off the line, but the newest load before the
    # boxcar, which must stand off it too, swung 0.84-1.36 of the threshold from sample to
    # sample: each sample under 1 broke the run, and the fall was told 206 and 216 ms after
    # the stick began to leave. Three quarters of the threshold holds through that noise.
    assert fall_latency("independent", seed, began) < told_in


def test_a_touch_s_run_on_is_no_stick_while_the_newest_load_lies_near_the_line():
    # Independent 1036, turn 28, on a slow plate: a stick falls (97.27 s), one is placed
    # (97.63 s), then a touch at 99.03 s, and the detector tells just that. The touch's run-on
    # residual stood off the line while the newest load before the boxcar stood off it by
    # under three quarters of the threshold: asked for two thirds, the touch was told as one
    # more "placed" and "fell 1".
    game = tuning_game("independent", 1036)
    start, end = turn_span(game, 28)
    assert told_between(game, start, end) == [("fell", 1), ("placed", None), ("touch", None)]
