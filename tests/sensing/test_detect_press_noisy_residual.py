"""A residual near the hand's spot is told as a stick gone after _QUICK samples only where it
stands well clear of the residual's own noise (pressfall.py): on noisy cells, where four times
that noise is over _MAYBE_MM, it must hold _LONG samples like any other (issue 10). Replays a
tuning game of the "noisy" regime (seed 1035) up to that turn: the watch learns the residual's
noise over the game's presses (it is kept from one press to the next)."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector


def test_a_noisy_press_near_the_hand_is_no_stick_gone():
    # Turn 28: a stick pressed on from 104.93 s, let go at 105.97 s; nothing falls until
    # 107.09 s. 280 ms into the press the residual wandered to 90-135 g x mm, over _MAYBE_MM
    # (8 g x 12 mm), for _QUICK samples, its learned noise x 4 being ~120: told "fell 1" before.
    game = tuning_game("noisy", 1035)
    truth = [e["kind"] for e in game.truth_events() if 104000 < e["t_ms"] < 106500]
    assert truth == ["placed"]
    found = run_detector(game.meta, samples_between(game, 0, 106500))
    turn = [e["kind"] for e in found if 104000 < e["t_ms"] < 106500]
    assert turn == ["placed"], found
