"""`sticktable record` against the simulated board: raw samples in, a sensor trace out."""

import json
import subprocess
import sys

from sticktable.sim.runner import SimTable
from sticktable.sim.scenarios import scenario
from sticktable.sim.trace import read_trace


def test_record_writes_what_the_board_streams(tmp_path):
    sc = scenario("burst", seed=3)
    source = sc.samples[:1500]
    meta_file = tmp_path / "cal.json"
    meta_file.write_text(
        json.dumps({k: sc.meta[k] for k in ("counts_per_gram", "cell_xy_mm", "stick_g")})
    )
    out = tmp_path / "rec.csv"
    with SimTable(source, sc.meta, speed=1.0) as table:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "sticktable",
                "record",
                str(out),
                "--port",
                table.port,
                "--meta",
                str(meta_file),
                "--seconds",
                "4",
                "--hello-timeout",
                "20",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 0, done.stderr
    meta, recorded = read_trace(out)
    assert meta["counts_per_gram"] == sc.meta["counts_per_gram"] and meta["cells"] == 4
    assert len(recorded) >= 40  # raw frames may be lost; what arrives must be exact
    by_t = {s.t_ms: s for s in source}
    for s in recorded:
        want = by_t[s.t_ms]
        assert (s.cells, s.ax, s.ay, s.az) == (want.cells, want.ax, want.ay, want.az)


def test_record_needs_a_calibration_it_can_use(tmp_path):
    meta_file = tmp_path / "cal.json"
    meta_file.write_text(json.dumps({"counts_per_gram": [2000, 2000]}))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sticktable",
            "record",
            str(tmp_path / "x.csv"),
            "--port",
            "/dev/null",
            "--meta",
            str(meta_file),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == f"sticktable: {meta_file}: meta lacks 'cell_xy_mm'"


def test_record_takes_the_meta_from_the_board_without_meta(tmp_path):
    sc = scenario("burst", seed=4)
    out = tmp_path / "rec.csv"
    with SimTable(sc.samples[:800], sc.meta, speed=1.0) as table:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "sticktable",
                "record",
                str(out),
                "--port",
                table.port,
                "--seconds",
                "2",
                "--hello-timeout",
                "20",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 0, done.stderr
    meta, recorded = read_trace(out)
    for key in ("counts_per_gram", "cell_xy_mm", "stick_g", "zero_counts"):
        assert meta[key] == sc.meta[key], key  # the tower stood on the plate: zero kept
    assert recorded
