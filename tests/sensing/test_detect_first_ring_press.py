"""A press whose hand line was fitted while the plate's first ringing was not learned yet is
fitted again once it is (issue 10).

The press watch (tablefw/pressfall.py) fits the hand's spot as a line in (total, moments). A
first press that rings the plate hard before any ringing is learned feeds it the raw ringing;
once the ringing is learned (tablefw/ringfit.py renull), the nulled load, still and off that
line, stood off it like a stick gone."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector


def test_a_first_press_is_no_fall_once_its_ringing_is_learned():
    # Independent tower (tuning seed 1029): a 100 g first press at 3.3 s rings the plate
    # +-150 g for 4 s; two sticks are placed in that one episode (4.14 s, 7.37 s), the ringing
    # is learned at 7.19 s, and "fell 1" was told at 7.35 s. Two sticks fall at 8.55 s.
    game = tuning_game("independent", 1029)
    truth = [e for e in game.truth_events() if e["t_ms"] < 9000 and e["kind"] == "fell"]
    assert [(e["t_ms"], e["count"]) for e in truth] == [(8552, 2)], truth
    found = run_detector(game.meta, samples_between(game, 0, 9000))
    fell = [(e["t_ms"], e["count"]) for e in found if e["kind"] == "fell"]
    assert all(t > 8500 for t, _ in fell), fell
    assert sum(n for _, n in fell) == 2, fell
