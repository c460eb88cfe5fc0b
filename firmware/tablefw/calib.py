# The board's calibration: what it holds, checking a new one, storing it, and taring.
#
# A calibration is the Detector's arguments (tablefw/detect.py): counts_per_gram (per cell,
# sign included), zero_counts (per cell: the empty plate's raw reading, or None), cell_xy_mm,
# stick_g, and ring ([samples per cycle, damping ratio] of the plate's ringing from a tap, or
# None). It lives in a JSON file on the board's filesystem; it is written only on request and
# never in play (a flash write stalls the RP2040 for milliseconds, losing samples and USB data).
# Taring takes the median of each cell over the last second of samples, if that second was
# still. None of this runs per sample: it may allocate.

import json
import os

from tablefw.reading import RAIL_HI, RAIL_LO

KEYS = ("counts_per_gram", "zero_counts", "cell_xy_mm", "stick_g", "ring")
RING_CYCLE = (2.0, 80.0)  # a ring's samples per cycle: above Nyquist's 2, at most 80 (1 Hz)
STILL_G = 1.0  # a still second: each cell's 10-90 % range of readings under this many grams
_MAX_CPG = 1000000.0


def check(config, ncells):
    """Why `config` cannot be used on a board with `ncells` cells, or None if it can."""
    cpg = config.get("counts_per_gram")
    if not isinstance(cpg, list) or len(cpg) != ncells:
        return "counts_per_gram must be %d numbers" % ncells
    for k in cpg:
        if not isinstance(k, (int, float)) or not 1.0 <= abs(k) <= _MAX_CPG:
            return "counts_per_gram must be numbers from 1 to 1e6 (sign free)"
    zero = config.get("zero_counts")
    if zero is not None:
        if not isinstance(zero, list) or len(zero) != ncells:
            return "zero_counts must be %d integers or null" % ncells
        for z in zero:
            if not isinstance(z, int) or not RAIL_LO <= z <= RAIL_HI:
                return "zero_counts must be 24-bit integers"
    xy = config.get("cell_xy_mm")
    if not isinstance(xy, list) or len(xy) != ncells:
        return "cell_xy_mm must be %d [x, y] pairs" % ncells
    for p in xy:
        if not isinstance(p, list) or len(p) != 2:
            return "cell_xy_mm must be %d [x, y] pairs" % ncells
        for v in p:
            if not isinstance(v, (int, float)) or not -1000 <= v <= 1000:
                return "cell_xy_mm must be millimetres within 1 m"
    stick = config.get("stick_g")
    if not isinstance(stick, (int, float)) or not 0.5 <= stick <= 500:
        return "stick_g must be a mass from 0.5 to 500 g"
    return check_ring(config.get("ring"))


def check_ring(ring):
    """Why `ring` cannot be a calibration's ring (the plate's ringing as [samples per cycle,
    damping ratio]), or None if it can (None itself: no ring, the detector learns it)."""
    if ring is None:
        return None
    if not isinstance(ring, list) or len(ring) != 2:
        return "ring must be [samples per cycle, damping ratio] or null"
    period, zeta = ring
    if isinstance(period, bool) or not isinstance(period, (int, float)):
        return "ring must be [samples per cycle, damping ratio] or null"
    if not RING_CYCLE[0] < period <= RING_CYCLE[1]:
        return "ring must be [samples per cycle, damping ratio]: more than 2, at most 80"
    if isinstance(zeta, bool) or not isinstance(zeta, (int, float)) or not 0.0 < zeta < 1.0:
        return "ring must be [samples per cycle, damping ratio]: a ratio between 0 and 1"
    return None


def load(path):
    """The calibration stored at `path` (only its KEYS), or None if there is none."""
    try:
        with open(path) as f:
            stored = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(stored, dict):
        return None
    return {key: stored[key] for key in KEYS if key in stored}


def save(path, config):
    """Write the calibration to `path` (a new file renamed over the old one, so a reset while
    writing leaves the old one whole). Returns None, or why it failed."""
    tmp = path + ".new"
    try:
        with open(tmp, "w") as f:
            json.dump({key: config.get(key) for key in KEYS}, f)
        os.rename(tmp, path)
    except OSError as e:
        return "cannot store the calibration: %s" % e
    return None


def still_zero(ring, count, ncells, counts_per_gram, still_g=STILL_G):
    """Each cell's median over `count` samples of `ring` (sample j, cell i at j * ncells + i),
    or None if the plate was not still or a cell gave fewer than half its readings."""
    zero = []
    for i in range(ncells):
        values = []
        for j in range(count):
            v = ring[j * ncells + i]
            if RAIL_LO < v < RAIL_HI:  # rails (and MISSING, far beyond them): no reading
                values.append(v)
        if len(values) * 2 < count or not values:
            return None
        values.sort()
        n = len(values)
        spread = values[n - 1 - n // 10] - values[n // 10]
        if spread > still_g * abs(counts_per_gram[i]):
            return None
        zero.append(values[n // 2])
    return zero


def load_g(reading, zero, counts_per_gram):
    """Grams on the plate for raw `reading` against `zero`."""
    total = 0.0
    for i in range(len(zero)):
        total += (reading[i] - zero[i]) / counts_per_gram[i]
    return total
