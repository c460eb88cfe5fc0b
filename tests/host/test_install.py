"""The host installs like any Python package, the firmware package `tablefw` inside it: a wheel
built from a copy of host/ and firmware/, installed in a fresh venv outside the checkout, runs
`sticktable simulate`, `sticktable detect` (the same events as in the checkout) and
`sticktable doctor --sim` (the firmware under MicroPython, run from where it was installed),
with no sys.path or sys.modules patching."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from micropython_runner import MICROPYTHON

from sticktable.sim.detection import run_detector
from sticktable.sim.trace import read_trace

ROOT = Path(__file__).resolve().parents[2]
JUNK = shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
WHERE = (
    "import sys, sticktable, tablefw\n"
    "print(sticktable.__file__)\nprint(tablefw.__file__)\n"
    "print('micropython' in sys.modules, any('firmware' in p for p in sys.path))\n"
)


def run(cmd, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kwargs)
    assert result.returncode == 0, f"{cmd}: {result.stdout}{result.stderr}"
    return result


def test_the_wheel_runs_in_a_fresh_venv(tmp_path):
    src = tmp_path / "src"  # a copy: the build writes into the source tree
    shutil.copytree(ROOT / "host", src / "host", ignore=JUNK)
    shutil.copytree(ROOT / "firmware", src / "firmware", ignore=JUNK)
    pip_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path, src / "host"])
    (wheel,) = tmp_path.glob("sticktable-*.whl")
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], env=pip_env)
    pip = [sys.executable, "-m", "pip", "--python", venv / "bin" / "python"]
    run([*pip, "install", "-q", wheel], env=pip_env)  # pyserial, platformdirs: registry or cache

    tools = tmp_path / "tools"  # the MicroPython unix port, and nothing else of the checkout
    tools.mkdir()
    (tools / "micropython").symlink_to(MICROPYTHON)
    env = {
        "PATH": f"{tools}{os.pathsep}/usr/bin{os.pathsep}/bin",
        "STICKTABLE_HOME": str(tmp_path / "home"),
        "LANG": "C.UTF-8",
    }
    work = tmp_path / "work"
    work.mkdir()
    sticktable = str(venv / "bin" / "sticktable")

    where = run([venv / "bin" / "python", "-c", WHERE], env=env, cwd=work).stdout.split("\n")
    assert where[0].startswith(str(venv)) and where[1].startswith(str(venv))
    assert where[2] == "False False"  # no micropython stand-in module, no checkout on sys.path

    trace = work / "game.csv"
    run([sticktable, "simulate", "--seed", "4", "--out", trace], env=env, cwd=work)
    got = run([sticktable, "detect", trace], env=env, cwd=work).stdout.splitlines()
    meta, samples = read_trace(trace)
    want = run_detector(meta, samples)
    assert [json.loads(line) for line in got] == want and len(want) > 10

    doctor = run([sticktable, "doctor", "--sim"], env=env, cwd=work)
    assert re.search(r"^all \d+ checks passed$", doctor.stdout, re.M), doctor.stdout
