"""What a touch leaves in the moments, against what settle.swapped asks of a stick swapped.

    .venv/bin/python tests/bench/swap_shift.py [--games N] [--only REGIMES] [--jobs J]
        [--cache DIR]

A tuning instrument (not run by `make bench`): on the tuning seeds (1000..1000+N-1) it plays
the bench's games (bench_detect.py, same cache) and, each time the detector asks whether a
press that ended at its old level swapped a stick (settle.swap_asked, past its guards), logs
how far the moments stand moved (settle.moments_shift) and the shift asked for, both as a
stick x mm. The truth then says what the press was: a touch (a touch ended within 0.5 s
before, no placement nor fall), or a swap (a placement within 0.5 s and a fall within 1.5 s
before). Per regime it prints how far touches moved the moments (largest, 99th percentile)
and how many swapped told as a swap (wrong), and each swap with its shift and whether it was
told. The shift asked for (_UNSEEN_MM and _NOISE_X in settle.py) was set from these. Those
are the asks of the stable window that ends the episode; a touch told through the ringing
asks too, every sample, and waits for that window while the answer is yes: the touches that
waited so are counted apart."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SKIP = ("original", "scenarios")  # no ringing or no presses to speak of; not a game regime


def one_game(job):
    """(regime, seed, [(t_ms, shift, asked, told, kind, waited)]) for one tuning game: told,
    swapped said yes; kind is "touch", "swap" or "" (a press the truth says neither of);
    waited: asked by a touch through the ringing (Detector._touch_through_ring), not by the
    stable window: the episode's start (ms), else 0."""
    from bench_detect import played

    from sticktable.sim.detection import run_detector
    from tablefw import settle
    from tablefw.detect import Detector

    regime, seed, physics, cache = job
    asked_at = []  # (t_ms, shift, asked, told, waited: 0 or the episode's start)
    pending = []  # asked during the sample being fed, its time not known yet
    asked_by = settle.swap_asked
    through_ring = Detector._touch_through_ring
    in_ring = []  # non-empty while a touch through the ringing asks

    def logged(det):
        far = asked_by(det)
        if far:
            shift = settle.moments_shift(det)
            told = settle.shift_tells(det, shift, far)
            waited = det._ep_t if in_ring else 0
            pending.append((shift * 100 / det._stick, far / det._stick, told, waited))
        return far

    def ring_asks(det, t, level):
        in_ring.append(True)
        try:
            return through_ring(det, t, level)
        finally:
            in_ring.clear()

    def stamp(sample, det):
        asked_at.extend((sample.t_ms, *row) for row in pending)
        pending.clear()

    settle.swap_asked = logged
    Detector._touch_through_ring = ring_asks
    try:
        meta, samples, truth, _ = played(seed, physics, False, cache)
        run_detector(meta, samples, each=stamp)
    finally:
        settle.swap_asked = asked_by
        Detector._touch_through_ring = through_ring
    rows = []
    for t, shift, far, told, waited in asked_at:
        before = [(e["kind"], t - e["t_ms"]) for e in truth if 0 <= t - e["t_ms"] <= 1500]
        touch = any(k == "touch" and dt <= 500 for k, dt in before)
        placed = any(k == "placed" and dt <= 500 for k, dt in before)
        fell = any(k == "fell" for k, _ in before)
        kind = "swap" if placed and fell else "touch" if touch and not placed and not fell else ""
        rows.append((t, shift, far, told, kind, waited))
    return regime, seed, rows


def main() -> int:
    sys.path[:0] = [str(HERE), str(ROOT / "host"), str(ROOT / "firmware")]
    from bench_detect import each_game, tuning_jobs, tuning_parser

    parser = tuning_parser(__doc__, 48, "every game regime")
    args = parser.parse_args()
    jobs = tuning_jobs("swap_shift", args, SKIP)
    if jobs is None:
        return 2
    found = {job[0]: [] for job in jobs}  # (regime -> its rows, in the order asked)
    for regime, seed, rows in each_game(one_game, jobs, args.jobs):
        found[regime] += [(seed, *row) for row in rows]
    print("shifts as a stick x mm; asked = what settle.swapped asked of that press")
    print(
        f"{'regime':12} {'touches':>7} {'largest':>7} {'p99':>5} {'told as swaps':>13}"
        f" {'waited':>6}"
    )
    for regime in found:
        ended = [r for r in found[regime] if not r[6]]
        touches = sorted(r[2] for r in ended if r[5] == "touch")
        over = sum(1 for r in ended if r[5] == "touch" and r[4])
        # (touches whose through-the-ringing telling waited at least one sample)
        waited = len({(r[0], r[6]) for r in found[regime] if r[6] and r[4] and r[5] == "touch"})
        top = (
            f"{touches[-1]:7.1f} {touches[len(touches) * 99 // 100]:5.1f}"
            if touches
            else "     -     -"
        )
        print(f"{regime:12} {len(touches):7} {top} {over:13} {waited:6}")
    print("swaps (regime seed t_ms: shift / asked, told):")
    for regime in found:
        for seed, t, shift, far, told, kind, waited in found[regime]:
            if kind == "swap" and not waited:
                said = "told" if told else "missed"
                print(f"  {regime} {seed} {t}: {shift:.1f} / {far:.1f} {said}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
