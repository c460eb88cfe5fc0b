"""Sticks hot-seat screen latency: how long the hand screen a player gets on Enter (and after
each move) takes to compute: their hand, the checker's verdict on their stick, and every legal
move (lay-down, melds, lay-offs, steals found by search).

Prints figures (CPU milliseconds per screen), asserts nothing. Games of both presets are
played to the end by the greedy screen player of tests/sticks/hotseat_player.py, timing every
screen it reads.
"""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sticks"))

from hotseat_player import choose, moves_in  # noqa: E402

from sticktable.engine import Game  # noqa: E402

GAMES = 2  # per preset


def play(header: dict, seed: int) -> list[float]:
    game, rng, took = Game(header), random.Random(seed), []
    while not game.finished:
        if game.draw_chance(rng) is not None:
            continue
        player = game.turn().player
        start = time.process_time()  # CPU time: the figure holds on a busy shared machine
        lines = game.rules.private_lines(game.state, player)
        took.append(time.process_time() - start)
        block = "\n".join(f"  | {line}" for line in lines)
        game.step(game.rules.parse_key(choose(moves_in(block)), game.state))
    return took


def main():
    print(f"{'preset':8} {'screens':>8} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for preset in ("classic", "tries"):
        took = []
        for seed in range(GAMES):
            took += play({"game": "sticks", "players": ["Ann", "Bo", "Cy"], "preset": preset},
                         seed)  # fmt: skip
        ms = sorted(t * 1000 for t in took)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        print(f"{preset:8} {len(ms):8} {statistics.median(ms):10.1f} {p99:8.1f} {ms[-1]:8.1f}")


if __name__ == "__main__":
    main()
