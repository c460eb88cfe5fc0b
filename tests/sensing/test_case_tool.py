"""tests/bench/case.py: one stretch of a bench game, truth against what was told."""

import sys

import pytest


@pytest.fixture(scope="module")
def case(bench_tool):
    return bench_tool("case")


@pytest.fixture(scope="module")
def game():
    from sticktable.sim.detection import run_detector
    from sticktable.sim.game import SimGame
    from sticktable.sim.regimes import REGIMES

    g = SimGame(["Ann", "Bo", "Cy"], seed=1000, physics=REGIMES["original"][1], lively=1.5)
    samples = list(g.samples())
    return g.meta, samples, g.truth_events(), run_detector(g.meta, samples)


def test_a_turn_shows_its_truth_and_what_was_told(case, game, capsys):
    _, _, truth, told = game
    first, last = case.turn_span(truth, 3)
    assert case.main(["original", "1000", "--turn", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    truth_lines = [line for line in out if "TRUTH" in line]
    told_lines = [line for line in out if "told" in line]
    assert len(truth_lines) == sum(1 for e in truth if first <= e["t_ms"] <= last)
    assert len(told_lines) == sum(1 for e in told if first <= e["t_ms"] <= last) > 0
    assert "kind=button turn=3" in truth_lines[0]


def test_samples_and_probes_come_once_a_sample(case, game, capsys):
    meta, samples, _, _ = game
    t = samples[500].t_ms
    args = ["original", "1000", "--at", str(t / 1000), "--window", "0.05", "--samples"]
    assert case.main(args + ["--probe", "det._ep", "--probe", "det.no_such_thing"]) == 0
    out = capsys.readouterr().out.splitlines()
    within = [s for s in samples if abs(s.t_ms - t) <= 50]
    probes = [line for line in out if " probe " in line]
    assert len([line for line in out if " sample " in line]) == len(within) == len(probes)
    assert all(
        "det._ep=" in line and "det.no_such_thing=!AttributeError" in line for line in probes
    )
    assert case.plate(meta, samples[500]).startswith("total")


@pytest.mark.parametrize(
    "args, said",
    [
        (["nois", "1000", "--at", "3"], "unknown regime 'nois'"),
        (["original", "5", "--at", "3"], "seed 5 is not a tuning seed"),
        (["original", "1000", "--at", "3", "--window", "0"], "--window must be above 0"),
        (["original", "1000", "--at", "3", "--probe", "det.("], "--probe 'det.('"),
        (["original", "1000", "--turn", "9999"], "game 1000 has no turn 9999"),
        (["original", "1000", "--at", "3", "--set", "leave=3"], "--set 'leave=3'"),
        (["--scenario", "fall-at-once", "1008", "--at", "3", "--set", "cells=3"], "not a scenario"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(case, capsys, args, said):
    assert case.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("case: ") and said in err and err.count("\n") == 1


def test_calls_name_the_path_that_told_an_event(case, game, capsys):
    _, samples, _, told = game
    placed = next(e for e in told if e["kind"] == "placed")
    args = ["original", "1000", "--at", str(placed["t_ms"] / 1000), "--window", "0.05"]
    assert case.main(args + ["--calls"]) == 0
    out = capsys.readouterr().out.splitlines()
    calls = [line.split() for line in out if "calls" in line]
    within = [s for s in samples if abs(s.t_ms - placed["t_ms"]) <= 50]
    assert len(calls) == len(within)  # (one line a sample)
    at = [c for c in calls if round(float(c[0]) * 1000) == placed["t_ms"]]
    assert "_place" in at[0][2:]
    assert sys.getprofile() is None  # (the tracing is off again)


def test_a_scenario_plays_by_its_name_with_scenario(case, capsys):
    # The bench's scenario misses read "fall-at-once/1008 ...": --scenario looks at them.
    from sticktable.sim.scenarios import scenario

    truth = scenario("fall-at-once", seed=1008).truth
    fell = next(e for e in truth if e["kind"] == "fell")
    at = ["1008", "--at", str(fell["t_ms"] / 1000), "--window", "0.1"]
    assert case.main(["--scenario", "fall-at-once", *at]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("fall-at-once game 1008")
    assert any("TRUTH  kind=fell" in line for line in out)
    # Without it the name is a regime's: "slow-hands" names a regime and a scenario both, and
    # the regime's miss lines ("slow-hands game 1090 ...") are the regime's game.
    assert case.main(["fall-at-once", *at]) == 2
    assert "unknown regime 'fall-at-once'" in capsys.readouterr().err
    assert case.main(["--scenario", "noisy", *at]) == 2
    assert "unknown scenario 'noisy'" in capsys.readouterr().err


def test_a_setting_pushed_plays_the_regimes_game_on_it(case, capsys):
    # (as bench_detect.py --set: the original tower's game 1000 with 12 g sticks, not 8 g)
    assert case.main(["original", "1000", "--turn", "3", "--set", "stick_g=12"]) == 0
    out = capsys.readouterr().out.splitlines()
    grams = [float(line.rsplit("grams=", 1)[1]) for line in out if "TRUTH  kind=placed" in line]
    assert grams and all(11.4 <= g <= 12.6 for g in grams)
