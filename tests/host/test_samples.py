"""The table's raw-sample tap: live readings throttled, each sensed event's window journaled."""

from __future__ import annotations

import math

import pytest

from sticktable.samples import COLUMNS, POST_MS, PRE_MS, SampleTap, tilt

CAL = {
    "k": "cal",
    "counts_per_gram": [100.0, 200.0, 100.0, 200.0],
    "zero_counts": [1000, 2000, 3000, 4000],
    "cell_xy_mm": [[-50, -50], [50, -50], [50, 50], [-50, 50]],
}


class Recorder:
    def __init__(self):
        self.sent, self.traces, self.published = [], [], []
        self.now = 0.0

    def tap(self) -> SampleTap:
        return SampleTap(
            lambda kind, **f: self.sent.append((kind, f)),
            lambda kind: True,
            lambda fact, columns, rows: self.traces.append((fact, columns, rows)),
            self.published.append,
            clock=lambda: self.now,
        )


def raw(t: int, grams: list[float], accel=(0, 0, 1000)) -> dict:
    counts = [
        int(z + g * k)
        for z, g, k in zip(CAL["zero_counts"], grams, CAL["counts_per_gram"], strict=True)
    ]
    return {"k": "raw", "t": t, "lc": counts, "a": list(accel)}


def test_a_hello_asks_for_the_stream_and_the_calibration():
    rec = Recorder()
    rec.tap().see({"k": "hello", "cells": 4})
    assert [kind for kind, _ in rec.sent] == ["stream", "calq"]
    assert rec.sent[0][1] == {"on": True}


def test_the_window_around_a_sensed_event_is_journaled_once_complete():
    rec = Recorder()
    tap = rec.tap()
    tap.see(CAL)
    for t in range(0, 6000, 12):
        grams = [10.0, 10.0, 10.0, 10.0] if t < 3000 else [10.0, 10.0, 30.0, 10.0]
        tap.see(raw(t, grams))
        if t == 3000:
            tap.see({"k": "placed", "t": 3000, "s": 7, "g": 200})
            assert not rec.traces  # the samples after it are still to come
    assert len(rec.traces) == 1
    fact, columns, rows = rec.traces[0]
    assert fact["s"] == 7 and columns[: len(COLUMNS)] == list(COLUMNS)
    assert columns[len(COLUMNS) :] == ["cell0_g", "cell1_g", "cell2_g", "cell3_g"]
    times = [row[0] for row in rows]
    assert min(times) >= -PRE_MS and max(times) <= POST_MS and min(times) < -PRE_MS + 20
    before = rows[0]
    after = rows[-1]
    assert before[1] == pytest.approx(40.0) and after[1] == pytest.approx(60.0)
    assert before[2:4] == [0.0, 0.0]
    # 20 g more over the (+50, +50) cell: the centre of pressure moves towards it
    assert after[2] == pytest.approx(20 * 50 / 60, abs=0.1) and after[3] == after[2]


def test_live_readings_are_throttled_by_wall_time():
    rec = Recorder()
    tap = rec.tap()
    tap.see(CAL)
    for t in range(0, 10000, 12):  # ten board seconds in one wall second (--speed 0)
        rec.now = t / 10000
        tap.see(raw(t, [5.0, 5.0, 5.0, 5.0], accel=(0, 174, 985)))
    assert 9 <= len(rec.published) <= 11
    reading = rec.published[-1]
    assert reading.load_g == pytest.approx(20.0)
    assert reading.tilt_deg[0] == pytest.approx(0.0)
    assert reading.tilt_deg[1] == pytest.approx(math.degrees(math.atan2(174, 985)), abs=0.01)


def test_tilt_of_a_level_and_a_tipped_base():
    assert tilt([0, 0, 1000]) == (0.0, 0.0)
    assert tilt([1000, 0, 0])[0] == pytest.approx(90.0)


def test_without_a_calibration_loads_are_counts_from_the_first_sample():
    rec = Recorder()
    tap = rec.tap()
    tap.see({"k": "raw", "t": 0, "lc": [5, 6, 7, 8], "a": [0, 0, 1000]})
    rec.now = 1.0
    tap.see({"k": "raw", "t": 12, "lc": [15, 6, 7, 8], "a": [0, 0, 1000]})
    assert rec.published[-1].load_g == 10.0 and rec.published[-1].uncalibrated


def test_a_window_still_open_when_the_table_stops_is_journaled_as_far_as_it_goes():
    rec = Recorder()
    tap = rec.tap()
    tap.see(CAL)
    for t in range(0, 3000, 12):
        tap.see(raw(t, [1.0, 1.0, 1.0, 1.0]))
    tap.see({"k": "topple", "t": 2990, "s": 3})
    tap.flush()
    (fact, _, rows) = rec.traces[0]
    assert fact["k"] == "topple" and rows[-1][0] == 2988 - 2990


def test_a_window_across_the_boards_tick_wrap_is_journaled_whole():
    # The board's ms ticks wrap at 2**30 (MicroPython's ticks period): an event 0.5 s before
    # the wrap has its samples before and after it in one window, at their true offsets.
    wrap = 2**30
    rec = Recorder()
    tap = rec.tap()
    tap.see(CAL)
    event = wrap - 500
    for t in range(event - 3000, event + 4000, 12):
        tap.see(raw(t % wrap, [10.0] * 4 if t < event else [10.0, 10.0, 30.0, 10.0]))
        if t == event:
            tap.see({"k": "placed", "t": event, "s": 3, "g": 200})
    assert len(rec.traces) == 1
    times = [row[0] for row in rec.traces[0][2]]
    assert times == sorted(times)
    assert min(times) < -PRE_MS + 20 and max(times) > POST_MS - 20  # the wrap cut nothing off
    assert rec.traces[0][2][-1][1] == pytest.approx(60.0)
