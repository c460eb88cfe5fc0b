"""No rest of a stick after a placement told unweighed (issue 10, the "independent" regime's
tuning game 1081).

A stick fell while the next was pressed on (304.8 s), and the level came back where it was:
"placed" is told one on for one off, with no weight of its own. 2.4 s later a slow hand's
stick arrived in two parts; its first 5 g held still for a window, and were taken as the
rest of the tower's top stick (an older one, which they brought to 117 % of a stick). The
remaining 7 g were no stick: the placement was missed and the next fall of two (309.5 s)
was counted as one."""

from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector
from sticktable.sim.evaluate import PLACED_WINDOW, match_times


def test_a_slow_hands_first_grams_are_no_rest_of_an_unweighed_placement():
    game = tuning_game("independent", 1081)
    events = run_detector(game.meta, samples_between(game, 0, 310200))
    truth = [e for e in game.truth_events() if 304000 <= e["t_ms"] <= 310200]
    assert [e["kind"] for e in truth if e["kind"] in ("placed", "fell")] == [
        "fell",
        "placed",
        "placed",
        "fell",
    ]
    want = [e["t_ms"] for e in truth if e["kind"] == "placed"]
    seen = [e["t_ms"] for e in events if e["kind"] == "placed" and e["t_ms"] >= 304000]
    pairs, _ = match_times(want, seen, PLACED_WINDOW)
    assert all(f is not None for _, f in pairs), (pairs, events[-6:])
    fell = [e["count"] for e in events if e["kind"] == "fell" and e["t_ms"] >= 309000]
    assert sum(fell) == 2, events[-6:]
