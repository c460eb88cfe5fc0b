"""After a topple the tower is stood back up and the game goes on: the detector re-arms on its
new rest. On a noisy board a wild reading or a jolt every second or so broke the 1.5 s of
unbroken stillness the first baseline waits for, and the first stick placed on the rebuilt
tower came before the baseline: it was part of the empty tower, never reported."""

import pytest
from towers import built_tower

from sticktable.sim.detection import run_detector
from sticktable.sim.physics import REAL
from sticktable.sim.tower import Rebuild

NOISY = dict(REAL, rest_p=0.0)


@pytest.mark.parametrize("seed", [1000, 1001, 1002, 1003, 1004, 1005])
def test_the_first_stick_on_a_tower_stood_back_up_is_placed(seed):
    tower, samples, sticks = built_tower(seed, NOISY, 9, standing=6, pause_ms=800, noise_scale=1.6)
    tower.topple()
    samples.extend(tower.run_until_quiet())
    samples.extend(tower.run(800))
    tower.add(Rebuild(tower))
    samples.extend(tower.run_until_quiet())
    samples.extend(tower.run(2500))  # held still, then the game goes on
    tower.sticks_on.clear()
    for stick in sticks[6:]:
        tower.place(stick)
        samples.extend(tower.run_until_quiet())
        samples.extend(tower.run(800))
    found = run_detector(tower.board.meta(), samples)
    topple = [e["t_ms"] for e in found if e["kind"] == "topple"]
    assert len(topple) == 1, found
    after = [e for e in found if e["kind"] == "placed" and e["t_ms"] > topple[0]]
    assert len(after) == 3, found
