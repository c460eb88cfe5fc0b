"""The physics sweep the detector is judged across (issue 10): each regime pushes one physics
setting of the virtual tower (physics.py). The detection bench (tests/bench/bench_detect.py)
plays random games in each, and sensing tests replay a regime's tuning games. "independent"
has settings outside every range of REAL, the physics the detector was first tuned on; its
tuning seeds have since been traced like every regime's, its reporting seeds never."""

from sticktable.sim.physics import REAL

# name -> (what it pushes, physics spec for SimGame)
REGIMES: dict[str, tuple[str, dict]] = {
    "original": ("the original virtual tower (no ringing, no rigid tower)", {}),
    "real": ("issue-10 physics at their tuned ranges", dict(REAL)),
    "ring-light": (
        "light ringing (zeta 0.05-0.1)",
        dict(REAL, ring_zeta=(0.05, 0.1), knock_ring_g=(5.0, 15.0)),
    ),
    "ring-heavy": (
        "heavy ringing (zeta 0.01-0.02, knocks 40-80 g)",
        dict(REAL, ring_zeta=(0.01, 0.02), knock_ring_g=(40.0, 80.0)),
    ),
    "quiet": ("quiet cells (0.3x noise), steady hands", dict(REAL, noise_scale=0.3)),
    "noisy": ("noisy cells (2.5x noise, drift, wild values)", dict(REAL, noise_scale=2.5)),
    "slow-hands": ("60 % of sticks arrive over 0.4-0.9 s", dict(REAL, slow_p=0.6)),
    "shaky-hands": ("hands shake 2.5x", dict(REAL, tremor=2.5, steady_p=0.0)),
    "overlap": (
        "overlapping events in half the turns, leans on the table",
        dict(REAL, overlap_p=0.5, lean_p=0.3),
    ),
    "3-cells": ("three load cells", dict(REAL, cells=3)),
    "independent": (
        "outside the tuned ranges: 6-9 Hz, zeta 0.008-0.015, footprint 15-25 mm, "
        "accelerometer 50-80 mm off the pivot, sticks leaving over 150-220 ms, rest at "
        "35-45 deg, 12 g sticks, 1.6x noise",
        dict(
            REAL,
            ring_hz=(6.0, 9.0),
            ring_zeta=(0.008, 0.015),
            knock_ring_g=(50.0, 90.0),
            footprint_mm=(15.0, 25.0),
            accel_arm_mm=(50.0, 80.0),
            accel_h_mm=(25.0, 40.0),
            leave_ms=(150.0, 220.0),
            rest_p=0.6,
            rest_deg=(35.0, 45.0),
            rest_load=(0.6, 0.8),
            stick_g=12.0,
            noise_scale=1.6,
            clip_p=0.5,
            slow_ms=(900.0, 1200.0),
            slow_p=0.3,
        ),
    ),
}
