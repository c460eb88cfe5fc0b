"""tests/bench/fell_late.py: the bench's fell latency split by what each fall met."""

import pytest

from sticktable.sim.evaluate import percentile


@pytest.fixture(scope="module")
def tool(bench_tool):
    return bench_tool("fell_late")


def _hand(kind, onset, release):
    return {"kind": kind, "onset_ms": onset, "t_ms": release}


def test_a_fall_is_put_with_the_first_thing_it_met(tool):
    truth = [
        _hand("placed", 1000, 2000),
        {"kind": "knock", "t_ms": 5000},
        _hand("touch", 5100, 5400),
    ]
    assert tool.met(truth, 1500) == "under a hand"
    assert tool.met(truth, 5300) == "under a hand"  # (a touch after the knock)
    assert tool.met(truth, 5500) == "after a knock"  # (and 100 ms after the touch)
    assert tool.met(truth, 2200) == "just released"
    assert tool.met(truth, 2400) == "free"
    assert tool.met(truth, 6100) == "free"  # (1.1 s after the knock)


def test_boxcars_split_fast_plates_from_slow_ones(tool):
    assert [tool.boxcar_part(n) for n in (4, 8, 10, 11, 12, 14)] == [
        "boxcar 4", "boxcar 5-9", "boxcar 10-11", "boxcar 10-11", "boxcar 12+", "boxcar 12+"
    ]  # fmt: skip


def test_one_game_measures_its_turns_as_the_bench_does(tool, bench_tool, capsys):
    # (the tool's "all" line against the bench's own tally of the same game: the same turns,
    # the same p50 and p95; a split part line for each turn too)
    # (--over 0 --late: every turn is over, and listed once)
    assert (
        tool.main(["--games", "1", "--only", "real", "--jobs", "1", "--over", "0", "--late"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    parts = {line[:16].strip(): line.split()[-4:] for line in lines if line.startswith("  ")}
    bench = bench_tool("bench_detect")
    job = ("real", 1000, bench.regimes()["real"][1], True, False, None)
    latencies = bench.one_game(job)[2].latency["fell"]
    assert len(latencies) >= 3  # (6 in the first real game)
    turns, p50, p95, _ = parts["all"]
    assert int(turns) == len(latencies)
    assert (int(p50), int(p95)) == (percentile(latencies, 50), percentile(latencies, 95))
    assert sum(int(parts[m][0]) for m in tool.MET) == len(latencies)
    assert sum(int(parts[b][0]) for b in tool.BOXCARS) == len(latencies)
    listed = [line for line in lines if line.startswith("- real 1000 at ")]
    assert len(listed) == len(latencies)
    assert sorted(int(line.split(": ")[1].split()[0]) for line in listed) == sorted(latencies)


def test_the_p95_allows_the_turns_past_its_index_over_the_target(tool):
    # (1,296 turns: the p95 is the sorted latencies' 1,231st, so 65 may lie beyond it)
    assert [tool.allowed_over(n) for n in (0, 1, 20, 1296)] == [0, 0, 1, 65]
    assert percentile([150] * 1231 + [250] * 65, 95) == 150
    assert percentile([150] * 1230 + [250] * 66, 95) == 250


def test_an_unknown_regime_is_one_line_and_exit_2(tool, capsys):
    assert tool.main(["--only", "nowhere"]) == 2
    assert "unknown regime 'nowhere'" in capsys.readouterr().err
