"""A level back where it was within half a second of a fall, by all that fall's drop, is no
weight gone: the fall's level was taken in a dip (a knock the base hardly felt). The level is
taken again, else it stands that far above the level like a hand pressing, the episode runs
on for 3 s and swallows the next stick (settle._dip_back)."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector


def test_a_knocks_dip_taken_for_a_fall_does_not_swallow_the_next_stick():
    # Noisy game (tuning seed 1043), 186-197 s: a stick placed (193.9 s), a knock on the
    # tower the base hardly felt (194.16 s): its dip of 0.7 stick was told as "fell 1" and
    # its level taken; the level came back 0.7 stick up at once and stood there, an episode
    # open as if a hand pressed, until the next stick (196.4 s) arrived inside it: missed.
    game = tuning_game("noisy", 1043)
    found = run_detector(game.meta, samples_between(game, 186000, 197000))
    truth = [e for e in game.truth_events() if 195000 <= e["t_ms"] <= 197000]
    assert [e["kind"] for e in truth] == ["placed"]
    after = [e["kind"] for e in found if e["t_ms"] > 195000]
    assert after == ["placed"], found
