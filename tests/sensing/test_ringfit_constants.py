"""The modules beside detect.py (tablefw/ringfit.py, lean.py, settle.py, tilt.py, onset.py)
repeat some of its constants (MicroPython folds a const() only within its own module, and the
sampling path needs them folded): they must stay equal."""

import re
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "tablefw"
CONST = re.compile(r"^(_[A-Z0-9_]+) = const\((-?\d+)\)", re.M)

# Each module and the constants it must at least share with detect.py.
SHARED = {
    "ringfit.py": {"_RMASK", "_RW", "_Q", "_SMOOTH", "_SHAKE_MS", "_CH", "_UH", "_UMASK"},
    "lean.py": {"_RING", "_RMASK", "_WIN", "_TREND"},
    "settle.py": {"_WIN", "_QUICK", "_LOOSE_X", "_REST_MS", "_UMASK", "_SMOOTH"},
    "tilt.py": {"_RMASK", "_WIN"},
    "onset.py": {
        "_WIN",
        "_QUICK",
        "_SMOOTH",
        "_SHAKE_MS",
        "_KNOCK_RING_MS",
        "_RMASK",
        "_UMASK",
        "_D_CLAMP",
    },
}


def consts(name: str) -> dict[str, int]:
    return {k: int(v) for k, v in CONST.findall((FIRMWARE / name).read_text())}


@pytest.mark.parametrize("module", sorted(SHARED))
def test_the_constants_a_module_shares_with_detect_are_the_same(module):
    mine, detect = consts(module), consts("detect.py")
    shared = mine.keys() & detect.keys()
    assert SHARED[module] <= shared
    assert {k: mine[k] for k in shared} == {k: detect[k] for k in shared}
