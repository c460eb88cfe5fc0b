"""`make firmware` / `make flash`: each board profile's manifest lists every module it needs
(and every firmware module is in some manifest), mpy-cross of the board's MicroPython version
compiles them (so syntax MicroPython cannot compile is caught here), the .mpy files import on
the unix port, and flashing without a board fails with one clear line."""

import subprocess
import sys

import pytest
from hardware import flash
from hardware import mpy_build as mb
from hardware import pinmap as pm

PINMAP = pm.load()
ROOT = pm.FIRMWARE_DIR.parent
RP2_ONLY = ("tablefw/board_rp2", "tablefw/hx711_pio")  # import rp2: not on the unix port


@pytest.mark.parametrize("profile", pm.micropython_profiles(PINMAP))
def test_every_module_compiles_for_the_board(profile, tmp_path):
    written = mb.build(profile, tmp_path)
    modules = {p.relative_to(tmp_path).as_posix() for p in written}
    pins = pm.module_path(PINMAP, profile).relative_to(pm.FIRMWARE_DIR).with_suffix(".mpy")
    assert {pins.as_posix(), "tablefw/proto.mpy", "tablefw/app.mpy", "main.py"} <= modules
    assert modules == {f"{t}.py" if t == "main" else f"{t}.mpy" for _, t in mb.sources(profile)}


def test_every_firmware_module_is_in_a_manifest():
    listed = {source for p in [*PINMAP["profiles"], "unix"] for source, _ in mb.sources(p)}
    files = {p.resolve() for p in (pm.FIRMWARE_DIR / "tablefw").glob("*.py")}
    missing = sorted(p.name for p in files - listed)
    assert not missing, f"add {missing} to firmware/manifest.py or a board's manifest.py"
    common = {t for _, t in mb.sources("unix")} & {t for _, t in mb.sources("pico")}
    assert not common & set(RP2_ONLY) and "tablefw/board_sim" not in common


def test_a_manifest_listing_a_missing_file_fails_the_build(tmp_path):
    manifest = tmp_path / "manifest.py"
    manifest.write_text('package("tablefw", files=("gone.py",))\n')
    with pytest.raises(mb.BuildError, match="lists gone.py, which does not exist"):
        mb._read_manifest(manifest, {})


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
    portable = [t for _, t in mb.sources("pico") if t not in RP2_ONLY and t != "main"]
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
