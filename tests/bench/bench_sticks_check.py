"""Sticks lay-down check latency: the worst case over many hands a game can produce.

Prints figures, asserts nothing (contract: no timing assertions in tests). The spec asks for
an answer within a second for any hand; each stick is tried with its example, mutations of it,
random hands and hands heavy with wilds (answers "no" cost most: they also try relaxations to
say why). The worst hand is then timed through the real command, process start included.
"""

import json
import random
import subprocess
import sys
import time

from sticktable.games.sticks.cards import full_deck, is_wild
from sticktable.games.sticks.check import check_request
from sticktable.games.sticks.stick_lists import stick_list

TRIALS = 150


def hands(stick, rng, deck):
    wilds = [c for c in deck if is_wild(c)]
    tame = [c for c in deck if not is_wild(c)]
    for trial in range(TRIALS):
        if trial % 3 == 0:
            cards = list(stick.example)
            for _ in range(rng.randint(1, 3)):
                cards[rng.randrange(len(cards))] = rng.choice(deck)
        else:
            n_wild = min(stick.size, rng.choice([0, 1, 2, 3, 4, 6, 8, 10]))
            cards = rng.sample(tame, stick.size - n_wild) + rng.sample(wilds, n_wild)
        yield cards


def main():
    rng = random.Random(2026)
    deck = full_deck(6)
    worst, count, total = (0.0, None), 0, 0.0
    for preset in ("classic", "tries"):
        for stick in stick_list(preset):
            if stick.kind != "laydown":
                continue
            for cards in hands(stick, rng, deck):
                start = time.perf_counter()
                check_request(preset, stick.number, cards)
                took = time.perf_counter() - start
                count, total = count + 1, total + took
                worst = max(worst, (took, (preset, stick.number, cards)))
    took, (preset, number, cards) = worst
    print(
        f"in-process checks: {count}, mean {1000 * total / count:.2f} ms, "
        f"worst {1000 * took:.1f} ms ({preset} stick {number}: {' '.join(cards)})"
    )
    start = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sticktable",
            "sticks",
            "check",
            "--preset",
            preset,
            "--stick",
            str(number),
            *cards,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - start
    print(
        f"command for the worst hand: {1000 * wall:.0f} ms wall, process start included; "
        f"answer: {json.loads(done.stdout).get('why', 'ok')}"
    )


if __name__ == "__main__":
    main()
