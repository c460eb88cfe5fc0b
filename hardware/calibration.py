"""Calibrate the four load cells and write the board's calibration.json (hardware/calibration.md).

    python -m hardware.calibration --port /dev/ttyACM0 --mass 200 [--sticks 10]
    python -m hardware.calibration --readings readings.json --mass 200   (no board: recompute)

With a board: asks you to empty the plate, then to put the reference mass over each cell in
turn (and at the centre, as a check), reads the cells each time with hardware/read_cells.py
(`mpremote run`), solves for each cell's counts per gram, saves the readings beside the
result, and copies calibration.json to the board.

The plate rests on four cells, so a mass over one cell still loads the others a little. The
solver uses only what is certain: the four cells' forces add up to the mass wherever it
stands. With u_i = 1 / counts_per_gram_i and d_ij = cell i's change for placement j:
sum_i u_i d_ij = mass for every placement j: four or more placements, least squares.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

from hardware import HARDWARE_DIR
from hardware.pinmap import load

# Where each cell sits under the plate (mm from the tower axis); mechanical.md's layout.
CELL_XY_MM = [[-65, -65], [65, -65], [65, 65], [-65, 65]]
DEFAULT_STICK_G = 8.0


class CalibrationError(ValueError):
    """Readings that cannot give a calibration (said in one line)."""


def solve(zero: list[int], placements: list[list[int]], mass_g: float) -> list[float]:
    """Counts per gram of each cell from the empty-plate reading and >= N placements of
    `mass_g` (each a list of N raw readings)."""
    n = len(zero)
    if len(placements) < n:
        raise CalibrationError(f"need {n} placements of the mass, got {len(placements)}")
    rows = [[r[i] - zero[i] for i in range(n)] for r in placements]
    # Normal equations (A^T A) u = A^T b, with b = mass for every row.
    ata = [[sum(row[i] * row[k] for row in rows) for k in range(n)] for i in range(n)]
    atb = [sum(row[i] * mass_g for row in rows) for i in range(n)]
    u = _gauss(ata, atb)
    if any(abs(x) < 1e-12 for x in u):
        raise CalibrationError("a cell does not respond: check its wiring and the HX711")
    return [1.0 / x for x in u]


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


def calibration(readings: dict, mass_g: float) -> dict:
    """calibration.json's content from saved readings (see `measure`)."""
    zero = readings["zero"]
    counts = solve(zero, readings["cells"], mass_g)
    result = {
        "counts_per_gram": [round(k, 2) for k in counts],
        "zero_counts": zero,
        "cell_xy_mm": readings.get("cell_xy_mm", CELL_XY_MM),
        "stick_g": DEFAULT_STICK_G,
    }
    if readings.get("sticks"):
        count, reading = readings["sticks"]
        result["stick_g"] = round(grams(reading, zero, counts) / count, 2)
    return result


def read_board(port: str) -> list[int]:
    script = HARDWARE_DIR / "read_cells.py"
    out = subprocess.run(
        ["mpremote", "connect", port, "run", str(script)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("[")]
    if out.returncode != 0 or not lines:
        raise CalibrationError(
            f"could not read the cells on {port}: is the board in REPL mode "
            "(seat 1's button held at power-up)?"
        )
    return json.loads(lines[-1])


def measure(port: str, mass_g: float, sticks: int) -> dict:
    """Walk the user through the placements; returns the raw readings."""
    cells = load()["table"]["cells"]

    def step(prompt: str) -> list[int]:
        input(f"{prompt}, keep hands off, then press Enter ")
        return read_board(port)

    readings = {"zero": step("Empty the plate (no tower, nothing on it)"), "cells": []}
    for i in range(cells):
        x, y = CELL_XY_MM[i]
        readings["cells"].append(
            step(f"Put the {mass_g:g} g mass right over cell {i + 1} (x={x}, y={y} mm)")
        )
    readings["centre"] = step(f"Put the {mass_g:g} g mass at the centre of the plate")
    if sticks:
        readings["sticks"] = [sticks, step(f"Put {sticks} sticks on the plate (no mass)")]
    return readings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hardware.calibration",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--port", help="the board's serial port (board in REPL mode)")
    source.add_argument("--readings", type=Path, help="saved readings.json: recompute only")
    parser.add_argument("--mass", type=float, required=True, help="reference mass in grams")
    parser.add_argument("--sticks", type=int, default=0, help="weigh this many sticks too")
    parser.add_argument("--out", type=Path, default=Path("calibration.json"))
    args = parser.parse_args(argv)
    try:
        if args.readings:
            readings = json.loads(args.readings.read_text())
        else:
            readings = measure(args.port, args.mass, args.sticks)
            args.out.with_name("readings.json").write_text(json.dumps(readings, indent=1))
        result = calibration(readings, args.mass)
    except (CalibrationError, OSError, ValueError, KeyError) as exc:
        print(f"calibration: {exc}", file=sys.stderr)
        return 1
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    if "centre" in readings:
        check = grams(readings["centre"], readings["zero"], result["counts_per_gram"])
        print(f"check: the mass at the centre weighs {check:.1f} g ({args.mass:g} g expected)")
    print(
        f"wrote {args.out}: counts_per_gram {result['counts_per_gram']}, "
        f"stick_g {result['stick_g']}"
    )
    if args.port:
        subprocess.run(
            ["mpremote", "connect", args.port, "fs", "cp", str(args.out), ":calibration.json"],
            check=False,
        )
        print("copied to the board as :calibration.json (read at the next start)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
