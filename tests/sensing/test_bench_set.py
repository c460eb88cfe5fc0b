"""The detection bench's --set: one physics setting pushed on every regime it runs (how the
detector fares on physics no regime has), and bad input said in one line."""

import pytest


@pytest.fixture(scope="module")
def bench(bench_tool):
    return bench_tool("bench_detect")


def test_a_pushed_setting_replaces_every_regimes_own(bench):
    pushed = dict([bench.physics_setting("leave_ms=30,150"), bench.physics_setting("cells=3")])
    assert pushed == {"leave_ms": (30.0, 150.0), "cells": 3}
    own = bench.regimes()
    for name, (what, spec) in bench.regimes_with(pushed).items():
        assert what == own[name][0]
        assert spec == dict(own[name][1], leave_ms=(30.0, 150.0), cells=3)
    assert own["independent"][1]["leave_ms"] == (150.0, 220.0)  # (the regimes themselves stay)


def test_settings_take_their_own_kind_of_value(bench):
    assert bench.physics_setting("ring_hz=6,9") == ("ring_hz", (6.0, 9.0))
    assert bench.physics_setting("noise_scale=2") == ("noise_scale", 2.0)
    assert bench.physics_setting("slow_ms=900") == ("slow_ms", (900.0, 900.0))
    assert bench.physics_setting("rigid=0") == ("rigid", False)


@pytest.mark.parametrize(
    "setting, said",
    [
        ("leave=30", "NAME one of"),
        ("leave_ms", "NAME one of"),
        ("leave_ms=fast", "VALUE is a number"),
        ("ring_hz=1,2,3", "VALUE is a number"),
        ("rigid=2", "rigid is 0 or 1"),
        ("cells=5", "cells is 3 or 4"),
    ],
)
def test_a_bad_setting_is_said_in_one_line_and_exits_2(bench, monkeypatch, capsys, setting, said):
    monkeypatch.setattr("sys.argv", ["bench_detect.py", "--set", setting])
    assert bench.main() == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1
