"""tests/bench/ring_worth.py: the tuning misses with the plate's own ringing given and held."""

import pytest
from tuning_games import samples_between, tuning_game

from sticktable.sim.detection import run_detector
from tablefw.calibrator import make_detector


@pytest.fixture(scope="module")
def tool(bench_tool):
    return bench_tool("ring_worth")


def test_a_regime_line_counts_what_went_and_came_against_as_is(tool):
    games = [
        {"as-is": {"a", "b"}, "given": {"a"}, "held": {"c"}, "held-learned": {"a", "b"}},
        {"as-is": set(), "given": {"d"}, "held": set(), "held-learned": set()},
    ]
    assert tool.summary(games).split() == ["2", "2", "-1", "+1", "1", "-2", "+1", "2", "-0", "+0"]


def test_held_keeps_the_ringing_given_and_then_lets_fits_go_on(tool):
    # The first 20 s of a tuning game: its events' ringing refits a ringing given that is
    # not its plate's (7 samples a cycle, damped 0.05), unless held.
    game = tuning_game("ring-heavy", 1000)
    samples = samples_between(game, 0, 20000)
    given = dict(game.meta, ring=[7.0, 0.05])
    start = make_detector(given).resonance()
    det = make_detector(given)
    with tool.held():
        run_detector(given, samples, detector=det)
    assert det.resonance() == start
    det = make_detector(given)
    run_detector(given, samples, detector=det)
    assert det.resonance() != start


def test_one_game_scores_every_way(tool, capsys):
    assert tool.main(["--games", "1", "--only", "quiet", "--jobs", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["regime", "as-is", "given", "held", "held-learned"]
    quiet = [x for x in out if x.startswith("quiet")][0].split()
    assert len(quiet) == 11 and quiet[3].startswith("-") and quiet[4].startswith("+")
