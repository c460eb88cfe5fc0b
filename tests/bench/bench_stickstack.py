"""Stick Stack rules throughput: events applied per second, and `score` on a long transcript.

Run: `.venv/bin/python tests/bench/bench_stickstack.py` (or `make bench`). Prints figures only.
"""

import random
import time

from sticktable.engine import Game
from sticktable.games.stickstack_transcript import read_game, result, to_lines

WEIGHTS = {"take": 10, "placed": 10, "unplaceable": 1, "fell": 2, "topple": 0.05, "touch": 0.5,
           "end_round": 5}  # fmt: skip


def random_game(seed: int, end_score: int) -> Game:
    rng = random.Random(seed)
    game = Game({"game": "stick-stack", "players": ["Ann", "Bo", "Cy", "Dee"],
                 "end_score": end_score})  # fmt: skip
    while not game.finished:
        actions = game.rules.legal_actions(game.state)
        weights = [WEIGHTS[a["type"]] / a.get("count", 1) ** 2 for a in actions]
        game.apply(rng.choices(actions, weights)[0])
    return game


def main() -> None:
    game = random_game(1, end_score=200)
    events = game.events
    start = time.perf_counter()
    Game(game.header, events)
    took = time.perf_counter() - start
    print(f"apply: {len(events)} events in {took * 1000:.0f} ms ({len(events) / took:,.0f}/s)")
    lines = to_lines(game.header, events)
    start = time.perf_counter()
    result(read_game(lines))
    took = time.perf_counter() - start
    print(f"score: {len(lines)} transcript lines in {took * 1000:.0f} ms")


if __name__ == "__main__":
    main()
