"""Run the firmware's own Detector over samples on the host (`sticktable detect`, benchmarks)."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable

from sticktable.sim.tower import Sample
from tablefw import schema
from tablefw.calib import check_ring
from tablefw.calibrator import make_detector
from tablefw.reading import MISSING
from tablefw.ringfit import describe


def run_detector(
    meta: dict,
    samples: Iterable[Sample],
    arm_at: Iterable[int] = (),
    detector=None,
    each: Callable | None = None,
) -> list[dict]:
    """Events the detector emits for `samples`; `arm_at` lists sample times to call arm() at.
    Pass `detector` (from make_detector) to look at its state afterwards, and `each` to look
    at it after every sample: each(sample, detector), once that sample's events are out."""
    det = detector if detector is not None else make_detector(meta)
    n = int(meta["cells"])
    cells = array("i", [0] * n)
    out = array("i", [0, 0, 0, 0])
    arms = sorted(arm_at)
    events = []
    ax, ay, az = 0, 0, 1000
    for s in samples:
        while arms and arms[0] <= s.t_ms:
            arms.pop(0)
            det.arm()
        for i in range(n):
            v = s.cells[i]
            cells[i] = MISSING if v is None else v
        # An empty accelerometer field: keep the previous reading.
        ax = ax if s.ax is None else s.ax
        ay = ay if s.ay is None else s.ay
        az = az if s.az is None else s.az
        if det.feed(s.t_ms, cells, ax, ay, az):
            while det.pop(out):
                events.append(schema.trace_event(schema.message(out[0], out[1], out[2], out[3])))
        if each is not None:
            each(s, det)
    return events


def learned_ring(meta: dict, tap: Iterable[Sample]) -> list[float] | None:
    """The plate's ringing as the firmware's detector learns it from `tap` (samples of a tap
    on the empty plate): [samples per cycle, damping ratio], as a calibration's `ring` holds
    it, or None if it learned none (a plate that does not ring, or no tap) or one a board
    would refuse (slower than 80 samples a cycle)."""
    fresh = {k: v for k, v in meta.items() if k != "ring"}  # learned from the tap alone
    det = make_detector(fresh)
    run_detector(fresh, tap, detector=det)
    a1, a2 = det.resonance()
    ring = describe(a1, a2) if a2 else None
    if ring is None:
        return None
    ring = [round(ring[0], 3), round(ring[1], 4)]
    return None if check_ring(ring) else ring
