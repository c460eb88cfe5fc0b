"""tests/bench/ring_learned.py: the ringing learned against the plate's, per regime."""

import pytest


@pytest.fixture(scope="module")
def tool(bench_tool):
    return bench_tool("ring_learned")


def test_errors_are_percent_of_the_true_ringing(tool):
    period, damping = tool.errors((7.0, 0.04), (7.07, 0.05))
    assert period == pytest.approx(1.0) and damping == pytest.approx(25.0)


def test_a_regime_line_counts_games_and_those_that_learned_none(tool):
    rows = [(1000, (7.0, 0.04), (6.93, 0.05), 9.0), (1001, (5.0, 0.02), (5.05, 0.02), 4.0)]
    rows += [(1002, (6.0, 0.03), None, None), (1003, (6.0, 0.03), (6.0, 0.03), 30.0)]
    games, none, bias, size, zbias, zsize, median, latest = tool.summary(rows).split()
    assert (games, none, median, latest) == ("4", "1", "9.0", "30.0")
    assert float(bias) == pytest.approx(0.0, abs=0.01) and float(size) == pytest.approx(
        2 / 3, abs=0.01
    )
    assert float(zbias) == pytest.approx(25 / 3, abs=0.1)
    assert float(zsize) == pytest.approx(25 / 3, abs=0.1)


def test_one_game_learns_the_plate_it_was_played_on(tool, capsys):
    assert tool.main(["--games", "1", "--only", "quiet", "--jobs", "1"]) == 0
    line = [x for x in capsys.readouterr().out.splitlines() if x.startswith("quiet")][0]
    _, games, none, bias, size, _, zsize, median, latest = line.split()
    assert (games, none) == ("1", "0") and 0 < float(median) == float(latest) < 60
    assert float(size) < 3 and float(zsize) < 50  # (the quiet plate's first game: 0.2 %, 1.7 %)


def test_fit_bands_average_each_band_over_the_games(tool):
    games = [[[2, -4.0, 6.0], [0, 0.0, 0.0], [1, -1.0, 0.5], [0, 0.0, 0.0]]]
    games.append([[2, -2.0, 2.0], [0, 0.0, 0.0], [1, -1.0, -0.5], [0, 0.0, 0.0]])
    lines = [line.split() for line in tool.fit_bands(games)]
    assert lines == [
        ["weight", "128-511", "4", "fits", "a1", "-1.50", "a2", "+2.00"],
        ["weight", "2048-8191", "2", "fits", "a1", "-1.00", "a2", "+0.00"],
    ]


def test_fits_lists_a_regimes_bands_under_its_line(tool, capsys):
    assert tool.main(["--games", "1", "--only", "quiet", "--jobs", "1", "--fits"]) == 0
    out = capsys.readouterr().out.splitlines()
    at = [i for i, x in enumerate(out) if x.startswith("quiet")][0]
    bands = [x.split() for x in out[at + 1 :]]
    assert bands and all(b[0] == "weight" and int(b[2]) > 0 for b in bands)
