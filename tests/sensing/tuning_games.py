"""The bench's games (tests/bench/bench_detect.py) for a sensing test: one tuning game on a
regime's physics, and the stretch of it the test is about."""

from sticktable.sim.game import SimGame
from sticktable.sim.regimes import REGIMES


def tuning_game(regime: str, seed: int) -> SimGame:
    """The game the bench plays on `regime`'s physics with `seed` (1000 and up: tuning seeds)."""
    return SimGame(["Ann", "Bo", "Cy"], seed=seed, physics=REGIMES[regime][1], lively=1.5)


def samples_between(game: SimGame, start_ms: float, end_ms: float) -> list:
    """The game's samples from start_ms to end_ms (the game is simulated no further)."""
    samples = []
    for s in game.samples():
        if s.t_ms > end_ms:
            break
        if s.t_ms >= start_ms:
            samples.append(s)
    return samples
