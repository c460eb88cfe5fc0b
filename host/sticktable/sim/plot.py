"""A picture of a sensor trace: total grams, centre of pressure and tilt over time, with the
detector's events and, for a labelled trace, the truth (`sticktable detect --plot`, the bench).

matplotlib is imported here only, so commands that draw nothing stay quick to start.
"""

from __future__ import annotations

import math
from pathlib import Path

from sticktable.sim.tower import Sample

COLOURS = {"placed": "tab:green", "fell": "tab:red", "topple": "tab:purple", "touch": "tab:orange"}


def series(meta: dict, samples: list[Sample]) -> dict:
    """Seconds, total grams, centre of pressure (mm) and tilt (degrees) per sample.

    Grams are absolute with `zero_counts`, else relative to the trace's first reading; tilt is
    measured against the mean accelerometer vector of the first second."""
    n = int(meta["cells"])
    cpg = meta["counts_per_gram"]
    xy = meta["cell_xy_mm"]
    zero = meta.get("zero_counts")
    last = [None] * n
    for s in samples:  # the first reading of each cell, for traces without zero_counts
        for i, v in enumerate(s.cells):
            if last[i] is None and v is not None:
                last[i] = v
    base = list(zero) if zero else [v or 0 for v in last]
    first = [s for s in samples if s.t_ms - samples[0].t_ms < 1000] if samples else []
    ref = [sum(getattr(s, k) or 0 for s in first) / max(1, len(first)) for k in ("ax", "ay", "az")]
    ref_norm = math.sqrt(sum(v * v for v in ref)) or 1.0
    out = {"t": [], "grams": [], "cop_x": [], "cop_y": [], "tilt": []}
    recent = [[v or 0] * 3 for v in last]  # median of three: the HX711's wild values go
    for s in samples:
        grams = []
        for i in range(n):
            if s.cells[i] is not None and -8388608 < s.cells[i] < 8388607:
                recent[i] = recent[i][1:] + [s.cells[i]]
            grams.append((sorted(recent[i])[1] - base[i]) / cpg[i])
        total = sum(grams)
        out["t"].append(s.t_ms / 1000.0)
        out["grams"].append(total)
        if abs(total) > 5:
            out["cop_x"].append(sum(g * p[0] for g, p in zip(grams, xy, strict=True)) / total)
            out["cop_y"].append(sum(g * p[1] for g, p in zip(grams, xy, strict=True)) / total)
        else:
            out["cop_x"].append(math.nan)
            out["cop_y"].append(math.nan)
        a = (s.ax or 0, s.ay or 0, s.az or 0)
        norm = math.sqrt(sum(v * v for v in a)) or 1.0
        cos = sum(u * v for u, v in zip(a, ref, strict=True)) / (norm * ref_norm)
        out["tilt"].append(math.degrees(math.acos(max(-1.0, min(1.0, cos)))))
    return out


def _mark(axes, where, event, colour, prefix, style, y) -> None:
    """A vertical line through every panel at the event, labelled on one of them."""
    t = event["t_ms"] / 1000.0
    for ax in axes:
        ax.axvline(t, color=colour, **style)
    label = prefix + event["kind"] + (f" {event['count']}" if "count" in event else "")
    where.annotate(
        label,
        (t, y),
        xycoords=("data", "axes fraction"),
        rotation=90,
        fontsize=7,
        color=colour,
        va="top" if y else "bottom",
    )


def plot_trace(
    meta: dict,
    samples: list[Sample],
    events: list[dict],
    out: Path | str,
    truth: list[dict] | None = None,
    title: str = "",
    window: tuple[float, float] | None = None,
) -> Path:
    """Draw the trace into `out` (.png or .svg, by its suffix); `window` (seconds) zooms in."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = series(meta, samples)
    fig, axes = plt.subplots(3, 1, sharex=True, figsize=(12, 7.5))
    top, mid, low = axes
    top.plot(data["t"], data["grams"], lw=0.7, color="black")
    top.set_ylabel("total (g)" + ("" if meta.get("zero_counts") else ", relative"))
    mid.plot(data["t"], data["cop_x"], lw=0.7, label="x")
    mid.plot(data["t"], data["cop_y"], lw=0.7, label="y")
    mid.set_ylabel("centre of pressure (mm)")
    mid.legend(loc="upper right", fontsize=8)
    low.plot(data["t"], data["tilt"], lw=0.7, color="tab:blue")
    low.set_ylabel("tilt (deg)")
    low.set_xlabel("time (s)")
    for e in events:
        _mark(axes, top, e, COLOURS.get(e["kind"], "grey"), "", dict(lw=0.8, alpha=0.8), 1.0)
    for e in truth or []:
        if e["kind"] in COLOURS and e.get("phase", "play") == "play":
            style = dict(lw=1.2, ls=":", alpha=0.9)
            _mark(axes, low, e, COLOURS[e["kind"]], "truth ", style, 0.0)
    if window:
        low.set_xlim(*window)
        for ax, key in ((top, "grams"), (mid, "cop_x"), (low, "tilt")):
            inside = [
                v
                for t, v in zip(data["t"], data[key], strict=True)
                if window[0] <= t <= window[1] and not math.isnan(v)
            ]
            if key == "cop_x":
                inside += [
                    v
                    for t, v in zip(data["t"], data["cop_y"], strict=True)
                    if window[0] <= t <= window[1] and not math.isnan(v)
                ]
            if inside:
                lo, hi = min(inside), max(inside)
                pad = 0.1 * (hi - lo) + 0.5
                ax.set_ylim(lo - pad, hi + pad)
    fig.suptitle(title or "sensor trace: solid lines detected, dotted lines truth", fontsize=10)
    fig.subplots_adjust(left=0.08, right=0.98, top=0.93, bottom=0.07, hspace=0.12)
    path = Path(out)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
