"""Why the detector missed: each miss of `evaluate` put in a bucket by what the virtual tower
was doing around it (bench_detect.py --causes), so the biggest cause is fixed first."""

from __future__ import annotations

import re
from collections import Counter


def causes(truth: list[dict], misses: list[str]) -> Counter:
    """Counts of misses by cause (touch misses are left to the touch figures)."""

    def near(kind, a, b):
        return [e for e in truth if e["kind"] == kind and a <= e["t_ms"] <= b]

    late = _late_placements(misses)
    out: Counter = Counter()
    for miss in misses:
        if m := re.search(r"placed missed at (\d+)", miss):
            t = int(m.group(1))
            why = _why_missed(t, near)
            out[f"placed late (> 1 s): {why}" if t in late else f"placed missed: {why}"] += 1
        elif m := re.search(r"placed extra at (\d+)", miss):
            t = int(m.group(1))
            if t in late.values():
                out["extra placed: a placement reported late (> 1 s)"] += 1
            elif near("knock", t - 1500, t):
                out["extra placed: after a knock"] += 1
            elif near("lean", t - 2500, t):
                out["extra placed: table leant on"] += 1
            elif near("fell", t - 1500, t + 200):
                out["extra placed: near a fall"] += 1
            elif near("touch", t - 1500, t + 500):
                out["extra placed: at a touch"] += 1
            else:
                out["extra placed: other"] += 1
        elif m := re.search(r"turn (\d+): fell (\d+), reported (\d+)", miss):
            turn, want, got = map(int, m.groups())
            out[_wrong_count(truth, turn, want, got, near)] += 1
        elif "none fell" in miss:
            out["fall reported, none fell"] += 1
        elif "topple" in miss:
            out[miss.split(" ", 1)[1].split(" at ")[0]] += 1
    return out


def _late_placements(misses: list[str]) -> dict[int, int]:
    """Missed placements reported after the matching window: truth time -> the extra
    placement 1-3 s after it (each paired once, in time order)."""
    missed = sorted(
        int(m.group(1)) for x in misses if (m := re.search(r"placed missed at (\d+)", x))
    )
    extra = sorted(int(m.group(1)) for x in misses if (m := re.search(r"placed extra at (\d+)", x)))
    late = {}
    for t in missed:
        f = next((f for f in extra if 1000 < f - t <= 3000), None)
        if f is not None:
            late[t] = f
            extra.remove(f)
    return late


def _why_missed(t, near) -> str:
    """Why the placement at `t` was missed (or reported late)."""
    placed = near("placed", t, t)[0]
    onset = placed["onset_ms"]
    if near("fell", onset, t):
        return "a stick fell during the press"
    if near("fell", t, t + 700):
        return "it fell soon after"
    if near("knock", onset - 300, t + 300):
        return "a knock"
    if t - onset > 900:
        return "slow hand (> 0.9 s)"
    return "other"


def _wrong_count(truth, turn, want, got, near) -> str:
    falls = [e for e in truth if e["kind"] == "fell" and e["turn"] == turn]
    placed = [e for e in truth if e["kind"] == "placed" and e.get("turn") == turn]
    sign = "too few" if got < want else "too many"
    first = falls[0]["t_ms"]
    if placed and any(placed[0]["onset_ms"] <= f["t_ms"] <= placed[0]["t_ms"] for f in falls):
        why = "fell during the press"
    elif placed and any(placed[0]["t_ms"] <= f["t_ms"] <= placed[0]["t_ms"] + 400 for f in falls):
        why = "fell just after the release"
    elif near("knock", first - 300, first + 50):
        why = "knocked off"
    else:
        why = "a burst of " + ("1" if want == 1 else "2-5" if want <= 5 else "6+")
    return f"fell count {sign}: {why}"
