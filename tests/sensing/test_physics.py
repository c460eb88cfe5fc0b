"""The virtual tower's issue-10 physics: each effect is there and behaves as a real tower does."""

import math

import pytest

from sticktable.sim.physics import REAL, Physics
from sticktable.sim.tower import Stick, VirtualTower


def grams(tower, sample):
    b = tower.board
    return sum(
        (v - z) / c
        for v, z, c in zip(sample.cells, b.zero_counts, b.counts_per_gram, strict=True)
        if v is not None
    )


def quiet_tower(seed=3, **spec):
    tower = VirtualTower.create(seed, clean=True, physics=dict(REAL, **spec))
    tower.board.wild_p = tower.board.missing_p = 0.0
    return tower


def test_physics_settings_are_drawn_from_their_ranges_and_default_off():
    off = Physics()
    assert off.ring_hz == 0 and not off.rigid and off.accel_arm_mm == 0
    import random

    drawn = [Physics.draw(random.Random(s), REAL) for s in range(20)]
    assert all(10 <= p.ring_hz <= 20 and 0.015 <= p.ring_zeta <= 0.05 for p in drawn)
    assert len({round(p.ring_hz, 3) for p in drawn}) > 10
    with pytest.raises(KeyError):
        Physics.draw(random.Random(1), {"no_such": 1})


def test_a_sudden_load_change_rings_the_plate_lightly_damped():
    tower = quiet_tower(ring_zeta=0.03)
    list(tower.run(500))
    tower.fall([Stick(0, 8.0)], label=False)  # nothing on it: a weightless "stick" leaves
    tower.sticks_on.append(Stick(1, 40.0))  # a sudden 40 g step instead
    after = [grams(tower, s) for s in tower.run(600)]
    level = sum(after[-10:]) / 10
    early = max(abs(g - level) for g in after[:15])
    late = max(abs(g - level) for g in after[35:45])
    assert early > 10  # rings with a good part of the step
    assert 0.05 * early < late < early  # and keeps ringing for hundreds of ms, decaying


def test_a_knock_rings_the_plate_long_after_the_base_is_quiet():
    tower = quiet_tower(knock_ring_g=40.0, ring_zeta=0.015)
    base = list(tower.run(500))
    level = sum(grams(tower, s) for s in base[-20:]) / 20
    tower.knock(strength_mg=500)
    samples = list(tower.run(800))
    later = [s for s in samples if s.t_ms - samples[0].t_ms > 150]
    assert max(abs(s.ax) + abs(s.ay) + abs(s.az - 1000) for s in later) < 120
    assert max(abs(grams(tower, s) - level) for s in later[:20]) > 5


def test_a_rigid_tower_moves_its_centre_of_pressure_to_the_edge_before_it_tilts():
    tower = quiet_tower(rigid=True, footprint_mm=35.0, rest_p=0.0)
    list(tower.run(300))
    tower.topple()
    shifts, tilts = [], []
    for _ in tower.run(400):
        shifts.append(tower.cop_shift_mm)
        tilts.append(tower.tilt_deg)
    first_tilt = next(i for i, t in enumerate(tilts) if t > 0)
    assert shifts[first_tilt] == pytest.approx(35.0, abs=0.5)  # at the edge when tilt begins
    assert all(t == 0 for t in tilts[:first_tilt]) and first_tilt > 5


def test_an_accelerometer_off_the_pivot_reads_more_than_1_g_at_large_angles():
    tower = quiet_tower(accel_arm_mm=60.0, rest_p=0.0)
    list(tower.run(300))
    tower.topple(crumble=True)
    peak = 0.0
    for s in tower.run(2000):
        if 30 < tower.tilt_deg < 80:
            peak = max(peak, math.sqrt(s.ax**2 + s.ay**2 + s.az**2))
    assert peak > 1100


def test_a_toppled_tower_can_rest_leaning_with_weight_on_the_plate():
    tower = quiet_tower(rest_p=1.0, rest_deg=60.0, rest_load=0.5)
    list(tower.run(300))
    tower.topple()
    list(tower.run_until_quiet())
    assert tower.tilt_deg == pytest.approx(60.0)
    assert tower.total_on_plate() > 0.3 * tower.board.tower_g


def test_a_slow_hand_brings_a_stick_over_most_of_a_second():
    tower = quiet_tower(slow_p=1.0, slow_ms=(800.0, 800.0))
    base = list(tower.run(300))
    level = grams(tower, base[-1])
    tower.place(Stick(0, 8.0))
    rising = [grams(tower, s) - level for s in tower.run(700)]
    assert 1.0 < rising[len(rising) // 2] < 7.0  # half way, part of the weight has arrived


def test_falling_sticks_leave_over_their_range_and_can_clip_the_base():
    tower = quiet_tower(leave_ms=(100.0, 100.0), clip_p=1.0)
    sticks = [Stick(i, 8.0) for i in range(3)]
    tower.sticks_on.extend(sticks)
    list(tower.run(300))
    fall = tower.fall(sticks[:1])
    assert fall.slide_ms == 100.0
    list(tower.run(50))
    assert fall.clips  # the stick will hit the base on its way down


def test_a_lean_on_the_table_tilts_the_base_a_little_and_comes_back():
    tower = quiet_tower(lean_deg=(2.0, 2.0))
    list(tower.run(300))
    tower.lean_table()
    tilts = [math.degrees(math.atan2(math.hypot(s.ax, s.ay), s.az)) for s in tower.run(6000)]
    assert 1.5 < max(tilts) < 3.0
    assert tower.lean == (0.0, 0.0)
