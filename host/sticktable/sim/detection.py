"""Run the firmware's own Detector over samples on the host (`sticktable detect`, benchmarks)."""

from __future__ import annotations

from array import array
from collections.abc import Iterable

from sticktable.paths import import_firmware
from sticktable.sim.tower import Sample


def _detect_module():
    import_firmware()
    from tablefw import detect

    return detect


def make_detector(meta: dict):
    detect = _detect_module()
    return detect.Detector(
        meta["counts_per_gram"],
        meta["cell_xy_mm"],
        meta["stick_g"],
        rate_hz=meta.get("rate_hz", 80),
        zero_counts=meta.get("zero_counts"),
    )


def event_dict(kind: int, t_ms: int, count: int, grams_x10: int) -> dict:
    """The spec's JSON object for one event (same keys the MicroPython runner prints)."""
    detect = _detect_module()
    name = detect.KIND_NAMES.get(kind, str(kind))
    event = {"t_ms": t_ms, "kind": name}
    if kind == detect.FELL:
        event["count"] = count
    if kind in (detect.PLACED, detect.FELL, detect.TOUCH):
        event["grams"] = grams_x10 / 10
    return event


def run_detector(
    meta: dict, samples: Iterable[Sample], arm_at: Iterable[int] = (), detector=None
) -> list[dict]:
    """Events the detector emits for `samples`; `arm_at` lists sample times to call arm() at.
    Pass `detector` (from make_detector) to look at its state afterwards."""
    detect = _detect_module()
    det = detector if detector is not None else make_detector(meta)
    n = int(meta["cells"])
    cells = array("i", [0] * n)
    out = array("i", [0, 0, 0, 0])
    missing = detect.MISSING
    arms = sorted(arm_at)
    events = []
    ax, ay, az = 0, 0, 1000
    for s in samples:
        while arms and arms[0] <= s.t_ms:
            arms.pop(0)
            det.arm()
        for i in range(n):
            v = s.cells[i]
            cells[i] = missing if v is None else v
        # An empty accelerometer field: keep the previous reading.
        ax = ax if s.ax is None else s.ax
        ay = ay if s.ay is None else s.ay
        az = az if s.az is None else s.az
        if det.feed(s.t_ms, cells, ax, ay, az):
            while det.pop(out):
                events.append(event_dict(out[0], out[1], out[2], out[3]))
    return events
