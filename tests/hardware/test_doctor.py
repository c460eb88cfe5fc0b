"""`sticktable doctor`: each check names the broken part in plain words, the whole command
passes on the simulated board, and without a board it fails with one line."""

import subprocess
import sys

from sticktable.commands import doctor

GOOD = [
    {"k": "raw", "lc": [1000 + i, -5000 - i, 300 + i % 5, 70000 + i % 3], "a": [10, -20, 1000]}
    for i in range(40)
]


def _with_cell(i, values):
    return [
        dict(s, lc=[values[n] if c == i else v for c, v in enumerate(s["lc"])])
        for n, s in enumerate(GOOD)
    ]


def test_good_samples_pass():
    assert doctor.check_cells(GOOD, 4) == [] and doctor.check_accel(GOOD) == []


def test_each_broken_cell_is_named():
    dead = doctor.check_cells(_with_cell(1, [doctor.MISSING] * 40), 4)
    assert len(dead) == 1 and "load cell 2" in dead[0] and "no readings" in dead[0]
    rail = doctor.check_cells(_with_cell(2, [2**23 - 1] * 40), 4)
    assert "load cell 3" in rail[0] and "saturated" in rail[0]
    stuck = doctor.check_cells(_with_cell(0, [1234] * 40), 4)
    assert "load cell 1" in stuck[0] and "same value" in stuck[0]
    assert "no raw samples" in doctor.check_cells([], 4)[0]


def test_accelerometer_without_gravity_is_reported():
    dead = [dict(s, a=[0, 0, 0]) for s in GOOD]
    assert "accelerometer reads 0 mg" in doctor.check_accel(dead)[0]


def test_faults_and_versions():
    faults = [
        {"k": "fault", "what": "accel", "ok": False},
        {"k": "fault", "what": "cells", "ok": False},
        {"k": "fault", "what": "cells", "ok": True},
    ]
    assert doctor.check_faults(faults) == [
        "the board reports: the accelerometer does not answer on I2C"
    ]
    assert doctor.check_version({"fw": "0.0.1"}, "0.1.0")[0].startswith(
        "the board runs firmware 0.0.1, this host carries 0.1.0"
    )
    assert doctor.check_version({"fw": "0.1.0"}, "0.1.0") == []


def sticktable(*args):
    return subprocess.run(
        [sys.executable, "-m", "sticktable", *args], capture_output=True, text=True, timeout=60
    )


def test_doctor_passes_on_the_simulated_board():
    result = sticktable("doctor", "--sim")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "firmware " + doctor.host_firmware_version() in result.stdout
    checks = len(doctor.CHECKS)
    assert result.stdout.rstrip().endswith(f"all {checks} checks passed")
    assert [line.split()[0] for line in result.stdout.splitlines()[-checks - 1 : -1]] == [
        "ok"
    ] * checks


def test_doctor_without_a_board_says_so_in_one_line():
    result = sticktable("doctor", "--port", "/dev/ttyACM-no-such-board")
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("sticktable: ")
