"""Chaos benchmark: scripted Stick Stack games on the simulated table (the firmware under
MicroPython) played by `sticktable run` through a cable that damages bytes and is pulled, the
board rebooting and the daemon killed (SIGKILL) or stopped (Ctrl-C) at random and resumed
(tests/host/chaos.py), until at least `--events` board events; every one checked against the
journal. Prints events, journaled, lost, duplicated, reboot gaps and how many were exact.

Games run `--jobs` at a time (each its own board, cable, daemons and journal): a game spends
most of its time waiting on daemons that start, die and resume, not computing.

    .venv/bin/python tests/bench/bench_chaos.py [--events 10000] [--jobs 3]
        [--byte-error 0.002] [--life 2.0] [--first-seed 100]
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "host")]

from chaos import Figures, run_chaos  # noqa: E402

# Odd seeds: the game goes on at this many times real time whoever listens (the board holds
# unacknowledged events when it reboots or a daemon dies); even seeds: simulated time waits
# for the daemon.
FREE_RUN_SPEED = 16.0
GAME_EVENTS = 150  # about what a game's board numbers (to stop starting games in time)


def play(seed: int, byte_error: float, life: float) -> tuple[int, Figures]:
    speed = FREE_RUN_SPEED if seed % 2 else 0.0
    figures = run_chaos(
        [(seed, speed)], byte_error=byte_error, mean_life_s=life, p_reboot=0.4, p_pull=0.3
    )
    return seed, figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=3, help="games played at once")
    parser.add_argument("--byte-error", type=float, default=0.002)
    parser.add_argument("--life", type=float, default=2.0, help="mean daemon life (s)")
    parser.add_argument("--first-seed", type=int, default=100)
    args = parser.parse_args()

    total = Figures()
    t0 = time.monotonic()
    seeds = itertools.count(args.first_seed)
    context = multiprocessing.get_context("spawn")  # no fork of a process with threads
    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=context) as pool:
        running: set = set()
        while True:
            # Another game while those under way are not expected to reach the target.
            while len(running) < args.jobs and total.events + GAME_EVENTS * len(running) < (
                args.events
            ):
                running.add(pool.submit(play, next(seeds), args.byte_error, args.life))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                seed, figures = future.result()
                total.add(figures)
                print(f"  game seed {seed}: {figures.line()}", flush=True)
    elapsed = time.monotonic() - t0
    print(
        f"chaos: {total.games} games ({total.finished} played to the end, {args.jobs} at a "
        f"time), {elapsed:.0f} s; {total.kills} SIGKILLs, {total.interrupts} Ctrl-Cs, "
        f"{total.reboots} board reboots, {total.pulls} cable pulls, "
        f"{total.damaged_bytes} bytes damaged"
    )
    print(f"  {total.line()}")
    problems = sorted(set(total.problems))
    for problem in problems[:20]:
        print(f"  problem: {problem}")
    if len(problems) > 20:
        print(f"  ... and {len(problems) - 20} more problems")
    ok = (
        not total.problems
        and total.events >= args.events
        and total.lost == 0
        and total.duplicated == 0
        and total.gaps == total.gaps_exact
    )
    print(
        f"result: {'OK' if ok else 'FAILED'}: {total.events} board events, {total.lost} lost, "
        f"{total.duplicated} duplicated, {total.gaps_exact} of {total.gaps} reboot gaps exact"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
