"""What a truer learned ringing would be worth, in the tuning bench's miss lines, per regime.

    .venv/bin/python tests/bench/ring_worth.py [--games N] [--only REGIMES] [--jobs J]
        [--cache DIR] [--lines]

A tuning instrument (not run by `make bench`): on the tuning seeds it scores each game of the
bench (bench_detect.py, same cache and scoring) four ways:

  as-is         the detector as it is: it learns the ringing from the events
  given         the plate's own ringing (ring_learned.own_ringing) from the first sample, as a
                calibration tap's `ring` gives it; the fits go on refining it
  held          the plate's own ringing from the first sample, never refitted
  held-learned  the ringing as-is had learned by the game's end, from the first sample, never
                refitted

and prints per regime each way's miss lines and how many of as-is's went and how many came.
"given" against "as-is" is what learning the ringing sooner is worth; "held" against
"held-learned" is what the learned ringing's error is worth (firmware/DETECTOR.md, Leads).
--lines lists the lines that went and came. Four detector runs a game: about 12 minutes for
48 games of every regime on two cores."""

from __future__ import annotations

import sys
from contextlib import contextmanager, nullcontext
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
WAYS = ("as-is", "given", "held", "held-learned")


@contextmanager
def held():
    """Within it, no Detector refits its ringing: it keeps the one it was given (`ring`)."""
    import tablefw.detect as detect

    fit = detect.fit
    detect.fit = lambda *args, **kwargs: None  # (Detector.feed's one way to a new fit)
    try:
        yield
    finally:
        detect.fit = fit


def scored(meta, samples, truth, label, ring=None, hold=False, det=None) -> set[str]:
    """The miss lines of one run of the detector; `ring` (samples per cycle, damping ratio)
    from the first sample, `hold`: never refitted; `det`: the Detector to run (to look at it
    afterwards), made from `meta` if None."""
    from sticktable.sim.detection import run_detector
    from sticktable.sim.evaluate import evaluate

    if ring is not None:
        meta = dict(meta, ring=[round(ring[0], 3), round(ring[1], 4)])
    with held() if hold else nullcontext():
        return set(evaluate(truth, run_detector(meta, samples, detector=det), label).misses)


def one_game(job):
    """(regime, seed, {way: its miss lines}); every way is as-is on a plate that does not ring."""
    from bench_detect import played
    from ring_learned import own_ringing

    from tablefw.calibrator import make_detector
    from tablefw.ringfit import describe

    regime, seed, physics, cache = job
    meta, samples, truth, _ = played(seed, physics, False, cache)
    label = f"{regime} game {seed}"
    det = make_detector(meta)
    found = {"as-is": scored(meta, samples, truth, label, det=det)}
    a1, a2 = det.resonance()
    learned = describe(a1, a2) if a2 else None
    own = own_ringing(seed, physics)
    found["given"] = scored(meta, samples, truth, label, own) if own else found["as-is"]
    found["held"] = scored(meta, samples, truth, label, own, True) if own else found["as-is"]
    found["held-learned"] = (
        scored(meta, samples, truth, label, learned, True) if learned else found["as-is"]
    )
    return regime, seed, found


def summary(games: list[dict]) -> str:
    """One regime's line from its games' {way: miss lines}: each way's lines, and for every
    way but as-is how many of as-is's went (-) and how many came (+)."""
    cells = []
    for way in WAYS:
        lines = sum(len(g[way]) for g in games)
        if way == "as-is":
            cells.append(f"{lines:<6}")
            continue
        went = sum(len(g["as-is"] - g[way]) for g in games)
        came = sum(len(g[way] - g["as-is"]) for g in games)
        cells.append(f"{lines:<6}{'-' + str(went):<5}{'+' + str(came):<5}")
    return "  ".join(cells).rstrip()


def main(argv: list[str] | None = None) -> int:
    sys.path[:0] = [str(HERE), str(ROOT / "host"), str(ROOT / "firmware")]
    from bench_detect import each_game, tuning_jobs, tuning_parser

    parser = tuning_parser(__doc__, 48, "every ringing regime")
    parser.add_argument("--lines", action="store_true", help="list the lines that went and came")
    args = parser.parse_args(argv)
    jobs = tuning_jobs("ring_worth", args, ("original", "scenarios"))
    if jobs is None:
        return 2
    found = {job[0]: [] for job in jobs}  # (regime -> each game's {way: lines})
    for regime, _, lines in each_game(one_game, jobs, args.jobs):
        found[regime].append(lines)
    print("tuning miss lines with the ringing as learned, given and held (- went, + came)")
    heads = "  ".join(f"{way:<{6 if i == 0 else 16}}" for i, way in enumerate(WAYS))
    print(f"{'regime':12} {heads.rstrip()}")
    for regime, games in found.items():
        print(f"{regime:12} {summary(games)}")
    total = [g for games in found.values() for g in games]
    print(f"{'all':12} {summary(total)}")
    if args.lines:
        for way in WAYS[1:]:
            print(f"\n{way}:")
            for g in total:
                print("".join(f"  went {x}\n" for x in sorted(g["as-is"] - g[way])), end="")
                print("".join(f"  came {x}\n" for x in sorted(g[way] - g["as-is"])), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
