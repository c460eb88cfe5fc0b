"""Recompute a calibration from saved raw readings (hardware/calibration.md).

    python -m hardware.calibration --readings readings.json --mass 200 [--out calibration.json]

Calibrating a table is `sticktable calibrate --port DEV --mass 200` (over the normal link; the
board stores the result). This tool only reruns the solver on readings kept from an earlier
session, e.g. with a corrected reference mass: `{"zero": [...], "cells": [[...], ...],
"centre": [...] (optional), "sticks": [count, [...]] (optional)}`. The solver is the host's
(`host/sticktable/calibration.py`): there is one.
"""

import argparse
import json
import sys
from pathlib import Path

from sticktable.calibration import CalibrationError, grams, solve

# Where each cell sits under the plate (mm from the tower axis); mechanical.md's layout.
CELL_XY_MM = [[-65, -65], [65, -65], [65, 65], [-65, 65]]
DEFAULT_STICK_G = 8.0

__all__ = ["CalibrationError", "calibration", "grams", "main", "solve"]


def calibration(readings: dict, mass_g: float) -> dict:
    """calibration.json's content from saved readings."""
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hardware.calibration",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--readings", type=Path, required=True, help="saved readings.json")
    parser.add_argument("--mass", type=float, required=True, help="reference mass in grams")
    parser.add_argument("--out", type=Path, default=Path("calibration.json"))
    args = parser.parse_args(argv)
    try:
        readings = json.loads(args.readings.read_text())
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
        f"stick_g {result['stick_g']}; send it with `sticktable calibrate` or copy it to the "
        "board as :calibration.json"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
