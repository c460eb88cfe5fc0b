"""The board's raw samples at a running table: the live load and tilt, and the recent samples
around each sensed event, journaled so history can plot them.

While asked to (`sticktable run --web`), the table has the board stream its raw samples (`stream
on`, PROTOCOL.md section 5; unsequenced, the board drops them rather than fall behind) and
its calibration (`calq` -> `cal`). `SampleTap` sees every board message in the table's loop
before the rules do; per sample it only converts and appends to a bounded ring, so sensing and
journaling never wait on it:
- `Sensors` updates for the outputs (the room's load and tilt meter), at most RATE_HZ a
  second of wall time (the outputs' queues never fill with them);
- for each sensed event (placed, fell, topple, touch), the samples from PRE_MS before to
  POST_MS after the board's time of it, journaled as one `traces` row once the window is
  complete (host/docs/formats/event-traces.md).
"""

from __future__ import annotations

import collections
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from tablefw.compat import ticks_diff

SENSED = ("placed", "fell", "topple", "touch")
PRE_MS, POST_MS = 1500, 1000
RATE_HZ = 10  # live updates per second at most (a browser needs no more to show a meter)
# One journaled sample: board ms from the event, then the derived values, then each cell.
COLUMNS = ("dt_ms", "load_g", "cop_x_mm", "cop_y_mm", "tilt_x_deg", "tilt_y_deg")
RING = 400  # samples kept (5 s at 80 Hz): more than PRE_MS at any real rate


@dataclass(frozen=True)
class Sensors:
    """The tower now, for the outputs: total load, where it presses, how the base tilts."""

    t: int  # board ms
    load_g: float | None  # None: the board's calibration is not known (yet)
    cells_g: tuple[float | None, ...]
    cop_mm: tuple[float, float] | None
    tilt_deg: tuple[float, float]  # about the x and y axes, from the accelerometer
    uncalibrated: bool = False


def tilt(accel: list[int]) -> tuple[float, float]:
    """The base's tilt in degrees, x and y, from the accelerometer's milli-g (z up)."""
    ax, ay, az = accel
    return (
        round(math.degrees(math.atan2(ax, math.hypot(ay, az) or 1e-9)), 2),
        round(math.degrees(math.atan2(ay, math.hypot(ax, az) or 1e-9)), 2),
    )


class Calibration:
    """Counts to grams and the centre of pressure, from the board's `cal` report. Without one
    (an old firmware) the first sample is the zero and counts stay counts."""

    def __init__(self):
        self.counts_per_gram: list[float] | None = None
        self.zero: list[int] | None = None
        self.cell_xy_mm: list[list[float]] | None = None

    def learn(self, cal: dict) -> None:
        counts, zero, xy = cal.get("counts_per_gram"), cal.get("zero_counts"), cal.get("cell_xy_mm")
        if isinstance(counts, list) and all(isinstance(k, (int, float)) and k for k in counts):
            self.counts_per_gram = [float(k) for k in counts]
        if isinstance(zero, list) and all(isinstance(z, int) for z in zero):
            self.zero = list(zero)
        if isinstance(xy, list) and all(isinstance(p, list) and len(p) == 2 for p in xy):
            self.cell_xy_mm = xy

    def cells_g(self, counts: list[int | None]) -> list[float | None]:
        if self.zero is None or len(self.zero) != len(counts):
            if None in counts:
                return [None] * len(counts)
            self.zero = list(counts)  # no calibrated zero: loads relative to the first sample
        scale = self.counts_per_gram or [1.0] * len(counts)
        if len(scale) != len(counts):
            scale = [1.0] * len(counts)
        return [
            None if c is None else round((c - z) / k, 1)
            for c, z, k in zip(counts, self.zero, scale, strict=True)
        ]

    def cop(self, cells: list[float | None]) -> tuple[float, float] | None:
        xy = self.cell_xy_mm
        if xy is None or len(xy) != len(cells) or None in cells:
            return None
        total = sum(cells)
        if abs(total) < 5:  # a few grams: the centre of pressure is noise
            return None
        return (
            round(sum(f * p[0] for f, p in zip(cells, xy, strict=True)) / total, 1),
            round(sum(f * p[1] for f, p in zip(cells, xy, strict=True)) / total, 1),
        )


class SampleTap:
    """See the module docstring. `journal_trace(fact, columns, samples)` stores one event's
    window; `publish(Sensors)` feeds the outputs; `send(kind, **fields)` talks to the board."""

    def __init__(
        self,
        send: Callable,
        accepts: Callable[[str], bool],
        journal_trace,
        publish,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.clock = clock  # wall time: a simulation at --speed 0 runs the board's clock fast
        self.send = send
        self.accepts = accepts
        self.journal_trace = journal_trace
        self.publish = publish
        self.cal = Calibration()
        self.ring: collections.deque[tuple] = collections.deque(maxlen=RING)
        self.waiting: list[dict] = []  # sensed facts whose window is not complete yet
        self._last_published: float | None = None
        self.cells = 0

    def see(self, message: dict) -> None:
        kind = message.get("k")
        if kind == "raw":
            self._sample(message)
        elif kind == "hello":  # a (re)booted board streams nothing until asked
            self.ring.clear()
            self.waiting.clear()
            self.cells = message.get("cells") or 0
            if self.accepts("stream"):
                self.send("stream", on=True)
            if self.accepts("calq"):
                self.send("calq")
        elif kind == "cal":
            self.cal.learn(message)
        elif kind in SENSED and isinstance(message.get("t"), int):
            self.waiting.append(message)

    def _sample(self, raw: dict) -> None:
        t, counts, accel = raw.get("t"), raw.get("lc"), raw.get("a")
        if not isinstance(t, int) or not isinstance(counts, list) or not isinstance(accel, list):
            return
        if len(accel) != 3 or not all(isinstance(v, int) for v in accel):
            return
        cells = self.cal.cells_g(counts)
        cop = self.cal.cop(cells)
        load = None if None in cells else round(sum(cells), 1)
        tilted = tilt(accel)
        self.ring.append((t, load, cop, tilted, cells))
        now = self.clock()
        if self._last_published is None or now - self._last_published >= 1 / RATE_HZ:
            self._last_published = now
            uncalibrated = self.cal.counts_per_gram is None
            self.publish(Sensors(t, load, tuple(cells), cop, tilted, uncalibrated))
        while self.waiting and ticks_diff(t, self.waiting[0]["t"]) >= POST_MS:
            self._journal(self.waiting.pop(0))

    def flush(self) -> None:
        """The table stops: journal the windows still open with the samples there are."""
        while self.waiting:
            self._journal(self.waiting.pop(0))

    def _journal(self, fact: dict) -> None:
        t0 = fact["t"]
        rows = []
        for t, load, cop, tilted, cells in self.ring:
            dt = ticks_diff(t, t0)  # board ticks wrap at 2**30 ms
            if -PRE_MS <= dt <= POST_MS:
                x, y = cop if cop else (None, None)
                rows.append([dt, load, x, y, *tilted, *cells])
        if rows:
            columns = [*COLUMNS, *(f"cell{i}_g" for i in range(len(rows[0]) - len(COLUMNS)))]
            self.journal_trace(fact, columns, rows)
