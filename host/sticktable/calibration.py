"""Load-cell calibration: the solver, stick-mass learning, and the board's calibration commands.

The solver. Each placement j puts a known mass m_j at a known spot (x_j, y_j) on the plate; cell
i's reading changes by d_ij counts. With u_i = 1 / counts_per_gram_i the cells' forces are
F_ij = u_i d_ij, and statics holds whatever the plate's stiffness: the forces add up to the mass
(sum_i F_ij = m_j) and their moments to the mass's moment (sum_i F_ij x_i = m_j x_j, same in y).
The sum rows carry the weight of the fit; the moment rows are weighted down (MOMENT_WEIGHT: a
mass put down a few mm off its mark must not bias the gains) but they pin down what the sums
cannot: on a stiff plate the four cells' shares of any load lie in a 3-dimensional space (total
and two moments), so sums alone leave one combination of the gains (the plate's twist) free.
Least squares over all placements (>= as many as cells).

Board commands (firmware/PROTOCOL.md section 5): `calq` -> the `cal` event (the calibration in
use), `cal` (store a new one; refused with "in play" after an `arm`), `tare`.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

from sticktable.errors import UserError

MOMENT_WEIGHT = 0.05  # weight of the moment rows against the sum rows (see above)
STILL_G = 1.0  # a still second: each cell's 10-90 % range under this many grams
SETTLE_MS = 400  # board time skipped after the stream starts (hands leaving the plate)
WINDOW_MS = 1000  # a still second
STILL_TIMEOUT_S = 20.0  # wall time to wait for a still second
REPLY_TIMEOUT_S = 5.0
IN_PLAY = (
    "the board is in play (a game armed it since it started): restart it (unplug it and plug "
    "it back in) with the plate empty, then calibrate"
)


class CalibrationError(UserError):
    """Readings that cannot give a calibration (said in one line)."""


# -- the solver --------------------------------------------------------------------------------


def solve(
    zero: list[int],
    placements: list[list[int]],
    mass_g: float | list[float],
    spots: list[tuple[float, float]] | None = None,
    cell_xy_mm: list[list[float]] | None = None,
) -> list[float]:
    """Counts per gram of each cell from the empty plate's reading `zero` and >= N placements
    (each a list of N raw readings) of `mass_g` grams (one mass, or one per placement). With
    `spots` (where each mass stood) and `cell_xy_mm`, the moment rows join the fit."""
    n = len(zero)
    if len(placements) < n:
        raise CalibrationError(f"need {n} placements of the mass, got {len(placements)}")
    masses = mass_g if isinstance(mass_g, list) else [float(mass_g)] * len(placements)
    rows: list[list[float]] = []
    rhs: list[float] = []
    for j, reading in enumerate(placements):
        d = [reading[i] - zero[i] for i in range(n)]
        rows.append([float(v) for v in d])
        rhs.append(masses[j])
        if spots is not None and cell_xy_mm is not None:
            scale = MOMENT_WEIGHT / _radius(cell_xy_mm)
            x, y = spots[j]
            for axis, at in ((0, x), (1, y)):
                rows.append([d[i] * cell_xy_mm[i][axis] * scale for i in range(n)])
                rhs.append(masses[j] * at * scale)
    # Normal equations (A^T A) u = A^T b, columns scaled to one so the pivots compare.
    norms = [max(1e-12, sum(r[i] * r[i] for r in rows) ** 0.5) for i in range(n)]
    cols = [[r[i] / norms[i] for i in range(n)] for r in rows]
    ata = [[sum(r[i] * r[k] for r in cols) for k in range(n)] for i in range(n)]
    atb = [sum(r[i] * b for r, b in zip(cols, rhs, strict=True)) for i in range(n)]
    u = [v / norms[i] for i, v in enumerate(_gauss(ata, atb))]
    if any(abs(x) < 1e-12 for x in u):
        raise CalibrationError("a cell does not respond: check its wiring and the HX711")
    return [1.0 / x for x in u]


def _radius(cell_xy_mm: list[list[float]]) -> float:
    return max(1.0, statistics.fmean((x * x + y * y) ** 0.5 for x, y in cell_xy_mm))


def _gauss(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [list(map(float, row)) + [float(v)] for row, v in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-9:
            raise CalibrationError(
                "the placements do not tell the cells apart: put the mass "
                "right over each cell in turn"
            )
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def grams(reading: list[int], zero: list[int], counts_per_gram: list[float]) -> float:
    """Total load on the plate for one reading."""
    return sum((r - z) / k for r, z, k in zip(reading, zero, counts_per_gram, strict=True))


def centre_mm(
    reading: list[int], zero: list[int], counts_per_gram: list[float], cell_xy_mm
) -> tuple[float, float]:
    """Where the load stands (its centre of pressure), from one reading."""
    f = [(r - z) / k for r, z, k in zip(reading, zero, counts_per_gram, strict=True)]
    total = sum(f) or 1e-9
    return (
        sum(fi * p[0] for fi, p in zip(f, cell_xy_mm, strict=True)) / total,
        sum(fi * p[1] for fi, p in zip(f, cell_xy_mm, strict=True)) / total,
    )


@dataclass
class Sticks:
    """Stick masses weighed one by one."""

    masses: list[float]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.masses)

    @property
    def sd(self) -> float:
        return statistics.stdev(self.masses) if len(self.masses) > 1 else 0.0

    @property
    def spread_pct(self) -> float:
        """(heaviest - lightest) / mean, in %."""
        return 100.0 * (max(self.masses) - min(self.masses)) / self.mean


def stick_masses(levels: list[list[int]], zero: list[int], counts_per_gram: list[float]):
    """Sticks added one at a time: `levels[k]` is the reading with k + 1 sticks on the plate.
    Each stick weighs the difference it made."""
    totals = [0.0] + [grams(r, zero, counts_per_gram) for r in levels]
    return Sticks([b - a for a, b in zip(totals, totals[1:], strict=False)])


# -- still seconds from the board's raw stream ----------------------------------------------------


def still_median(samples: list[list[int | None]], counts_per_gram: list[float]):
    """Each cell's median over `samples` (raw cell readings, None for none) if the plate was
    still, else None: the firmware's own tare rule (tablefw/calib.py)."""
    from tablefw import calib
    from tablefw.reading import MISSING

    n = len(counts_per_gram)
    ring = [MISSING if v is None else v for s in samples for v in s[:n]]
    return calib.still_zero(ring, len(samples), n, counts_per_gram, STILL_G)


def read_still(link, counts_per_gram: list[float], timeout_s: float = STILL_TIMEOUT_S):
    """Stream raw samples and return each cell's median over the first still second (board
    time) after SETTLE_MS. CalibrationError if the plate does not keep still."""
    n = len(counts_per_gram)
    cid = link.send("stream", on=True)
    window: list[tuple[int, list]] = []
    first_t = None
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            for msg in link.poll(0.05):
                _check_reply(link, cid, msg)
                if msg.get("k") != "raw" or not isinstance(msg.get("t"), int):
                    continue
                lc = msg.get("lc")
                if not isinstance(lc, list) or len(lc) < n:
                    continue
                t = msg["t"]
                first_t = t if first_t is None else first_t
                if t - first_t < SETTLE_MS:
                    continue
                window.append((t, lc[:n]))
                while window and t - window[0][0] > WINDOW_MS:
                    window.pop(0)
                if window and t - window[0][0] >= WINDOW_MS - 30 and len(window) >= 40:
                    zero = still_median([s for _, s in window], counts_per_gram)
                    if zero is not None:
                        return zero
    finally:
        _stop_stream(link)
    raise CalibrationError(
        f"the plate did not keep still for a second within {timeout_s:g} s "
        "(keep hands off the table; check that a cell gives readings: `sticktable doctor`)"
    )


def _stop_stream(link) -> None:
    # Wait for the answer, dropping the raw frames before it: the next read_still must see only
    # samples taken after it asked (the board processes commands in order).
    cid = link.send("stream", on=False)
    deadline = time.monotonic() + REPLY_TIMEOUT_S
    while link.result(cid) is None and time.monotonic() < deadline:
        link.poll(0.05)


def _check_reply(link, cid: int, msg: dict) -> None:
    if msg.get("k") == "err" and msg.get("id") == cid:
        raise CalibrationError(f"the board refused to stream: {msg.get('why')}")


# -- the board's calibration commands ----------------------------------------------------------


def _accepted(link, kind: str) -> None:
    if not link.accepts(kind):
        raise CalibrationError(
            f"the board's firmware does not take `{kind}` (its hello does not list it): "
            "its firmware is older than this host's: run `make flash`"
        )


def query(link, timeout_s: float = REPLY_TIMEOUT_S) -> dict:
    """The calibration the board uses (its `cal` event, asked for with `calq`)."""
    _accepted(link, "calq")
    cid = link.send("calq")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for msg in link.poll(0.05):
            if msg.get("k") == "cal":
                return msg
            if msg.get("k") == "err" and msg.get("id") == cid:
                raise CalibrationError(
                    f"the board cannot report its calibration ({msg.get('why')}): "
                    "its firmware is older than this host's: run `make flash`"
                )
    raise CalibrationError(f"the board did not report its calibration within {timeout_s:g} s")


def command(link, kind: str, timeout_s: float = REPLY_TIMEOUT_S, **fields) -> None:
    """Send a calibration command (cal, tare) and wait for its answer; CalibrationError if it
    is refused, with what to do about it."""
    _accepted(link, kind)
    cid = link.send(kind, **fields)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        link.poll(0.05)
        result = link.result(cid)
        if result == "ok":
            return
        if result is not None:
            why = result.removeprefix("err: ")
            if why == "in play":
                raise CalibrationError(IN_PLAY)
            raise CalibrationError(f"the board refused `{kind}`: {why}")
    raise CalibrationError(f"the board did not answer `{kind}` within {timeout_s:g} s")


def to_board(counts_per_gram, zero_counts, cell_xy_mm, stick_g, ring=None) -> dict:
    """The `cal` command's fields, rounded so the frame stays short (0.01 count/g: 5 ppm);
    `ring` ([samples per cycle, damping ratio] from the tap, or None: none learned) replaces
    the board's, so a plate stiffened since keeps no stale filter."""
    return {
        "counts_per_gram": [round(float(k), 2) for k in counts_per_gram],
        "zero_counts": [int(z) for z in zero_counts] if zero_counts is not None else None,
        "cell_xy_mm": [[round(float(x), 1), round(float(y), 1)] for x, y in cell_xy_mm],
        "stick_g": round(float(stick_g), 3),
        "ring": ring,
    }
