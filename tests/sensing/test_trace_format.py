"""Sensor traces: written and read per host/docs/formats/sensor-trace.md; broken files refused
by line."""

import json
import subprocess
import sys

import pytest

from sticktable.errors import InputRefused
from sticktable.sim.scenarios import scenario
from sticktable.sim.trace import parse_trace, read_trace, write_trace

META = {
    "rate_hz": 80,
    "cells": 4,
    "counts_per_gram": [2150.5, -2100, 2200, 2000],
    "cell_xy_mm": [[-70, -70], [70, -70], [70, 70], [-70, 70]],
    "stick_g": 8.0,
    "sticks": 36,
    "accel": "base-mg",
}
HEADER = "t_ms,lc0,lc1,lc2,lc3,ax,ay,az"


def text(*rows, meta=None, header=HEADER):
    first = "# sticktrace 1 " + json.dumps(META if meta is None else meta)
    return "\n".join([first, header, *rows]) + "\n"


def test_written_traces_read_back_the_same(tmp_path):
    sc = scenario("missing", seed=1)
    path = tmp_path / "t.csv"
    write_trace(path, sc.meta, sc.samples)
    meta, samples = read_trace(path)
    assert meta == sc.meta
    assert [(s.t_ms, s.cells, s.ax, s.ay, s.az) for s in samples] == [
        (s.t_ms, s.cells, s.ax, s.ay, s.az) for s in sc.samples
    ]
    assert any(None in s.cells for s in samples)
    lines = path.read_text().split("\n")
    assert lines[0].startswith("# sticktrace 1 {") and lines[1] == HEADER


def test_empty_fields_and_wild_values_are_data():
    meta, samples = parse_trace(text("0,1,,3,4,0,0,1000", "12,8388607,-8388608,99999999,4,,0,1000"))
    assert samples[0].cells == (1, None, 3, 4)
    assert samples[1].cells == (8388607, -8388608, 8388607, 4)
    assert samples[1].ax is None
    assert meta["stick_g"] == 8.0
    _, wild = parse_trace(text("0,1,2,3,4,99999999999,-99999999999,1000"))
    assert (wild[0].ax, wild[0].ay) == (32767, -32767)  # a wild accelerometer value is held


def test_unknown_meta_keys_are_ignored_and_crlf_is_tolerated():
    meta = dict(META, board="b1", firmware="0.1")
    _, samples = parse_trace(text("0,1,2,3,4,0,0,1000\r", meta=meta))
    assert samples[0].az == 1000


@pytest.mark.parametrize(
    "content, line",
    [
        ("", "line 1"),
        ("t_ms,lc0\n", "line 1"),
        ("# sticktrace 2 {}\n", "line 1"),
        ("# sticktrace 1 {not json\n" + HEADER + "\n", "line 1"),
        ("# sticktrace 1 []\n", "line 1"),
        (text(meta={k: v for k, v in META.items() if k != "counts_per_gram"}), "line 1"),
        (text(meta=dict(META, cells=3)), "line 1"),
        (text(meta=dict(META, counts_per_gram=[1, 2, 0, 3])), "line 1"),
        (text(meta=dict(META, zero_counts=[1, 2, 3])), "line 1"),
        (text(header="t_ms,lc0,lc1,lc2,ax,ay,az"), "line 2"),
        ("# sticktrace 1 " + json.dumps(META) + "\n", "line 2"),
        (text("0,1,2,3,4,0,0"), "line 3"),
        (text("0,1,2,3,4,0,0,1000", "5,1,2,3,4,0,0,1000,7"), "line 4"),
        (text("0,1,2,3,4,0,0,1000", "5,1,2,x3,4,0,0,1000"), "line 4"),
        (text("0,1,2,3,4,0,0,1000", "5,1,2,3,4,0,0,1.5"), "line 4"),
        (text("10,1,2,3,4,0,0,1000", "10,1,2,3,4,0,0,1000"), "line 4"),
        (text("0,1,2,3,4,0,0,1000", ",1,2,3,4,0,0,1000"), "line 4"),
        (text("0,1,2,3,4,0,0,1000", ""), "line 4"),
        # Numbers a 32-bit detector cannot hold: refused, never a traceback.
        (text(meta=dict(META, counts_per_gram=[3e9, 1, 1, 1])), "line 1"),
        (text(meta=dict(META, zero_counts=[99999999999, 0, 0, 0])), "line 1"),
        (text("0,1,2,3,4,0,0,1000", "99999999999999,1,2,3,4,0,0,1000"), "line 4"),
    ],
)
def test_broken_traces_are_refused_naming_the_line(content, line):
    with pytest.raises(InputRefused) as refused:
        parse_trace(content)
    assert str(refused.value).startswith(line + ":")


def test_detect_command_refuses_with_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(text("0,1,2,3,4,0,0,1000", "5,1,2,three,4,0,0,1000"))
    done = subprocess.run(
        [sys.executable, "-m", "sticktable", "detect", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"sticktable: {bad} line 4: lc2 is not an integer: 'three'"
    ]


def test_simulate_then_detect_prints_spec_json_lines(tmp_path):
    trace, truth = tmp_path / "s.csv", tmp_path / "s.jsonl"
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "sticktable",
            "simulate",
            "--scenario",
            "burst",
            "--seed",
            "2",
            "--out",
            str(trace),
            "--truth",
            str(truth),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    done = subprocess.run(
        [sys.executable, "-m", "sticktable", "detect", str(trace)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert {e["kind"] for e in events} == {"placed", "fell"}
    assert all(isinstance(e["t_ms"], int) for e in events)
    assert all(
        isinstance(e["count"], int) and e["count"] >= 1 for e in events if e["kind"] == "fell"
    )
    want = sum(
        json.loads(line).get("count", 0)
        for line in truth.read_text().splitlines()
        if json.loads(line)["kind"] == "fell"
    )
    assert sum(e.get("count", 0) for e in events) == want
