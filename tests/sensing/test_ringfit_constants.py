"""tablefw/ringfit.py, tablefw/lean.py and tablefw/settle.py repeat some of detect.py's
constants (MicroPython folds a const() only within its own module, and the sampling path needs
them folded): they must stay equal."""

import re
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "tablefw"
CONST = re.compile(r"^(_[A-Z0-9_]+) = const\((-?\d+)\)", re.M)


def consts(name: str) -> dict[str, int]:
    return {k: int(v) for k, v in CONST.findall((FIRMWARE / name).read_text())}


def test_the_constants_ringfit_shares_with_detect_are_the_same():
    fit, detect = consts("ringfit.py"), consts("detect.py")
    shared = fit.keys() & detect.keys()
    assert {"_RMASK", "_RW", "_Q", "_SMOOTH", "_SHAKE_MS", "_CH", "_UH", "_UMASK"} <= shared
    assert {k: fit[k] for k in shared} == {k: detect[k] for k in shared}


def test_the_constants_lean_shares_with_detect_are_the_same():
    lean, detect = consts("lean.py"), consts("detect.py")
    shared = lean.keys() & detect.keys()
    assert {"_RING", "_RMASK", "_WIN", "_TREND"} <= shared
    assert {k: lean[k] for k in shared} == {k: detect[k] for k in shared}


def test_the_constants_settle_shares_with_detect_are_the_same():
    settle, detect = consts("settle.py"), consts("detect.py")
    shared = settle.keys() & detect.keys()
    assert {"_WIN", "_QUICK", "_LOOSE_X", "_TAIL_MS"} <= shared
    assert {k: settle[k] for k in shared} == {k: detect[k] for k in shared}
