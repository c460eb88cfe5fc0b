"""How close the ringing the detector learns comes to the plate's own, per regime.

    .venv/bin/python tests/bench/ring_learned.py [--games N] [--only REGIMES] [--jobs J]
        [--cache DIR] [--each] [--fits]

A tuning instrument (not run by `make bench`): on the tuning seeds (1000..1000+N-1) it plays
the bench's games (bench_detect.py, same cache), runs the detector over each and compares the
ringing it has learned by the game's end (ringfit.describe: samples per cycle and damping
ratio) with the virtual plate's own (plate_ringing: the simulator's plate rung by a step,
sampled at the board's true rate). Per regime it prints the mean error of the period and of the
damping (a bias) and their mean size, and when the ringing was first in use (the median and the
latest game, in s: before it the detector reads the plate's ringing raw); --each prints every
game; --fits the plain fits made about the level, by their weight (the window's energy over
what the fit leaves unexplained, x16), with their mean error in Q8 steps (what a fit cannot
explain pulls a weak one's a1 low and its a2 up). By the inverse filter's arithmetic a period
1 % off leaves about 0.5 g of a 20 g ringing in the nulled total, against a band of about a
gram: what the filter leaves of a brisk release's or a knock's ringing holds a level back
(firmware/DETECTOR.md, Leads)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


BANDS = (128, 512, 2048, 8192)  # (the fits' weight bands --fits prints: 128-511, ...)


def one_game(job):
    """(regime, seed, true (samples per cycle, zeta), learned one or None, the time in s it was
    first in use or None, fits); true is None on a plate that does not ring. fits: per weight
    band (BANDS), [count, summed a1 error, summed a2 error] (Q8 steps) of the plain fits made
    with the plate swinging about its level (ringfit._solve's, kept or not)."""
    from bench_detect import played

    import tablefw.ringfit as ringfit
    from sticktable.sim.detection import run_detector
    from tablefw.calibrator import make_detector

    regime, seed, physics, cache = job
    true = own_ringing(seed, physics)
    if true is None:
        return regime, seed, None, None, None, None
    t1, t2 = ringfit.coefficients(*true)
    fits = [[0, 0.0, 0.0] for _ in BANDS]
    meta, samples, _, _ = played(seed, physics, False, cache)
    det = make_detector(meta)
    first = []
    solve = ringfit._solve

    def noted(det, di, smooth):
        w = solve(det, di, smooth)
        if w and not smooth and ringfit._free(det) == 1:
            band = fits[sum(1 for edge in BANDS[1:] if w >= edge)]
            band[0] += 1
            band[1] += det._fa1 - t1
            band[2] += det._fa2 - t2
        return w

    def in_use(sample, det):
        if not first and det.resonance()[1]:
            first.append(sample.t_ms / 1000)

    ringfit._solve = noted  # (fit's one way to a solved window)
    try:
        run_detector(meta, samples, detector=det, each=in_use)
    finally:
        ringfit._solve = solve
    a1, a2 = det.resonance()
    learned = ringfit.describe(a1, a2) if a2 else None
    return regime, seed, true, learned, first[0] if first else None, fits


def own_ringing(seed: int, physics) -> tuple[float, float] | None:
    """plate_ringing of the plate a bench game (`seed`, `physics`) is played on, or None if
    it does not ring."""
    from bench_detect import bench_game

    tower = bench_game(seed, physics).tower
    return plate_ringing(tower.physics, tower.board.rate_hz) if tower.physics.ring_hz else None


def plate_ringing(physics, rate_hz: float) -> tuple[float, float]:
    """(samples per cycle, damping ratio) of the virtual plate as its samples show it: the
    ringing of a noise-free step through the simulator's own plate (sim/physics.Plate: its
    integration and the HX711's averaging), sampled at the board's true rate and fitted by
    least squares. (Its ring_hz and ring_zeta, taken as they are, put the period 0.1-0.2 %
    off what the samples hold.)"""
    import numpy as np

    from sticktable.sim.physics import Plate
    from tablefw.ringfit import describe

    plate = Plate(physics, 1)
    period_ms = 1000.0 / rate_hz
    plate.read(0.0, [0.0])
    y = np.array([plate.read(k * period_ms, [100.0])[0] for k in range(1, 300)])[2:] - 100.0
    a, *_ = np.linalg.lstsq(np.c_[y[1:-1], y[:-2]], y[2:], rcond=None)
    return describe(a[0] * 256, a[1] * 256)


def errors(true, learned) -> tuple[float, float]:
    """(period error, damping error), each in % of the true value."""
    return 100 * (learned[0] / true[0] - 1), 100 * (learned[1] / true[1] - 1)


def summary(rows: list[tuple]) -> str:
    """One regime's line from its (seed, true, learned, first in use) rows: games, how many
    learned none, the period's and the damping's mean error (bias) and mean size of error, and
    when the ringing was first in use (median and latest, s into the game)."""
    found = [errors(t, learned) for _, t, learned, _ in rows if t and learned]
    none = sum(1 for _, t, learned, _ in rows if t and not learned)
    if not found:
        return f"{len(rows):5} {none:5}" + "         -" * 6
    n = len(found)
    period = [p for p, _ in found]
    damping = [z for _, z in found]
    times = sorted(first for _, t, _, first in rows if t and first is not None)
    return (
        f"{len(rows):5} {none:5} {sum(period) / n:+9.2f} {sum(map(abs, period)) / n:9.2f}"
        f" {sum(damping) / n:+9.1f} {sum(map(abs, damping)) / n:9.1f}"
        f" {times[len(times) // 2]:9.1f} {times[-1]:9.1f}"
    )


def fit_bands(games: list) -> list[str]:
    """A regime's lines for --fits from its games' fits (one_game): per weight band, the plain
    fits about the level, and their mean a1 and a2 error in Q8 steps."""
    lines = []
    for i, low in enumerate(BANDS):
        n = sum(g[i][0] for g in games)
        band = f"{low}-{BANDS[i + 1] - 1}" if i + 1 < len(BANDS) else f"{low}+"
        if n:
            a1 = sum(g[i][1] for g in games) / n
            a2 = sum(g[i][2] for g in games) / n
            lines.append(f"  weight {band:10} {n:6} fits   a1 {a1:+6.2f}   a2 {a2:+6.2f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    sys.path[:0] = [str(HERE), str(ROOT / "host"), str(ROOT / "firmware")]
    from bench_detect import each_game, tuning_jobs, tuning_parser

    parser = tuning_parser(__doc__, 24, "every ringing regime")
    parser.add_argument("--each", action="store_true", help="print every game too")
    parser.add_argument(
        "--fits", action="store_true", help="each regime's plain fits' error by weight band"
    )
    args = parser.parse_args(argv)
    jobs = tuning_jobs("ring_learned", args, ("original", "scenarios"))
    if jobs is None:
        return 2
    found = {job[0]: [] for job in jobs}  # (regime -> its rows, in the order asked)
    bands = {job[0]: [] for job in jobs}  # (regime -> its games' fits)
    for regime, seed, true, learned, first, fits in each_game(one_game, jobs, args.jobs):
        found[regime].append((seed, true, learned, first))
        bands[regime] += [fits] if fits else []
    print(
        "learned ringing at each game's end against the plate's (errors in % of the true),"
        " and s into the game it was first in use"
    )
    heads = ("games", "none", "period", "|period|", "damping", "|damping|", "in use", "latest")
    print(f"{'regime':12} " + " ".join(f"{h:>{5 if i < 2 else 9}}" for i, h in enumerate(heads)))
    for regime in found:
        print(f"{regime:12} {summary(found[regime])}")
        if args.fits:
            print("\n".join(fit_bands(bands[regime])))
        if args.each:
            for seed, true, learned, first in found[regime]:
                if true and learned:
                    p, z = errors(true, learned)
                    print(
                        f"  {seed}: true {true[0]:.3f} samples/cycle, zeta {true[1]:.4f};"
                        f" learned {learned[0]:.3f}, {learned[1]:.4f} ({p:+.1f} %, {z:+.1f} %),"
                        f" in use from {first:.1f} s"
                    )
                elif true:
                    print(f"  {seed}: true {true[0]:.3f}, {true[1]:.4f}; none learned")
    return 0


if __name__ == "__main__":
    sys.exit(main())
