"""Virtual towers built for a sensing test: armed, then sticks placed one by one."""

from sticktable.sim.tower import Stick, VirtualTower


def built_tower(seed: int, physics: dict, sticks: int, standing: int, pause_ms: float, **board):
    """A tower still for 3 s (the detector arms), then `standing` of its `sticks` placed, each
    settled and followed by `pause_ms`: (tower, samples so far, every stick)."""
    tower = VirtualTower.create(seed, physics=physics, **board)
    samples = list(tower.run(3000))
    all_sticks = [Stick(i, tower.board.stick_g) for i in range(sticks)]
    for stick in all_sticks[:standing]:
        tower.place(stick)
        samples.extend(tower.run_until_quiet())
        samples.extend(tower.run(pause_ms))
    return tower, samples, all_sticks
