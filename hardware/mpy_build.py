"""Compile the firmware to .mpy for one board profile (`make firmware`).

    python -m hardware.mpy_build [--profile pico] [--out build/pico] [--march ARCH]

mpy-cross must match the board's MicroPython version (hardware/pinmap.json "micropython"):
an .mpy from another version does not import. `-march` comes from the profile (armv6m for
the RP2040) so @micropython.native/viper functions compile to the board's machine code.
main.py stays source (MicroPython runs main.py, never main.mpy); the profile's pin module is
installed as tablefw/pins, so the rest of the firmware is the same on every board.
"""

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

from hardware import FIRMWARE_DIR, ROOT
from hardware import pinmap as pm

UNIX_ONLY = {"board_sim.py"}  # the simulated board runs on the unix port only
# Board drivers, left out of other profiles (hx711_pio.py: the RP2040's PIO reader, if split
# out of hx711.py).
BOARD_ONLY = {
    "pico": {"board_rp2.py", "hx711_pio.py"},
    "esp32": {"board_esp32.py"},
    "pi": {"board_blinka.py"},  # CPython on a Raspberry Pi (H-PI): never compiled to .mpy
}


class BuildError(Exception):
    """Something the user can fix; printed as one line."""


def mpy_cross() -> str:
    """The mpy-cross of the venv this runs in (or on PATH)."""
    here = Path(sys.executable).parent / "mpy-cross"
    found = str(here) if here.exists() else shutil.which("mpy-cross")
    if not found:
        raise BuildError("mpy-cross is missing: run `make setup`")
    return found


def mpy_cross_version(tool: str) -> str:
    """'1.29' from 'MicroPython v1.29.0 on ...; mpy-cross emitting mpy v6.3'."""
    out = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    match = re.search(r"MicroPython v(\d+\.\d+)", out)
    if not match:
        raise BuildError(f"cannot read the mpy-cross version from {out.strip()!r}")
    return match.group(1)


def sources(profile: str, pinmap: dict) -> list[tuple[Path, str]]:
    """(source file, module path on the board without suffix) for every firmware module."""
    own = pm.module_path(pinmap, profile)
    others = {pm.module_path(pinmap, p) for p in pinmap["profiles"]} - {own}
    skip = set(UNIX_ONLY)
    for other, files in BOARD_ONLY.items():
        if other != profile:
            skip |= files
    found = []
    for path in sorted((FIRMWARE_DIR / "tablefw").glob("*.py")):
        if path.name in skip or path in others:
            continue
        target = "tablefw/pins" if path == own else f"tablefw/{path.stem}"
        found.append((path, target))
    return found


def compile_one(tool: str, source: Path, dest: Path, target: str, march: str) -> None:
    """One module to .mpy; BuildError with mpy-cross's own last line when it cannot."""
    # -s: the source name in tracebacks, relative like on the board.
    cmd = [tool, f"-march={march}", "-s", f"{target}.py", "-o", str(dest), str(source)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).strip().splitlines()
        shown = source.relative_to(ROOT) if source.is_relative_to(ROOT) else source
        raise BuildError(f"mpy-cross failed on {shown}: {detail[-1] if detail else '?'}")


def build(profile: str, out: Path, march: str | None = None) -> list[Path]:
    """Compile into `out`; returns the files written. Raises BuildError."""
    pinmap = pm.load()
    if profile not in pinmap["profiles"]:
        raise BuildError(
            f"unknown profile {profile!r} (pinmap.json has {sorted(pinmap['profiles'])})"
        )
    if profile not in pm.micropython_profiles(pinmap):
        raise BuildError(f"the {profile} profile runs the firmware under CPython: nothing to build")
    prof = pinmap["profiles"][profile]
    tool = mpy_cross()
    version = mpy_cross_version(tool)
    if version != prof["micropython"]:
        raise BuildError(
            f"mpy-cross is MicroPython {version} but the {profile} board runs "
            f"{prof['micropython']}: install mpy-cross=={prof['micropython']}.*"
        )
    march = march or prof["mpy_march"]
    if out.exists():
        shutil.rmtree(out)
    (out / "tablefw").mkdir(parents=True)
    written = []
    for source, target in sources(profile, pinmap):
        dest = out / f"{target}.mpy"
        compile_one(tool, source, dest, target, march)
        written.append(dest)
    main = FIRMWARE_DIR / "main.py"
    if main.exists():
        shutil.copy(main, out / "main.py")
        written.append(out / "main.py")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.mpy_build", description=__doc__)
    parser.add_argument("--profile", default="pico")
    parser.add_argument("--out", type=Path, help="output directory (default build/PROFILE)")
    parser.add_argument("--march", help="override the profile's -march (tests use x64)")
    args = parser.parse_args(argv)
    out = args.out or ROOT / "build" / args.profile
    try:
        written = build(args.profile, out, args.march)
    except BuildError as exc:
        print(f"make firmware: {exc}", file=sys.stderr)
        return 1
    shown = out.relative_to(ROOT) if out.is_relative_to(ROOT) else out
    print(f"{len(written)} files for {args.profile} in {shown}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
