"""A stick that falls a few mm from a pressing hand, while the hand presses another on, is
"placed" and "fell 1", not a touch (issue 10): back at the old level the moments stay moved
by a stick that far, past what the two 8-sample means leave of a touch on the board's noise
(settle.swapped). Replays a tuning game of the "overlap" regime (seed 1009) up to that turn:
the board's noise is learned over the game."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector


def test_a_stick_gone_9_mm_from_the_pressing_hand_is_placed_and_fell():
    # Turn 84: a stick pressed on from 383.5 s, let go at 384.24 s; 83 ms into the press
    # another falls, ~9 mm from the hand's spot: too near for the press watch's line, and the
    # moments back at the level stood moved by 11.8 mm x stick, under the 40 asked for a
    # shift the watch had not seen: told "touch" before.
    game = tuning_game("overlap", 1009)
    truth = [e["kind"] for e in game.truth_events() if 383000 < e["t_ms"] < 385000]
    assert truth == ["fell", "placed"]
    found = run_detector(game.meta, samples_between(game, 0, 385000))
    turn = [e["kind"] for e in found if 383000 < e["t_ms"] < 385000]
    assert turn == ["placed", "fell"], found
