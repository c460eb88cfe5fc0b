"""A press episode's resting stick and a whole tower's fall, on towers of the physics sweep
(tuning games of sim/regimes.py)."""

from sticktable.sim.detection import run_detector
from sticktable.sim.game import SimGame
from sticktable.sim.regimes import REGIMES


def _events(regime, seed, start, end):
    game = SimGame(["Ann", "Bo", "Cy"], seed=seed, physics=REGIMES[regime][1], lively=1.5)
    truth = [e for e in game.truth_events() if start <= e["t_ms"] <= end]
    samples = []
    for s in game.samples():
        if s.t_ms > end:
            break
        samples.append(s)
    return truth, [e for e in run_detector(game.meta, samples) if start <= e["t_ms"] <= end]


def test_a_smooth_touch_passing_one_stick_is_no_stick_let_go_that_fell():
    # Independent (slow ringing plate) tuning game 1003, turn 127: a touch rises to 19 g and
    # back over 450 ms. On its way up and down it passes one stick at ~1.2 g a sample, its
    # 4-sample window within the loose spread a ringing plate allows a resting stick; read as
    # a stick resting alone, the release was 'let go, then fell off': placed + fell 1.
    truth, found = _events("independent", 1003, 464600, 465600)
    assert [e["kind"] for e in truth] == ["touch"]
    assert [e["kind"] for e in found] == ["touch"], found


def test_a_whole_tower_falling_is_counted_from_its_weighed_sticks():
    # 3-cells tuning game 1005, turn 57: 30 sticks, weighed 0.16 g short each on average,
    # all fall; the drop is 0.6 of a stick more than their weighed sum, and was counted 31.
    truth, found = _events("3-cells", 1005, 206900, 212000)
    told = sum(e["count"] for e in found if e["kind"] == "fell")
    assert told == sum(e["count"] for e in truth if e["kind"] == "fell") == 31, found
