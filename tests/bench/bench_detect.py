"""Detection benchmark (issue 3): the firmware's detector against a fixed labelled set.

    .venv/bin/python tests/bench/bench_detect.py [--games N] [--jobs J] [--misses]

The set: N (default 50) random Stick Stack games played physically on the virtual tower
(seeds 1..N, 3 players; every board with its own noise, drift, wild values, missing samples,
rate 78-92 Hz and inverted cells), the same games with `zero_counts` left out of the meta, and
every labelled scenario of `sticktable.sim.scenarios` (3 seeds each), and --variants (default
40) games on physics the detector was not tuned on (see `variant`). Prints placed recall and
precision, per-turn fallen-count exact rate (overall and for bursts of 1, 2-5, 6+), topple
recall, false topples, touch recall, latency p50/p95 per kind, how many games sensing plus the
rules score exactly as scripted, and the detector's cost per sample under MicroPython.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PERIOD_US = 12500  # one HX711 sample period at 80/s


def variant(seed: int) -> dict:
    """Physics the detector was not tuned on: light or heavy sticks 8 % apart, three or four
    cells, 1.5-2.5x the noise, drift, wild and missing rate, steadier or shakier hands."""
    import random

    rng = random.Random(seed * 31 + 7)
    return {
        "stick_g": rng.choice([4.0, 5.0, 12.0, 15.0]),
        "cells": rng.choice([3, 4]),
        "noise_scale": rng.choice([1.5, 2.5]),
        "spread": 0.08,
        "tremor": rng.choice([0.2, 1.0, 2.0]),
    }


def one_game(job):
    from sticktable.sim.detection import run_detector
    from sticktable.sim.evaluate import evaluate
    from sticktable.sim.game import SimGame
    from sticktable.sim.tabletop import play_through

    seed, physics = job
    game = SimGame(["Ann", "Bo", "Cy"], seed=seed, physics=physics)
    samples = list(game.samples())
    truth = game.truth_events()
    label = f"game {seed}" + (f" {physics}" if physics else "")
    with_zero = evaluate(truth, run_detector(game.meta, samples), label)
    meta = {k: v for k, v in game.meta.items() if k != "zero_counts"}
    without = evaluate(truth, run_detector(meta, samples), label + " (no zero)")
    played = play_through(game.header, meta, samples, len(game.players)).standings()
    expected = game.expected_standings()
    exact = played.finished and (played.totals, played.winners) == (
        expected.totals,
        expected.winners,
    )
    return with_zero, without, exact, samples[-1].t_ms


def one_scenario(job):
    from sticktable.sim.detection import run_detector
    from sticktable.sim.evaluate import evaluate
    from sticktable.sim.scenarios import scenario

    name, seed = job
    sc = scenario(name, seed=seed)
    return evaluate(sc.truth, run_detector(sc.meta, sc.samples), f"{name}/{seed}")


def micropython_cost(seed: int) -> tuple[float, bool]:
    """Detector time per sample under the MicroPython unix port, every feed under heap_lock."""
    sys.path.insert(0, str(ROOT / "tests"))
    from micropython_runner import run_micropython

    from sticktable.sim.game import SimGame
    from sticktable.sim.trace import write_trace

    game = SimGame(["Ann", "Bo", "Cy"], seed=seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.csv"
        write_trace(path, game.meta, game.samples())
        done = run_micropython(
            ROOT / "tests/sensing/mp_detect.py", str(path), "--lock", "--cost", timeout=600
        )
    out = done.stdout.decode()
    match = re.search(r"cost_us_per_sample ([0-9.]+)", out)
    return (float(match.group(1)) if match else float("nan")), done.returncode == 0


def pct(n, d):
    return f"{100.0 * n / d:6.2f} %  ({n}/{d})" if d else "   n/a"


def lat(values):
    from sticktable.sim.evaluate import percentile

    if not values:
        return "n/a"
    return f"p50 {percentile(values, 50):4.0f} ms   p95 {percentile(values, 95):4.0f} ms"


def report(title, t) -> None:
    print(f"\n{title}")
    print(f"  placed recall            {pct(t.placed_found, t.placed_truth)}")
    print(f"  placed precision         {pct(t.placed_found, t.placed_reported)}")
    print(f"  fallen count exact/turn  {pct(t.fall_turns_exact, t.turns_with_falls)}")
    for key in ("1", "2-5", "6+"):
        n, ok = t.buckets[key]
        print(f"    bursts of {key:4}           {pct(ok, n)}")
    print(f"  turns with phantom falls {t.phantom_fall_turns}")
    print(f"  topple recall            {pct(t.topples_found, t.topples_truth)}")
    print(f"  false topples            {t.false_topples}")
    print(f"  touch recall             {pct(t.touches_found, t.touches_truth)}")
    print(f"  false touches            {t.false_touches}")
    print(f"  latency placed (release) {lat(t.latency['placed'])}")
    print(f"  latency fell (1st stick) {lat(t.latency['fell'])}")
    print(f"  latency topple (5 deg)   {lat(t.latency['topple'])}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--variants", type=int, default=40, help="games on other physics")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--misses", action="store_true", help="list every miss")
    args = parser.parse_args()

    from sticktable.sim.evaluate import Tally
    from sticktable.sim.scenarios import SCENARIOS

    start = time.time()
    games, no_zero, scen, other = Tally(), Tally(), Tally(), Tally()
    exact = other_exact = 0
    sim_ms = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs = [(seed, None) for seed in range(1, args.games + 1)]
        for with_zero, without, ok, ms in pool.map(one_game, jobs):
            games.add(with_zero)
            no_zero.add(without)
            exact += ok
            sim_ms += ms
        jobs = [(seed, variant(seed)) for seed in range(1001, 1001 + args.variants)]
        for _, without, ok, _ in pool.map(one_game, jobs):
            other.add(without)
            other_exact += ok
        jobs = [(name, seed) for name in SCENARIOS for seed in (1, 2, 3)]
        for tally in pool.map(one_scenario, jobs):
            scen.add(tally)
    print(
        f"detection benchmark: {args.games} games ({sim_ms / 60000:.0f} min of play), "
        f"{len(SCENARIOS)} scenarios x 3 seeds"
    )
    report(f"games (meta with zero_counts), {args.games} games", games)
    report("same games, zero_counts left out of the meta", no_zero)
    report("labelled scenarios", scen)
    report(
        f"{args.variants} games on other physics (4-15 g sticks 8 % apart, 3 or 4 cells, "
        "1.5-2.5x noise, hands 0.2-2x as shaky), no zero_counts",
        other,
    )
    print(
        f"\ngames scored exactly as scripted (detector + buttons + rules, no firmware "
        f"process): {pct(exact, args.games)}; on other physics "
        f"{pct(other_exact, args.variants)}"
    )
    cost, locked = micropython_cost(1)
    print(
        f"detector cost under MicroPython (unix port, this host): {cost:.1f} us per sample "
        f"= {100 * cost / PERIOD_US:.2f} % of the 12.5 ms period"
    )
    print(
        "allocation per sample: "
        + (
            "0 bytes (every feed() and pop() ran under micropython.heap_lock())"
            if locked
            else "FAILED under heap_lock"
        )
    )
    if args.misses:
        print("\n".join(games.misses + no_zero.misses + scen.misses + other.misses))
    print(f"({time.time() - start:.0f} s)")
    return 0 if locked else 1


if __name__ == "__main__":
    sys.exit(main())
