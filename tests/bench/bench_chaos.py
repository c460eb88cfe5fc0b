"""Chaos benchmark: scripted Stick Stack games on the simulated table (the firmware under
MicroPython) played by `sticktable run` through a cable that damages bytes and is pulled, the
board rebooting and the daemon killed (SIGKILL) or stopped (Ctrl-C) at random and resumed
(tests/host/chaos.py), until at least `--events` board events; every one checked against the
journal. Prints events, journaled, lost, duplicated, reboot gaps and how many were exact.

    .venv/bin/python tests/bench/bench_chaos.py [--events 10000] [--byte-error 0.002]
        [--life 2.0] [--first-seed 100]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "host")]

from chaos import Figures, run_chaos  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--byte-error", type=float, default=0.002)
    parser.add_argument("--life", type=float, default=2.0, help="mean daemon life (s)")
    parser.add_argument("--first-seed", type=int, default=100)
    args = parser.parse_args()

    total = Figures()
    t0 = time.monotonic()
    for seed in itertools.count(args.first_seed):
        if total.events >= args.events:
            break
        speed = 8.0 if seed % 2 else 0.0  # odd seeds: the game goes on without the daemon
        total.add(
            run_chaos(
                [(seed, speed)],
                byte_error=args.byte_error,
                mean_life_s=args.life,
                p_reboot=0.4,
                p_pull=0.3,
            )
        )
        print(f"  after game seed {seed}: {total.line()}", flush=True)
    elapsed = time.monotonic() - t0
    print(
        f"chaos: {total.games} games ({total.finished} played to the end), {elapsed:.0f} s; "
        f"{total.kills} SIGKILLs, {total.interrupts} Ctrl-Cs, {total.reboots} board reboots, "
        f"{total.pulls} cable pulls, {total.damaged_bytes} bytes damaged"
    )
    print(f"  {total.line()}")
    for problem in total.problems[:20]:
        print(f"  problem: {problem}")
    ok = (
        not total.problems
        and total.lost == 0
        and total.duplicated == 0
        and total.gaps == total.gaps_exact
    )
    print("result: " + ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
