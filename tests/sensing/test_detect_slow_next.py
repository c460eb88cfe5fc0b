"""A slow hand's stick soon after the last placement (issue 10): its weight arrives smoothly
over more than a second. Its first part, a few grams still on their way up, was taken for the
rest of the stick placed just before (weighed while a hand still held part of it), so the new
stick was placed late, weighed short, or not at all."""

import pytest

from sticktable.sim.detection import run_detector
from sticktable.sim.evaluate import evaluate
from sticktable.sim.physics import REAL
from sticktable.sim.tower import Stick, VirtualTower


@pytest.mark.parametrize("seed", [1000, 1001, 1002, 1003])
def test_a_slow_hand_soon_after_a_placement_places_its_own_stick(seed):
    slow = dict(REAL, slow_p=1.0, slow_ms=(1100.0, 1300.0), overlap_p=0.0, lean_p=0.0)
    tower = VirtualTower.create(seed, physics=slow, stick_g=12.0)
    samples = list(tower.run(3000))
    for i in range(6):
        tower.place(Stick(i, 12.0))
        samples.extend(tower.run_until_quiet())
        samples.extend(tower.run(300))  # the next hand comes soon
    samples.extend(tower.run(2000))
    truth = sorted(tower.truth, key=lambda e: e["t_ms"])
    found = run_detector(tower.board.meta(), samples)
    tally = evaluate(truth, found, f"seed {seed}")
    assert tally.placed_found == tally.placed_truth == tally.placed_reported == 6, tally.misses
