"""Sticks placed on a slow plate whose ringing is not learned yet (issue 10).

On a slow, nearly undamped plate (6-9 Hz, zeta ~0.01) each stick's landing rings for seconds;
until the ringing is learned no 8-sample window is stable or loose, the next hand comes first
and one episode runs over several sticks. Before the fix the first five placements of
touch-fall-slow (tuning seeds 1000 and 1002) were all missed: the level later walked up by
two sticks at once, unexplained. Averaged over 2-3 periods the ringing leaves little: a level
one stick up that holds there is placed (tablefw/settle.py, SlowRing)."""

import pytest

from sticktable.sim.detection import run_detector
from sticktable.sim.evaluate import PLACED_WINDOW, match_times
from sticktable.sim.scenarios import scenario
from tablefw.calibrator import make_detector


@pytest.mark.parametrize("seed", [1000, 1002])
def test_sticks_placed_before_the_ringing_is_learned_are_reported(seed):
    sc = scenario("touch-fall-slow", seed=seed)
    det = make_detector(sc.meta)
    events = run_detector(sc.meta, sc.samples, detector=det)
    touch = next(e["t_ms"] for e in sc.truth if e["kind"] == "touch")
    first = [e["t_ms"] for e in sc.truth if e["kind"] == "placed" and e["t_ms"] < touch]
    seen = [e["t_ms"] for e in events if e["kind"] == "placed"]
    pairs, _ = match_times(first, seen, PLACED_WINDOW)  # the bench's matching of placements
    missed = [t for t, f in pairs if f is None]
    assert len(first) == 5
    assert not missed, (missed, events)
