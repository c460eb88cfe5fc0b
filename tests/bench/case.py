"""One stretch of one bench game: what happened, what the detector told, and what it saw.

    .venv/bin/python tests/bench/case.py [--scenario] REGIME SEED (--at SECONDS | --turn N)
        [--window SECONDS] [--samples] [--probe EXPR ...] [--calls] [--cache DIR] [--reporting]

A tuning instrument (not run by `make bench`) for the miss lines bench_detect.py --misses
prints ("noisy game 1016 turn 7: ...", "... placed missed at 29928"): it plays that game (or
takes it from the bench's --cache), runs the detector over it and prints, in time order, the
truth and the events told within --window of the time asked (or over the turn, from its
button to the next). --samples adds each sample: the plate's total (g), its moments (g x mm)
and the base (mg), from the raw counts and the game's calibration. --probe evaluates a Python
expression on the detector (`det`; the modules detect, settle, lean, onset, pressfall and ringfit
are at hand) after each sample, for example --probe det._ep --probe "settle.swap_asked(det)".
--calls adds, per sample, the detector's functions that sample ran, in the order first called,
less those every sample of the window ran (the plumbing): which path told an event, and
where two versions of the detector part ways.

Tuning seeds (1000 and up) only, unless --reporting: the reporting seeds are for classifying
what the bench reports, never for deciding a change (firmware/DETECTOR.md)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def fail(message: str) -> int:
    print(f"case: {message}", file=sys.stderr)
    return 2


def turn_span(truth: list[dict], turn: int) -> tuple[int, int] | None:
    """(first ms, last ms) of a turn: its button press to the next one (or the game's end)."""
    presses = sorted(e["t_ms"] for e in truth if e["kind"] == "button" and e["turn"] == turn)
    if not presses:
        return None
    later = [e["t_ms"] for e in truth if e["kind"] == "button" and e["t_ms"] > presses[0]]
    later = [t for t in later if t not in presses]
    return presses[0], min(later) if later else 1 << 62


def describe(event: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in event.items() if k != "t_ms")


def plate(meta: dict, sample) -> str:
    """The sample's plate total, moments and base, from its raw counts (offsets: the game's
    zero_counts, as the detector takes them)."""
    if any(c is None for c in sample.cells):
        return "(a cell without a reading)"
    from sticktable.calibration import centre_mm, grams

    reading = list(sample.cells)
    zero = meta.get("zero_counts") or [0] * len(reading)
    total = grams(reading, zero, meta["counts_per_gram"])
    x, y = centre_mm(reading, zero, meta["counts_per_gram"], meta["cell_xy_mm"])
    return (
        f"total {total:8.1f} g  moments {x * total:8.0f} {y * total:8.0f} g.mm  "
        f"base {sample.ax} {sample.ay} {sample.az} mg"
    )


class Calls:
    """The firmware's functions (tablefw) each sample ran, traced from `first` ms to `last`.
    Fed each sample after the detector has (run_detector's `each`): what was called since the
    one before is that sample's."""

    def __init__(self, first: int, last: int):
        self.first, self.last = first, last
        self.pending: list[str] = []
        self.by_sample: dict[int, list[str]] = {}

    def _called(self, frame, event, arg) -> None:
        if event == "call" and "tablefw" in frame.f_code.co_filename:
            self.pending.append(frame.f_code.co_name)

    def after(self, sample) -> None:
        if self.first <= sample.t_ms <= self.last:
            self.by_sample[sample.t_ms] = list(dict.fromkeys(self.pending))
        self.pending = []
        # (traced only near the window: the profiler slows every call down)
        near = self.first - 100 <= sample.t_ms < self.last
        sys.setprofile(self._called if near else None)

    def rows(self) -> list[tuple[int, int, str]]:
        """One row a sample: its calls less those of every sample (the per-sample plumbing)."""
        sys.setprofile(None)
        if not self.by_sample:
            return []
        every = set.intersection(*(set(c) for c in self.by_sample.values()))
        if len(self.by_sample) == 1:
            every = set()  # (one sample: nothing to tell its plumbing by)
        return [
            (t, 4, "calls " + (" ".join(n for n in c if n not in every) or "-"))
            for t, c in self.by_sample.items()
        ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog="See firmware/DETECTOR.md, Working on it."
    )
    parser.add_argument("regime", help="a bench regime (real, noisy, independent, ...)")
    parser.add_argument("seed", type=int, help="the game's seed (tuning seeds: 1000 and up)")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--at", type=float, metavar="SECONDS", help="the time to look around")
    where.add_argument("--turn", type=int, metavar="N", help="the turn to look at")
    parser.add_argument(
        "--window", type=float, default=1.5, metavar="SECONDS", help="either side of --at (1.5)"
    )
    parser.add_argument("--samples", action="store_true", help="print every sample too")
    parser.add_argument(
        "--probe", action="append", default=[], metavar="EXPR", help="print EXPR per sample"
    )
    parser.add_argument(
        "--calls", action="store_true", help="print the detector's functions each sample ran"
    )
    parser.add_argument(
        "--scenario",
        action="store_true",
        help="REGIME names a scenario (a miss line 'fall-at-once/1008 ...': fall-at-once 1008)",
    )
    parser.add_argument("--cache", help="directory of played games (as bench_detect.py)")
    parser.add_argument("--reporting", action="store_true", help="allow a reporting seed")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=LOW,HIGH",
        help="the regime with this physics setting pushed on it (as bench_detect.py --set)",
    )
    args = parser.parse_args(argv)
    sys.path[:0] = [str(HERE), str(ROOT / "host"), str(ROOT / "firmware")]
    from bench_detect import TUNING_SEEDS, physics_setting, played, regimes, regimes_with

    from sticktable.sim.scenarios import SCENARIOS

    # (a scenario by --scenario only: "slow-hands" is a regime and a scenario both)
    known = SCENARIOS if args.scenario else {name for name in regimes() if name != "scenarios"}
    if args.regime not in known:
        what = "scenario" if args.scenario else "regime"
        return fail(f"unknown {what} {args.regime!r} (one of {', '.join(sorted(known))})")
    if args.seed not in TUNING_SEEDS and not (args.reporting and args.seed >= 1):
        return fail(
            f"seed {args.seed} is not a tuning seed ({TUNING_SEEDS.start}-"
            f"{TUNING_SEEDS.stop - 1}); --reporting to look at a reporting seed"
        )
    if args.window <= 0:
        return fail("--window must be above 0")
    try:
        pushed = dict(physics_setting(text) for text in args.set)
    except ValueError as err:
        return fail(str(err))
    if pushed and args.scenario:
        return fail("--set pushes a setting on a regime, not a scenario")
    probes = []
    for expr in args.probe:
        try:
            probes.append((expr, compile(expr, "--probe", "eval")))
        except SyntaxError as e:
            return fail(f"--probe {expr!r}: {e.msg}")

    from sticktable.sim.detection import run_detector
    from tablefw import detect, lean, onset, pressfall, ringfit, settle

    if args.scenario:  # (as bench_detect.py plays them: not cached, a few seconds)
        from sticktable.sim.scenarios import scenario

        played_scenario = scenario(args.regime, seed=args.seed)
        meta, samples, truth = played_scenario.meta, played_scenario.samples, played_scenario.truth
    else:
        physics = regimes_with(pushed)[args.regime][1]
        meta, samples, truth, _ = played(args.seed, physics, False, args.cache)
    if args.turn is not None:
        span = turn_span(truth, args.turn)
        if span is None:
            return fail(f"game {args.seed} has no turn {args.turn}")
    else:
        at = round(args.at * 1000)
        span = (at - round(args.window * 1000), at + round(args.window * 1000))
    first, last = span
    rows: list[tuple[int, int, str]] = []  # (ms, order within that ms, line)
    scope = {
        "detect": detect,
        "lean": lean,
        "onset": onset,
        "pressfall": pressfall,
        "ringfit": ringfit,
        "settle": settle,
    }

    calls = Calls(first, last) if args.calls else None

    def look(sample, det) -> None:
        if calls is not None:
            calls.after(sample)
        if not first <= sample.t_ms <= last:
            return
        if args.samples:
            rows.append((sample.t_ms, 2, f"sample {plate(meta, sample)}"))
        if probes:
            scope["det"] = det
            said = []
            for expr, code in probes:
                try:  # (eval: the developer's own expression, on their own machine)
                    said.append(f"{expr}={eval(code, scope)}")
                except Exception as e:  # (one probe failing says so and the rest go on)
                    said.append(f"{expr}=!{type(e).__name__}")
            rows.append((sample.t_ms, 3, "probe " + " ".join(said)))

    watched = args.samples or probes or calls is not None
    told = run_detector(meta, samples, each=look if watched else None)
    if calls is not None:
        rows += calls.rows()
    rows += [(e["t_ms"], 0, f"TRUTH  {describe(e)}") for e in truth if first <= e["t_ms"] <= last]
    rows += [(e["t_ms"], 1, f"told   {describe(e)}") for e in told if first <= e["t_ms"] <= last]
    end = min(last, samples[-1].t_ms)
    print(f"{args.regime} game {args.seed}, {first / 1000:.3f}-{end / 1000:.3f} s")
    try:
        for t, _, line in sorted(rows, key=lambda r: (r[0], r[1])):
            print(f"{t / 1000:9.3f}  {line}")
    except BrokenPipeError:  # (piped into head: it has what it wanted)
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the interpreter's final flush
    return 0


if __name__ == "__main__":
    sys.exit(main())
