"""The detection bench reports only on seeds the detector was never tuned on."""

import re
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def bench(bench_tool):
    return bench_tool("bench_detect")


def test_tuning_and_reporting_seeds_never_meet(bench):
    widest = bench.report_seeds(bench.MAX_REPORT)
    assert not set(widest) & set(bench.TUNING_SEEDS)
    with pytest.raises(ValueError):
        bench.report_seeds(bench.MAX_REPORT + 1)


def test_no_test_plays_a_scenario_on_its_reporting_seeds(bench):
    assert not set(bench.SCENARIO_SEEDS) & set(bench.TUNING_SEEDS)
    seeds = "|".join(str(seed) for seed in bench.SCENARIO_SEEDS)
    for path in Path(__file__).parent.glob("*.py"):
        if path.name != Path(__file__).name:
            assert not re.search(rf"\b({seeds})\b", path.read_text()), path.name


def test_the_independent_regime_lies_outside_the_tuned_ranges(bench):
    from sticktable.sim.physics import REAL

    independent = bench.regimes()["independent"][1]
    for name in ("ring_hz", "ring_zeta", "footprint_mm", "accel_arm_mm", "leave_ms"):
        lo, hi = REAL[name]
        olo, ohi = independent[name]
        assert ohi <= lo or olo >= hi, name


def test_more_scenario_seeds_only_among_the_tuning_seeds(bench, monkeypatch, capsys):
    # (--scenario-seeds widens the scenarios' tuning seeds; their reporting seeds stay three)
    monkeypatch.setattr("sys.argv", ["bench_detect.py", "--scenario-seeds", "9"])
    assert bench.main() == 2
    assert "needs --tuning" in capsys.readouterr().err


def test_a_cached_game_is_the_game_as_played(bench, tmp_path):
    physics = bench.regimes()["real"][1]
    played = bench.played(1000, physics, False, None)
    assert bench.played(1000, physics, False, str(tmp_path)) == played  # played, then kept
    (kept,) = tmp_path.glob("*.pickle")
    assert bench.played(1000, physics, False, str(tmp_path)) == played  # read back
    noisy = bench.regimes()["noisy"][1]
    assert bench.played(1000, noisy, False, str(tmp_path))[1] != played[1]  # its own entry
    assert len(list(tmp_path.glob("*.pickle"))) == 2 and kept.exists()


def test_the_tuning_tools_play_only_tuning_seeds(bench, capsys):
    from types import SimpleNamespace as Args

    jobs = bench.tuning_jobs("tool", Args(games=3, only="quiet,noisy", cache=None), ())
    assert [(j[0], j[1]) for j in jobs] == [
        (r, s) for r in ("quiet", "noisy") for s in bench.TUNING_SEEDS[:3]
    ]
    every = bench.tuning_jobs("tool", Args(games=1, only=None, cache=None), ("original",))
    assert "original" not in {j[0] for j in every} and "independent" in {j[0] for j in every}
    for games, only, said in [(0, None, "--games must be"), (1, "quiet,nope", "'nope'")]:
        assert bench.tuning_jobs("tool", Args(games=games, only=only, cache=None), ()) is None
        err = capsys.readouterr().err
        assert err.startswith("tool: ") and said in err and err.count("\n") == 1


@pytest.mark.parametrize("tool", ["ring_learned", "ring_worth"])
@pytest.mark.parametrize(
    "args, said", [(["--games", "0"], "--games must be"), (["--only", "nope"], "'nope'")]
)
def test_a_tuning_tool_says_bad_input_in_one_line_and_exits_2(bench_tool, capsys, tool, args, said):
    assert bench_tool(tool).main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{tool}: ") and said in err and err.count("\n") == 1
