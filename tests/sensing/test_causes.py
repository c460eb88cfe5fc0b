"""The bench's miss causes (sim/causes.py) name what "other" used to hide: a placement
reported more than a second late counts as one late placement, not as a miss and an unrelated
extra; an extra placement at a touch says so."""

from sticktable.sim.causes import causes


def _truth():
    return [
        {"kind": "placed", "t_ms": 10000, "onset_ms": 8800, "turn": 1},
        {"kind": "touch", "t_ms": 20000, "onset_ms": 19500, "turn": 2},
    ]


def test_a_placement_reported_late_is_named_late():
    misses = ["g placed missed at 10000", "g placed extra at 11500"]
    got = causes(_truth(), misses)
    assert got["placed late (> 1 s): slow hand (> 0.9 s)"] == 1
    assert got["extra placed: a placement reported late (> 1 s)"] == 1
    assert not any(name.startswith("placed missed") for name in got)


def test_an_extra_long_after_a_miss_is_not_its_late_report():
    misses = ["g placed missed at 10000", "g placed extra at 14500"]
    got = causes(_truth(), misses)
    assert got["placed missed: slow hand (> 0.9 s)"] == 1
    assert got["extra placed: other"] == 1


def test_an_extra_placement_at_a_touch_is_named():
    got = causes(_truth(), ["g placed extra at 20200"])
    assert got == {"extra placed: at a touch": 1}
