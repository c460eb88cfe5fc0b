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


@dataclass
class FallTurn:
    """One scored play turn, from its button press to the next: the sticks that fell in it
    (`fell`, the first leaving at `onset`) and the falls told in it (`told`)."""

    turn: int
    fell: int
    onset: int | None
    told: list[dict]

    @property
    def told_at(self) -> int | None:
        """When the first fall was told that may be this turn's (from 50 ms before the first
        stick left on), or None: what the fell latency is measured to."""
        if self.onset is None:
            return None
        after = [e["t_ms"] for e in self.told if e["t_ms"] >= self.onset - 50]
        return min(after) if after else None


def fall_turns(truth: list[dict], told: list[dict]) -> list[FallTurn]:
    """Every turn the fallen count is scored on, with `told` (the detector's fell events) split
    among them. Turns that end in a topple are left out (the rules send that turn's sticks back
    to the bag), as are presses that close a round and start no turn."""
    play = [e for e in truth if e.get("phase", "play") == "play"]
    starts = sorted(
        (e["t_ms"], e["turn"], e.get("phase", "play")) for e in truth if e["kind"] == "button"
    )
    toppled = {e["turn"] for e in play if e["kind"] == "topple"}
    turns = []
    for index, (start, turn, phase) in enumerate(starts):
        if turn in toppled or phase != "play":
            continue
        end = starts[index + 1][0] if index + 1 < len(starts) else 1 << 62
        bursts = [e for e in play if e["kind"] == "fell" and e["turn"] == turn]
        onset = min(e["onset_ms"] for e in bursts) if bursts else None
        mine = [e for e in told if start <= e["t_ms"] < end]
        turns.append(FallTurn(turn, sum(e["count"] for e in bursts), onset, mine))
    return turns


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

    # Falls, per turn (fall_turns): a fall reported where none fell is a wrong turn too (the
    # issue's "exact per turn" over every turn).
    for ft in fall_turns(truth, every_fall):
        got = sum(e["count"] for e in ft.told)
        tally.turns_scored += 1
        tally.turns_exact += got == ft.fell
        if ft.fell == 0:
            if got:
                tally.phantom_fall_turns += 1
                tally.misses += [f"{label} turn {ft.turn}: fell {got} reported, none fell"]
                tally.miss_times.append(ft.told[0]["t_ms"])
            continue
        tally.turns_with_falls += 1
        bucket = tally.buckets[_bucket(ft.fell)]
        bucket[0] += 1
        if got == ft.fell:
            tally.fall_turns_exact += 1
            bucket[1] += 1
        else:
            tally.misses += [f"{label} turn {ft.turn}: fell {ft.fell}, reported {got}"]
            tally.miss_times.append(ft.onset)
        if ft.told_at is not None:
            tally.latency["fell"].append(ft.told_at - ft.onset)
    return tally


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1)))))
    return ordered[k]
