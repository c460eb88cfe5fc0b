"""The detector and hands on the issue-10 physics: a slow hand's stick after a long stillness,
a touch on a plate that rings for a second after the hand lets go (tablefw/detect.py)."""

import pytest
from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector
from sticktable.sim.evaluate import evaluate
from sticktable.sim.physics import REAL
from sticktable.sim.tower import Stick, VirtualTower


def play(seed, physics, script, **board):
    """Run `script(tower, samples)` on a virtual tower; returns (events, tally)."""
    tower = VirtualTower.create(seed, physics=physics, **board)
    samples = list(tower.run(3000))  # armed once still, and still long enough to resync
    script(tower, samples)
    samples.extend(tower.run(2000))
    truth = sorted(tower.truth, key=lambda e: e["t_ms"])
    found = run_detector(tower.board.meta(), samples)
    return found, evaluate(truth, found, f"seed {seed}")


def place(tower, samples, n, still_ms):
    g = tower.board.stick_g
    for i in range(n):
        tower.place(Stick(i, g))
        samples.extend(tower.run_until_quiet())
        samples.extend(tower.run(still_ms))


@pytest.mark.parametrize("seed", [1000, 1001, 1002])
def test_a_slow_hand_after_a_long_stillness_places_its_stick(seed):
    # Each stick's weight arrives over 1-1.2 s, smoothly, after 2.5 s of stillness: the level
    # must not be walked up with it (resync), or the stick is never placed.
    slow = dict(REAL, slow_p=1.0, slow_ms=(1000.0, 1200.0), steady_p=1.0, overlap_p=0.0)
    script = lambda tower, samples: place(tower, samples, 4, 2500)  # noqa: E731
    found, tally = play(seed, slow, script, stick_g=12.0, noise_scale=3.0)
    assert tally.placed_found == tally.placed_truth == tally.placed_reported == 4, tally.misses
    assert not [e for e in found if e["kind"] == "fell"]


# Boards whose plate resonance is learned from the landings before the first knock (on the
# others the knock's ringing goes unnulled for a second: the resonance learning's limit).
@pytest.mark.parametrize("seed", [1000, 1001, 1003, 1007])
def test_a_touch_is_reported_while_the_plate_still_rings(seed):
    # Heavy ringing (zeta 0.01, a knock just before) keeps the plate from a still window for
    # a second and more after the hand lets go; the touch must come within the scoring window.
    ringing = dict(
        REAL, ring_zeta=(0.01, 0.012), knock_ring_g=(40.0, 60.0), overlap_p=0.0, lean_p=0.0
    )

    def script(tower, samples):
        place(tower, samples, 2, 1500)  # the plate's ringing is learned from the landings
        for _ in range(3):
            tower.knock()  # rings the plate with tens of grams
            samples.extend(tower.run(300))
            tower.touch()
            samples.extend(tower.run_until_quiet())
            samples.extend(tower.run(1500))

    found, tally = play(seed, ringing, script)
    assert tally.touches_found == tally.touches_truth == 3, tally.misses
    assert tally.false_touches == 0, tally.misses
    assert tally.placed_found == tally.placed_reported == 2, tally.misses


# 1018: the first stick's sway (no ringing learned yet) keeps its 4-sample spread above the
# band from soon after it is seen resting until it drops; the others guard the common case.
@pytest.mark.parametrize("seed", [1000, 1001, 1018])
def test_a_slow_hands_first_stick_that_falls_just_after_the_release_is_placed_and_fell(seed):
    # Its weight arrives over most of a second; it rests a quarter of a second after the hand
    # lets go, then drops. Seen resting as it arrived, it rests on while its level holds one
    # stick within a few bands: a placement and a fall, not a touch.
    slow = dict(REAL, slow_p=1.0, overlap_p=0.0, lean_p=0.0)

    def script(tower, samples):
        tower.place(Stick(0, tower.board.stick_g), fall_after_ms=260.0)
        samples.extend(tower.run_until_quiet())
        samples.extend(tower.run(1500))

    found, tally = play(seed, slow, script)
    assert [e["count"] for e in found if e["kind"] == "fell"] == [1], found
    assert tally.placed_found == tally.placed_reported == 1, tally.misses
    assert not [e for e in found if e["kind"] == "touch"], found


@pytest.mark.parametrize("seed", [1001, 1003])
def test_a_slow_hand_after_a_stick_weighed_short_places_its_own_stick(seed):
    # Every other stick weighs 9.5 g on a 12 g board (as a stick weighed short on a level left
    # high does); the next stick's weight then arrives over 0.8-0.9 s, 0.9 s after it settled.
    # Its first grams are no rest of the light stick (the level is still rising), so it is
    # placed on time, not a second late or never.
    slow = dict(REAL, slow_p=1.0, slow_ms=(800.0, 900.0), steady_p=1.0, overlap_p=0.0)

    def script(tower, samples):
        for i in range(4):
            tower.place(Stick(i, 9.5 if i % 2 == 0 else tower.board.stick_g))
            samples.extend(tower.run_until_quiet())
            samples.extend(tower.run(900))

    _, tally = play(seed, slow, script, stick_g=12.0)
    assert tally.placed_found == tally.placed_truth == tally.placed_reported == 4, tally.misses


@pytest.mark.parametrize("seed", [1000, 1003, 1009])
def test_the_level_is_retaken_once_per_stillness_not_walked_up_with_a_slow_hand(seed):
    # A clean board, 3 s still, then 9.5 g sticks (a 12 g board's stick weighed short) arriving
    # over 0.8-0.9 s. Before: still for 2 s, the level was re-taken at every sample and walked
    # up with the first stick's first grams by up to half a band; the rest fell short of a
    # stick, and the stick came out a second late or as an extra placement.
    slow = dict(REAL, slow_p=1.0, slow_ms=(800.0, 900.0), steady_p=1.0, overlap_p=0.0)

    def script(tower, samples):
        for i in range(4):
            tower.place(Stick(i, 9.5))
            samples.extend(tower.run_until_quiet())
            samples.extend(tower.run(2500))

    _, tally = play(seed, slow, script, clean=True, stick_g=12.0)
    assert tally.placed_found == tally.placed_reported == 4, tally.misses
    assert max(tally.latency["placed"]) < 300, tally.latency


def test_a_slow_stick_s_first_grams_after_a_fall_are_no_rest_of_the_stick_that_fell():
    # Noisy tuning game 1034: a stick placed at 74.96 s falls at 75.15 s; the next stick's
    # weight arrives slowly from 76.2 s (released 77.15 s). Before: its first 2.8 g were taken
    # at 76.87 s as the rest of the stick placed last (which had gone), the other 5 g fell
    # short of a stick, and it was placed only 1.4 s after its release, as a level held.
    game = tuning_game("noisy", 1034)
    found = run_detector(game.meta, samples_between(game, 0, 78500))
    placed = [e["t_ms"] for e in found if e["kind"] == "placed" and 76000 < e["t_ms"]]
    assert placed and placed[0] < 77145 + 300, placed
