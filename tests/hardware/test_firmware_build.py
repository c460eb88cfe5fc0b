"""`make firmware` / `make flash`: mpy-cross of the board's MicroPython version compiles every
module (so syntax MicroPython cannot compile is caught here), the .mpy files import on the
unix port, and flashing without a board fails with one clear line."""

import subprocess
import sys

import pytest
from hardware import flash
from hardware import mpy_build as mb
from hardware import pinmap as pm

PINMAP = pm.load()
ROOT = pm.FIRMWARE_DIR.parent


@pytest.mark.parametrize("profile", pm.micropython_profiles(PINMAP))
def test_every_module_compiles_for_the_board(profile, tmp_path):
    written = mb.build(profile, tmp_path)
    modules = {p.relative_to(tmp_path).as_posix() for p in written}
    assert "tablefw/pins.mpy" in modules and "tablefw/proto.mpy" in modules
    assert len([m for m in modules if m.endswith(".mpy")]) == len(mb.sources(profile, PINMAP))


def test_mpy_cross_matches_the_board_micropython():
    version = mb.mpy_cross_version(mb.mpy_cross())
    boards = [PINMAP["profiles"][p] for p in pm.micropython_profiles(PINMAP)]
    assert {p["micropython"] for p in boards} == {version}


def test_syntax_micropython_cannot_compile_fails_the_build(tmp_path):
    source = tmp_path / "bad.py"
    source.write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    with pytest.raises(mb.BuildError, match="bad.py"):
        mb.compile_one(mb.mpy_cross(), source, tmp_path / "bad.mpy", "bad", "armv6m")


def test_compiled_firmware_imports_on_the_unix_port(mp, tmp_path):
    mb.build("pico", tmp_path, march="x64")  # same .mpy format, the unix port's machine code
    portable = [t for _, t in mb.sources("pico", PINMAP) if not t.endswith("board_rp2")]
    script = tmp_path / "imports.py"
    script.write_text(
        f"import sys\nsys.path[:] = [{str(tmp_path)!r}, '.frozen']\n"
        + "".join(f"import {t.replace('/', '.')}\n" for t in portable)
        + "import tablefw.pins\nprint(tablefw.pins.__file__)\n"
    )
    result = mp(script)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.decode().strip().endswith("tablefw/pins.mpy")


@pytest.mark.parametrize("port", ["", "/dev/ttyACM-no-such-board"])
def test_flash_without_a_board_fails_with_one_line(port):
    result = subprocess.run(
        [sys.executable, "-m", "hardware.flash", "--port", port],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("make flash: no board")


def test_flash_copies_then_resets(tmp_path):
    cmd = flash.flash_command("/dev/ttyACM0", tmp_path)
    assert cmd[1:3] == ["connect", "/dev/ttyACM0"] and cmd[-1] == "reset"
    assert str(tmp_path / "tablefw") in cmd
