"""Score detector events against a labelled trace's truth (benchmarks and tests).

Truth events come from the virtual tower: placed (t = the hand's release), fell (t = the first
stick leaving, with the burst's count and turn), topple (t = the tower passing 5 degrees),
touch (t = the hand letting go), button (t = press, starts a turn), clear (a window between
rounds when the tower is rebuilt or cleared: detector events inside it are ignored).
"""

from __future__ import annotations

from dataclasses import dataclass, field

PLACED_WINDOW = (-1500, 1000)  # detection time minus truth time (ms) that still matches
TOPPLE_WINDOW = (-300, 1000)
TOUCH_WINDOW = (-400, 800)


@dataclass
class Tally:
    placed_truth: int = 0
    placed_found: int = 0
    placed_reported: int = 0
    turns_scored: int = 0  # every play turn not ended by a topple, with or without falls
    turns_exact: int = 0  # of those, turns whose reported fallen count is the true one (0 too)
    turns_with_falls: int = 0
    fall_turns_exact: int = 0
    buckets: dict = field(default_factory=lambda: {"1": [0, 0], "2-5": [0, 0], "6+": [0, 0]})
    phantom_fall_turns: int = 0
    topples_truth: int = 0
    topples_found: int = 0
    false_topples: int = 0
    touches_truth: int = 0
    touches_found: int = 0
    false_touches: int = 0
    latency: dict = field(default_factory=lambda: {"placed": [], "fell": [], "topple": []})
    misses: list = field(default_factory=list)
    miss_times: list = field(default_factory=list)  # trace time (ms) of each miss, for plots

    def add(self, other: Tally) -> None:
        for name in vars(self):
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, int):
                setattr(self, name, mine + theirs)
            elif isinstance(mine, list):
                mine.extend(theirs)
            elif name == "buckets":
                for key, (n, ok) in theirs.items():
                    mine[key][0] += n
                    mine[key][1] += ok
            else:
                for key, values in theirs.items():
                    mine[key].extend(values)


def _bucket(count: int) -> str:
    return "1" if count == 1 else ("2-5" if count <= 5 else "6+")


def match_times(truth_times, found_times, window):
    """Greedy one-to-one matching in time order: ([(truth_t, found_t | None)], the found
    times matched to nothing)."""
    free = sorted(found_times)
    pairs = []
    for t in sorted(truth_times):
        hit = None
        for f in free:
            if window[0] <= f - t <= window[1]:
                hit = f
                break
        if hit is not None:
            free.remove(hit)
        pairs.append((t, hit))
    return pairs, free


def evaluate(truth: list[dict], found: list[dict], label: str = "") -> Tally:
    tally = Tally()
    clears = [(e["t_ms"], e["end_ms"]) for e in truth if e["kind"] == "clear"]

    def in_clear(t):
        return any(a <= t <= b for a, b in clears)

    play = [e for e in truth if e.get("phase", "play") == "play"]
    every_fall = [e for e in found if e["kind"] == "fell"]  # a turn's tail may reach a clear
    found = [e for e in found if not in_clear(e["t_ms"])]

    def times(events, kind):
        return [e["t_ms"] for e in events if e["kind"] == kind]

    # Placed: one detection per stick let go.
    pairs, extra = match_times(times(play, "placed"), times(found, "placed"), PLACED_WINDOW)
    tally.placed_truth = len(pairs)
    tally.placed_found = sum(1 for _, f in pairs if f is not None)
    tally.placed_reported = len(times(found, "placed"))
    tally.latency["placed"] = [f - t for t, f in pairs if f is not None]
    tally.misses += [f"{label} placed missed at {t}" for t, f in pairs if f is None]
    tally.misses += [f"{label} placed extra at {f}" for f in extra]
    tally.miss_times += [t for t, f in pairs if f is None] + extra

    # Topples.
    pairs, extra = match_times(times(play, "topple"), times(found, "topple"), TOPPLE_WINDOW)
    tally.topples_truth = len(pairs)
    tally.topples_found = sum(1 for _, f in pairs if f is not None)
    tally.false_topples = len(extra)
    tally.latency["topple"] = [f - t for t, f in pairs if f is not None]
    tally.misses += [f"{label} topple missed at {t}" for t, f in pairs if f is None]
    tally.misses += [f"{label} false topple at {f}" for f in extra]
    tally.miss_times += [t for t, f in pairs if f is None] + extra

    # Touches.
    pairs, extra = match_times(times(play, "touch"), times(found, "touch"), TOUCH_WINDOW)
    tally.touches_truth = len(pairs)
    tally.touches_found = sum(1 for _, f in pairs if f is not None)
    tally.false_touches = len(extra)
    tally.misses += [f"{label} touch missed at {t}" for t, f in pairs if f is None]
    tally.misses += [f"{label} touch extra at {f}" for f in extra]
    tally.miss_times += [t for t, f in pairs if f is None] + extra

    # Falls, per turn: a turn runs from its button press to the next one; turns that end in a
    # topple are left out (the rules send that turn's sticks back to the bag). A turn's count is
    # exact when the sticks reported equal the sticks that fell, none included, so a fall
    # reported where none fell is a wrong turn (the "exact per turn" over every turn).
    starts = sorted(
        (e["t_ms"], e["turn"], e.get("phase", "play")) for e in truth if e["kind"] == "button"
    )
    toppled = {e["turn"] for e in play if e["kind"] == "topple"}
    for index, (start, turn, phase) in enumerate(starts):
        if turn in toppled or phase != "play":
            continue  # a topple's turn, or a press that closes a round and starts no turn
        end = starts[index + 1][0] if index + 1 < len(starts) else 1 << 62
        bursts = [e for e in play if e["kind"] == "fell" and e["turn"] == turn]
        want = sum(e["count"] for e in bursts)
        got_events = [e for e in every_fall if start <= e["t_ms"] < end]
        got = sum(e["count"] for e in got_events)
        tally.turns_scored += 1
        tally.turns_exact += got == want
        if want == 0:
            if got:
                tally.phantom_fall_turns += 1
                tally.misses += [f"{label} turn {turn}: fell {got} reported, none fell"]
                tally.miss_times.append(got_events[0]["t_ms"])
            continue
        tally.turns_with_falls += 1
        bucket = tally.buckets[_bucket(want)]
        bucket[0] += 1
        if got == want:
            tally.fall_turns_exact += 1
            bucket[1] += 1
        else:
            tally.misses += [f"{label} turn {turn}: fell {want}, reported {got}"]
            tally.miss_times.append(min(e["onset_ms"] for e in bursts))
        onset = min(e["onset_ms"] for e in bursts)
        after = [e["t_ms"] for e in got_events if e["t_ms"] >= onset - 50]
        if after:
            tally.latency["fell"].append(min(after) - onset)
    return tally


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1)))))
    return ordered[k]
