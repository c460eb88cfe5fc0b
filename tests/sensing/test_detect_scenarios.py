"""The firmware's detector (run under CPython) against labelled scenarios of the virtual tower."""

import pytest

from sticktable.sim.detection import make_detector, run_detector
from sticktable.sim.evaluate import evaluate
from sticktable.sim.scenarios import scenario
from sticktable.sim.tower import Sample
from tablefw.compat import ticks_diff
from tablefw.detect import _young


def detect(name, seed=1, clean=False):
    sc = scenario(name, seed=seed, clean=clean)
    found = run_detector(sc.meta, sc.samples)
    return sc, found, evaluate(sc.truth, found, name)


def kinds(found, kind):
    return [e for e in found if e["kind"] == kind]


@pytest.mark.parametrize(
    "name", ["gentle", "heavy", "drift", "wild", "missing", "inverted", "slow-board", "fast-board"]
)
def test_every_placement_is_reported_once(name):
    sc, found, tally = detect(name, seed=2)
    placed = [e for e in sc.truth if e["kind"] == "placed"]
    assert len(placed) >= 8
    assert tally.placed_found == len(placed), tally.misses
    assert len(kinds(found, "placed")) == len(placed)
    assert not kinds(found, "fell") and not kinds(found, "topple")


def test_each_stick_is_weighed_as_it_is_placed():
    sc = scenario("gentle", seed=3, clean=True)
    det = make_detector(sc.meta)
    run_detector(sc.meta, sc.samples, detector=det)
    truth = [e["grams"] for e in sc.truth if e["kind"] == "placed"]
    weighed = [g / 100 for g in det._mass[: det._nsticks]]
    assert len(weighed) == len(truth)
    assert all(abs(a - b) < 0.3 for a, b in zip(weighed, truth, strict=True)), (weighed, truth)


@pytest.mark.parametrize(
    "name",
    [
        "single-falls",
        "burst",
        "big-burst",
        "cascade",
        "fall-after-place",
        "fall-at-once",
        "knock-off",
    ],
)
def test_fallen_sticks_are_counted_per_turn(name):
    _, found, tally = detect(name, seed=1)
    assert tally.turns_with_falls >= 1
    assert tally.fall_turns_exact == tally.turns_with_falls, tally.misses
    assert tally.phantom_fall_turns == 0
    assert not kinds(found, "topple")


def test_a_cascade_empties_the_tower_in_the_count():
    sc, found, _ = detect("cascade", seed=4)
    standing = sum(1 for e in sc.truth if e["kind"] == "placed") - sum(
        e["count"] for e in sc.truth if e["kind"] == "fell" and e["count"] < 10
    )
    assert sum(e["count"] for e in kinds(found, "fell")) == standing


@pytest.mark.parametrize("name", ["topple", "crumble"])
def test_a_topple_is_caught_once_and_early(name):
    sc, found, tally = detect(name, seed=1)
    assert tally.topples_truth == 1 and tally.topples_found == 1 and tally.false_topples == 0
    assert tally.latency["topple"][0] <= 150
    assert not kinds(found, "fell")  # sticks leaving a falling tower are the topple's


def test_the_tower_rebuilt_after_a_topple_is_tracked_again():
    sc, found, tally = detect("topple", seed=2)
    after = [e for e in kinds(found, "placed") if e["t_ms"] > kinds(found, "topple")[0]["t_ms"]]
    assert len(after) == 3
    assert tally.placed_found == tally.placed_truth == tally.placed_reported


def test_touches_are_reported_and_change_nothing():
    _, found, tally = detect("touch", seed=1)
    assert tally.touches_truth == 4 and tally.touches_found == 4 and tally.false_touches == 0
    assert tally.placed_found == tally.placed_truth == tally.placed_reported
    assert not kinds(found, "fell")


@pytest.mark.parametrize("name", ["knock", "slide"])
def test_knocks_and_slides_report_nothing(name):
    sc, found, _ = detect(name, seed=3)
    placed = sum(1 for e in sc.truth if e["kind"] == "placed")
    assert [e["kind"] for e in found] == ["placed"] * placed


def test_without_zero_counts_the_detector_still_works():
    sc = scenario("burst", seed=5)
    meta = {k: v for k, v in sc.meta.items() if k != "zero_counts"}
    tally = evaluate(sc.truth, run_detector(meta, sc.samples))
    assert tally.placed_found == tally.placed_truth == tally.placed_reported
    assert tally.fall_turns_exact == tally.turns_with_falls


def test_board_ticks_wrapping_at_2_pow_30_change_nothing():
    sc = scenario("knock-off", seed=2)
    shift = (1 << 30) - 12_000  # the wrap falls in the middle of the play
    wrapped = [Sample((s.t_ms + shift) & 0x3FFFFFFF, s.cells, s.ax, s.ay, s.az) for s in sc.samples]
    plain = run_detector(sc.meta, sc.samples)
    moved = run_detector(sc.meta, wrapped)
    assert [(e["kind"], e.get("count")) for e in moved] == [
        (e["kind"], e.get("count")) for e in plain
    ]
    assert any(e["t_ms"] < 20_000 for e in moved) and any(e["t_ms"] > shift for e in moved)


def test_times_older_than_a_minute_are_kept_a_minute_old_across_the_wrap():
    # A plate still for days must not let a knock's time drift past ticks_diff's 2**29 range.
    assert _young(100_000, 1_000) == 40_000
    assert _young(100_000, 50_000) == 50_000
    then = _young(5_000, (1 << 30) - 100_000)  # the clock wrapped since
    assert ticks_diff(5_000, then) == 60_000
