"""A stick seen leaving while a hand presses another on, and the hand then holding its stick,
the total steady one stick over the old level: that level is placed (it cannot be told from a
stick resting there), and the hand's let-go, back to the old level soon after, is no fall (the
placement was the one for the fallen one)."""

from dataclasses import replace

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import make_detector, run_detector


def test_a_hand_letting_go_of_its_stick_after_a_fall_under_its_press_is_no_fall():
    # Overlap game (tuning seed 1007), turn 19: a stick falls at 83.60 s (told at 83.74 s by
    # the press watch) while a hand places another and holds it, steady one stick over the old
    # level (placed at 83.97 s), until it lets go at 84.15 s; the let-go was told as a second
    # fall (84.25 s): the turn read 2 falls where 1 fell.
    game = tuning_game("overlap", 1007)
    found = [
        e
        for e in run_detector(game.meta, samples_between(game, 78000, 86000))
        if 83000 <= e["t_ms"] <= 86000
    ]
    fell = [e for e in found if e["kind"] == "fell"]
    assert sum(e["count"] for e in fell) == 1, found
    assert 83603 < fell[0]["t_ms"] < 83803, found
    assert len([e for e in found if e["kind"] == "placed"]) == 1, found


def test_fall_onsets_wait_for_a_let_go_only_while_it_can_come():
    # The same placement (83.97 s) marks its hand as maybe still holding, and fall onsets wait
    # meanwhile. Here the hand never lets go (the plate reads on as it did at 84.05 s): 0.8 s
    # on, a let-go can no longer come, and the mark must be gone, or every later fall would
    # wait for its level to settle until the next placement.
    game = tuning_game("overlap", 1007)
    det = make_detector(game.meta)
    samples = samples_between(game, 78000, 84050)
    run_detector(game.meta, samples, detector=det)
    assert det._held, "the placement at 83.97 s is no longer marked held: the test's premise"
    last = samples[-1]
    steady = [replace(last, t_ms=last.t_ms + 12 * k) for k in range(1, 90)]
    run_detector(game.meta, steady, detector=det)
    assert not det._held
