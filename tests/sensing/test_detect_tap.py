"""The plate's ringing measured at calibration from a tap (`ring` in the calibration and the
trace meta) starts the detector's ringing filter, so a slow, lightly damped plate's first
events are nulled too, instead of waiting for the ringing to be learned from them."""

import pytest

from sticktable.sim.detection import learned_ring, run_detector
from sticktable.sim.evaluate import evaluate
from sticktable.sim.scenarios import SCENARIO_PHYSICS, scenario
from sticktable.sim.tower import VirtualTower
from tablefw import ringfit
from tablefw.calibrator import make_detector

SLOW_PLATE = "touch-fall-slow"  # 6-9 Hz, damping ratio 0.008-0.015: rings for seconds
SEED = 1006  # (a tuning seed: slow hands' sticks are missed while the ringing is unlearned)


def tapped(seed: int, physics: dict, meta: dict) -> list[float] | None:
    """What `sticktable calibrate` stores for this table: its empty plate, tapped once."""
    return learned_ring(meta, VirtualTower.create(seed, physics=physics).calibration_tap())


def test_the_tap_learns_the_plates_ringing():
    sc = scenario(SLOW_PLATE, seed=SEED)
    ring = tapped(SEED, SCENARIO_PHYSICS[SLOW_PLATE], sc.meta)
    true = VirtualTower.create(SEED, physics=SCENARIO_PHYSICS[SLOW_PLATE]).physics
    assert ring is not None
    board = VirtualTower.create(SEED, physics=SCENARIO_PHYSICS[SLOW_PLATE]).board
    assert board.rate_hz / ring[0] == pytest.approx(true.ring_hz, rel=0.05)
    assert 0 < ring[1] < 0.05  # lightly damped (the fit leaves the cells' noise as damping)


def test_a_tapped_plate_nulls_its_ringing_from_the_first_event():
    sc = scenario(SLOW_PLATE, seed=SEED)
    ring = tapped(SEED, SCENARIO_PHYSICS[SLOW_PLATE], sc.meta)
    # (Untapped, this plate's ringing was learned only from its events: slow hands' sticks
    # were missed, 3 or more, until the fit on smoothed differences learned it from the first
    # free ringing. The tap's ringing filters from the first sample.)
    det = make_detector(dict(sc.meta, ring=ring))
    assert det._a2 < 0, "the tap's ringing does not start the filter"
    with_tap = evaluate(sc.truth, run_detector(sc.meta, sc.samples, detector=det))
    assert with_tap.misses == []


def test_a_seeded_ringing_is_the_one_a_fit_would_have_confirmed():
    # Seeding round-trips: the stored [samples per cycle, damping] gives back the learned
    # coefficients.
    det = make_detector(
        {"counts_per_gram": [2000.0] * 4, "cell_xy_mm": [[60, 60]] * 4, "stick_g": 8.0}
    )
    a1, a2 = 440, -246
    period, zeta = ringfit.describe(a1, a2)
    ringfit.seed(det, period, zeta)
    assert det.resonance() == (a1, a2)


def test_a_ringing_no_fit_would_accept_is_left_to_learn():
    det = make_detector(
        {
            "counts_per_gram": [2000.0] * 4,
            "cell_xy_mm": [[60, 60]] * 4,
            "stick_g": 8.0,
            "ring": [3.0, 0.6],
        }  # heavily damped: no ringing worth a filter
    )
    assert det.resonance() == (0, 0)
