"""tests/bench/ring_learned.py: the ringing learned against the plate's, per regime."""

import pytest


@pytest.fixture(scope="module")
def tool(bench_tool):
    return bench_tool("ring_learned")


def test_errors_are_percent_of_the_true_ringing(tool):
    period, damping = tool.errors((7.0, 0.04), (7.07, 0.05))
    assert period == pytest.approx(1.0) and damping == pytest.approx(25.0)


def test_a_regime_line_counts_games_and_those_that_learned_none(tool):
    rows = [(1000, (7.0, 0.04), (6.93, 0.05)), (1001, (5.0, 0.02), (5.05, 0.02))]
    rows.append((1002, (6.0, 0.03), None))
    games, none, bias, size, zbias, zsize = tool.summary(rows).split()
    assert (games, none) == ("3", "1")
    assert float(bias) == pytest.approx(0.0, abs=0.01) and float(size) == pytest.approx(1.0)
    assert float(zbias) == pytest.approx(12.5) and float(zsize) == pytest.approx(12.5)


def test_one_game_learns_the_plate_it_was_played_on(tool, capsys):
    assert tool.main(["--games", "1", "--only", "quiet", "--jobs", "1"]) == 0
    line = [x for x in capsys.readouterr().out.splitlines() if x.startswith("quiet")][0]
    _, games, none, bias, size, _, zsize = line.split()
    assert (games, none) == ("1", "0")
    assert float(size) < 3 and float(zsize) < 50  # (the quiet plate's first game: 0.2 %, 1.7 %)


@pytest.mark.parametrize(
    "args, said", [(["--games", "0"], "--games must be"), (["--only", "nope"], "'nope'")]
)
def test_bad_input_is_one_line_and_exit_2(tool, capsys, args, said):
    assert tool.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("ring_learned: ") and said in err and err.count("\n") == 1
