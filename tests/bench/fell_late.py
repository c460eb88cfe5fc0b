"""Where a regime's fell latency goes: the bench's fell latency split by what the fall met.

    .venv/bin/python tests/bench/fell_late.py [--games N] [--only REGIMES] [--jobs J]
        [--over MS] [--late] [--cache DIR]

A tuning instrument (not run by `make bench`): on the tuning seeds (1000..1000+N-1) it plays
the bench's games (bench_detect.py, same cache) and measures each turn's fell latency as the
bench does (sim/evaluate.py fall_turns: the first stick leaving to the first fall told). It
splits the turns two ways and prints, per part, how many turns, the p50 and p95 latency and how
many are over --over (the target, 200 ms):

- by what the first stick met: a hand on the tower (a placement's or a touch's, from its
  first grams to its release), a knock within the second before, a hand released within
  300 ms before, or nothing of those ("free");
- by the ringing filter's boxcar when the fall was told: 4 samples (a fast plate, or none
  learned yet) or one period of a slow plate (ringfit.period: 10 samples and more today, so
  "boxcar 5-9" stays empty unless that bound moves).

--late also lists each turn over --over, slowest first: its seed, when its first stick left,
how late it was told, what it met and its boxcar (run at two commits, where a change moved
which turns).

Its "all" line can differ from the bench's fell p95 by a few ms: the bench also plays its first
two games again without zero_counts.

Read with firmware/DETECTOR.md limit 3: the p95 a regime misses is set by whichever parts hold
most of its turns over the target."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SKIP = ("scenarios",)  # (not a game regime)
KNOCK_MS = 1000  # a knock this long before the first stick left: "after a knock"
RELEASED_MS = 300  # a hand released this long before it: "just released"
MET = ("under a hand", "after a knock", "just released", "free")


def met(truth: list[dict], onset: int) -> str:
    """What a fall whose first stick left at `onset` met (the first of MET that holds)."""
    hands = [e for e in truth if e["kind"] in ("placed", "touch")]
    if any(e["onset_ms"] <= onset <= e["t_ms"] for e in hands):
        return MET[0]
    if any(0 <= onset - e["t_ms"] < KNOCK_MS for e in truth if e["kind"] == "knock"):
        return MET[1]
    if any(0 <= onset - e["t_ms"] < RELEASED_MS for e in hands):
        return MET[2]
    return MET[3]


BOXCARS = ("boxcar 4", "boxcar 5-9", "boxcar 10-11", "boxcar 12+")


def boxcar_part(samples: int) -> str:
    """The part (of BOXCARS) a fall told through a boxcar of `samples` samples belongs to."""
    if samples <= 4:
        return BOXCARS[0]
    return BOXCARS[1] if samples <= 9 else (BOXCARS[2] if samples <= 11 else BOXCARS[3])


def one_game(job):
    """(regime, [(latency ms, what it met, boxcar part, seed, onset ms)]) for each turn of one
    tuning game in which sticks fell and a fall was told."""
    from bench_detect import played

    from sticktable.sim.detection import run_detector
    from sticktable.sim.evaluate import fall_turns
    from tablefw.calibrator import make_detector

    regime, seed, physics, cache = job
    meta, samples, truth, _ = played(seed, physics, False, cache)
    boxcar = {}

    def each(sample, det):
        boxcar[sample.t_ms] = det._bn

    told = run_detector(meta, samples, detector=make_detector(meta), each=each)
    rows = []
    for ft in fall_turns(truth, [e for e in told if e["kind"] == "fell"]):
        if ft.told_at is not None:
            part = boxcar_part(boxcar.get(ft.told_at, 4))
            rows.append((ft.told_at - ft.onset, met(truth, ft.onset), part, seed, ft.onset))
    return regime, rows


def allowed_over(turns: int) -> int:
    """How many of `turns` may be over the target with the p95 still on it (the bench's
    percentile: the value at index round(0.95 * (turns - 1)) of the sorted latencies)."""
    return turns - 1 - int(round(0.95 * (turns - 1))) if turns else 0


def line(name: str, latencies: list[int], over: int) -> str:
    """One part's line: turns, p50, p95, turns over `over` ms."""
    from sticktable.sim.evaluate import percentile

    if not latencies:
        return f"  {name:14} {0:6} {'-':>5} {'-':>5} {0:6}"
    late = sum(1 for x in latencies if x > over)
    p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
    return f"  {name:14} {len(latencies):6} {p50:5.0f} {p95:5.0f} {late:6}"


def main(argv=None) -> int:
    sys.path[:0] = [str(HERE), str(ROOT / "host"), str(ROOT / "firmware")]
    from bench_detect import each_game, tuning_jobs, tuning_parser

    parser = tuning_parser(__doc__, 96, "independent")
    parser.add_argument("--over", type=int, default=200, help="the target, ms (200)")
    parser.add_argument("--late", action="store_true", help="list each turn over --over")
    args = parser.parse_args(argv)
    if args.only is None:
        args.only = "independent"
    jobs = tuning_jobs("fell_late", args, SKIP)
    if jobs is None:
        return 2
    found = {job[0]: [] for job in jobs}
    for regime, rows in each_game(one_game, jobs, args.jobs):
        found[regime] += rows
    print(f"fell latency (ms after the first stick left), per turn; 'over' = over {args.over} ms")
    for regime, rows in found.items():
        print(f"{regime}: {'turns':>20} {'p50':>5} {'p95':>5} {'over':>6}")
        print(line("all", [r[0] for r in rows], args.over))
        for name in MET:
            print(line(name, [r[0] for r in rows if r[1] == name], args.over))
        for name in BOXCARS:
            print(line(name, [r[0] for r in rows if r[2] == name], args.over))
        allowed = allowed_over(len(rows))
        print(f"({regime}: the p95 stays within {args.over} ms with at most {allowed} over)")
        if args.late:
            for ms, what, part, seed, onset in sorted(rows, reverse=True):
                if ms > args.over:
                    print(f"- {regime} {seed} at {onset / 1000:.3f} s: {ms} ms, {what}, {part}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
