"""Falls counted from the sticks weighed on the tower (tablefw/count.py), on towers of the
physics sweep (tuning games of sim/regimes.py)."""

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


def test_a_whole_tower_falling_is_counted_from_its_weighed_sticks():
    # 3-cells tuning game 1005, turn 57: 30 sticks, weighed 0.16 g short each on average,
    # all fall; the drop is 0.6 of a stick more than their weighed sum, and was counted 31.
    # (With the single fall just before it, 31 sticks fell in this window.)
    truth, found = _events("3-cells", 1005, 206900, 212000)
    told = sum(e["count"] for e in found if e["kind"] == "fell")
    assert told == sum(e["count"] for e in truth if e["kind"] == "fell") == 31, found
