"""`make test` runs `make lint`'s steps (hardware/lint.py): ruff on all Python, the pin-map
check, and the firmware type-check against the MicroPython stubs of both boards."""

import json
import subprocess

import pytest
from hardware import ROOT, lint


@pytest.fixture(scope="module")
def stubs():
    """The stubs are installed once by the Makefile (a fresh machine has none yet)."""
    result = subprocess.run(
        ["make", "-s", "stubs"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return ROOT / ".venv" / "stubs"


@pytest.mark.parametrize("step", sorted(lint.STEPS))
def test_lint_step_passes(step, stubs):
    result = lint.run(step)
    assert result.returncode == 0, (
        f"`python -m hardware.lint {step}`:\n" + (result.stdout + result.stderr)[-4000:]
    )


def _check(tmp_path, source):
    """Type-check one file with the firmware's rp2 configuration."""
    config = json.loads((ROOT / "firmware" / "pyrightconfig.json").read_text())
    for key in ("stubPath", "typeshedPath"):
        config[key] = str((ROOT / "firmware" / config[key]).resolve())
    config.update(include=["probe.py"], exclude=[], ignore=[config["stubPath"]], extraPaths=[])
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(config))
    (tmp_path / "probe.py").write_text(source)
    return subprocess.run(
        lint.STEPS["types-rp2"][:2] + [str(tmp_path / "pyrightconfig.json")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_type_check_knows_the_rp2_port(stubs, tmp_path):
    ok = "import machine\nimport rp2\nmachine.Pin(2, machine.Pin.OUT).value(1)\nrp2.PIO(0)\n"
    result = _check(tmp_path, ok)
    assert result.returncode == 0, result.stdout


def test_type_check_finds_errors_in_firmware(stubs, tmp_path):
    result = _check(tmp_path, "import machine\nmachine.Pin(2).no_such_method()\n")
    assert result.returncode != 0 and "no_such_method" in result.stdout
