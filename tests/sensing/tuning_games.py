"""The bench's games (tests/bench/bench_detect.py) for a sensing test: one tuning game on a
regime's physics, the stretch of it the test is about, and the sticks that fell in it against
those the detector told."""

from sticktable.sim.detection import run_detector
from sticktable.sim.game import SimGame
from sticktable.sim.regimes import REGIMES


def tuning_game(regime: str, seed: int, **pushed) -> SimGame:
    """The game the bench plays on `regime`'s physics with `seed` (1000 and up: tuning seeds);
    `pushed` physics settings in place of the regime's own, as bench_detect.py --set plays it."""
    physics = dict(REGIMES[regime][1], **pushed)
    return SimGame(["Ann", "Bo", "Cy"], seed=seed, physics=physics, lively=1.5)


def samples_between(game: SimGame, start_ms: float, end_ms: float) -> list:
    """The game's samples from start_ms to end_ms (the game is simulated no further)."""
    samples = []
    for s in game.samples():
        if s.t_ms > end_ms:
            break
        if s.t_ms >= start_ms:
            samples.append(s)
    return samples


def turn_span(game: SimGame, turn: int) -> tuple[int, int]:
    """(start, end) of a turn: from its button press to the next (or far on, for the last)."""
    presses = sorted(e["t_ms"] for e in game.truth_events() if e["kind"] == "button")
    start = [e["t_ms"] for e in game.truth_events() if e["kind"] == "button" and e["turn"] == turn]
    later = [t for t in presses if t > start[0]]
    return start[0], later[0] if later else 1 << 62


def told_between(game: SimGame, start_ms: int, end_ms: int) -> list[tuple[str, int | None]]:
    """(kind, count) of each event the detector told from start_ms to end_ms, the detector run
    from the game's start to 1.5 s past the end (what the stretch's last events settle into)."""
    found = run_detector(game.meta, samples_between(game, 0, end_ms + 1500))
    return [(e["kind"], e.get("count")) for e in found if start_ms <= e["t_ms"] < end_ms]


def sticks_fallen(game: SimGame, start_ms: float, end_ms: float) -> tuple[int, int]:
    """(sticks that fell, sticks told fallen) from start_ms to end_ms of a game, the detector
    run from the game's start."""
    found = run_detector(game.meta, samples_between(game, 0, end_ms))

    def fallen(events):
        return sum(e["count"] for e in events if e["kind"] == "fell" and start_ms <= e["t_ms"])

    return fallen(e for e in game.truth_events() if e["t_ms"] < end_ms), fallen(found)


def fall_told_after(game: SimGame, began_ms: tuple[int, int], told_by_ms: int) -> int | None:
    """ms from the one fall of the game that began within `began_ms` (first, last) to the first
    fall the detector told after that window's start, up to `told_by_ms`; None if none."""
    first, last = began_ms
    fell = [e for e in game.truth_events() if e["kind"] == "fell" and first < e["onset_ms"] < last]
    assert len(fell) == 1, fell
    found = run_detector(game.meta, samples_between(game, 0, told_by_ms))
    told = [e["t_ms"] for e in found if e["kind"] == "fell" and first < e["t_ms"] < told_by_ms]
    return told[0] - fell[0]["onset_ms"] if told else None


def fall_latency(regime: str, seed: int, began_ms: tuple[int, int]) -> int:
    """ms from the one fall of a tuning game that began within `began_ms` (first, last) to the
    first fall told (fall_told_after, looking up to 800 ms past the window; one must be)."""
    late = fall_told_after(tuning_game(regime, seed), began_ms, began_ms[1] + 800)
    assert late is not None, f"no fall told within 800 ms of {began_ms}"
    return late
