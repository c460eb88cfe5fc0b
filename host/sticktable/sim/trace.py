"""Sensor traces (host/docs/formats/sensor-trace.md): write them, and read anyone's strictly.

Reading refuses a file that breaks the format with `InputRefused("line N: ...")`; empty cell
fields (no reading) and wild values are data, passed on as None and as the 24-bit value.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from pathlib import Path

from sticktable import textfile
from sticktable.errors import InputRefused
from sticktable.sim.tower import MAX_COUNTS, MIN_COUNTS, Sample
from tablefw.calib import check_ring

MAGIC = "# sticktrace 1 "
REQUIRED = ("cells", "counts_per_gram", "cell_xy_mm", "stick_g")
MAX_T_MS = 2**31 - 1  # the detector keeps times in 32-bit integers
MAX_MG = 32767  # an accelerometer reading beyond 32 g is a wild value: held there


def header_line(cells: int) -> str:
    return ",".join(["t_ms"] + [f"lc{i}" for i in range(cells)] + ["ax", "ay", "az"])


def write_trace(path: Path | str, meta: dict, samples: Iterable[Sample]) -> int:
    """Write a trace file ("-": stdout); returns the number of samples written."""
    count = 0
    with textfile.output(str(path)) as out:
        out.write(MAGIC + json.dumps(meta, separators=(", ", ": ")) + "\n")
        out.write(header_line(int(meta["cells"])) + "\n")
        for s in samples:
            values = ",".join("" if v is None else str(v) for v in (*s.cells, s.ax, s.ay, s.az))
            out.write(f"{s.t_ms},{values}\n")
            count += 1
    return count


def read_trace(path: Path | str) -> tuple[dict, list[Sample]]:
    """The meta and every sample of a trace file; InputRefused naming the line if it is bad."""
    meta, samples = stream_trace(path)
    with textfile.naming(str(path)):
        return meta, list(samples)


def stream_trace(path: Path | str, label: str | None = None) -> tuple[dict, Iterator[Sample]]:
    """The meta, and the samples as the file is read (`-`: stdin; host/docs/cli.md). Bad
    lines are refused when the reading reaches them."""
    lines = textfile.lines(str(path), label)
    with textfile.naming(str(path)):
        return iter_trace(lines)


def parse_trace(text: str) -> tuple[dict, list[Sample]]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    meta, samples = iter_trace(iter(lines))
    return meta, list(samples)


def iter_trace(lines: Iterator[str]) -> tuple[dict, Iterator[Sample]]:
    """The meta (read at once) and a generator of the samples of a trace's lines."""
    first = next(lines, None)
    if first is None:
        raise InputRefused("line 1: empty file, expected '# sticktrace 1 {meta}'")
    meta = _meta(_strip(first))
    cells = meta["cells"]
    second = next(lines, None)
    if second is None:
        raise InputRefused("line 2: missing column header")
    expected = header_line(cells)
    if _strip(second) != expected:
        raise InputRefused(f"line 2: column header must be {expected!r}")
    return meta, _samples(lines, cells)


def _samples(lines: Iterator[str], cells: int) -> Iterator[Sample]:
    last_t = -1
    width = cells + 4
    for number, line in enumerate(lines, 3):
        fields = _strip(line).split(",")
        if len(fields) != width:
            raise InputRefused(f"line {number}: {len(fields)} fields, expected {width}")
        t = _int(fields[0], number, "t_ms")
        if t is None:
            raise InputRefused(f"line {number}: t_ms is empty")
        if t > MAX_T_MS:
            raise InputRefused(f"line {number}: t_ms {t} is beyond {MAX_T_MS} (24 days)")
        if t <= last_t:
            raise InputRefused(f"line {number}: t_ms {t} is not after {last_t}")
        last_t = t
        values = []
        for k in range(cells):
            v = _int(fields[1 + k], number, f"lc{k}")
            values.append(None if v is None else max(MIN_COUNTS, min(MAX_COUNTS, v)))
        accel = [
            _clamp(_int(fields[1 + cells + k], number, name), MAX_MG)
            for k, name in enumerate("xyz")
        ]
        yield Sample(t, tuple(values), *accel)


def _clamp(value: int | None, limit: int) -> int | None:
    """A wild reading is data, not an error: it is held to what the sensor can report."""
    return None if value is None else max(-limit, min(limit, value))


def _strip(line: str) -> str:
    return line[:-1] if line.endswith("\r") else line


def _int(text: str, number: int, column: str) -> int | None:
    text = text.strip()
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        raise InputRefused(f"line {number}: {column} is not an integer: {text[:20]!r}") from None


def _meta(line: str) -> dict:
    if not line.startswith(MAGIC):
        raise InputRefused("line 1: expected '# sticktrace 1 ' and the meta JSON object")
    try:
        meta = json.loads(line[len(MAGIC) :])
    except ValueError:
        raise InputRefused("line 1: the meta is not valid JSON") from None
    return check_meta(meta, where="line 1: ")


def check_meta(meta, where: str = "") -> dict:
    """The meta (rate_hz defaulted) if it has what a detector needs, else InputRefused."""
    if not isinstance(meta, dict):
        raise InputRefused(f"{where}the meta must be a JSON object")
    for key in REQUIRED:
        if key not in meta:
            raise InputRefused(f"{where}meta lacks {key!r}")
    cells = meta["cells"]
    if not isinstance(cells, int) or isinstance(cells, bool) or not 1 <= cells <= 16:
        raise InputRefused(f"{where}meta 'cells' must be an integer from 1 to 16")
    cpg = meta["counts_per_gram"]
    if not _numbers(cpg, cells) or not all(1e-3 <= abs(v) <= 1e6 for v in cpg):
        raise InputRefused(
            f"{where}meta 'counts_per_gram' must be {cells} numbers from 0.001 to 1e6 (sign free)"
        )
    xy = meta["cell_xy_mm"]
    if not isinstance(xy, list) or len(xy) != cells or not all(_numbers(p, 2) for p in xy):
        raise InputRefused(f"{where}meta 'cell_xy_mm' must be {cells} [x, y] pairs")
    if not _numbers([meta["stick_g"]], 1) or meta["stick_g"] <= 0:
        raise InputRefused(f"{where}meta 'stick_g' must be a positive number")
    rate = meta.setdefault("rate_hz", 80)
    if not _numbers([rate], 1) or rate <= 0:
        raise InputRefused(f"{where}meta 'rate_hz' must be a positive number")
    zero = meta.get("zero_counts")
    if zero is not None and not (
        _numbers(zero, cells)
        and all(isinstance(v, int) and MIN_COUNTS <= v <= MAX_COUNTS for v in zero)
    ):
        raise InputRefused(f"{where}meta 'zero_counts' must be {cells} 24-bit integers")
    why = check_ring(meta.get("ring"))
    if why:
        raise InputRefused(f"{where}meta {why}")
    return meta


def _numbers(values, count: int) -> bool:
    return (
        isinstance(values, list)
        and len(values) == count
        and all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in values
        )
    )
