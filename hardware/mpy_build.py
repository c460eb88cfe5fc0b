"""Compile the firmware to .mpy for one board profile (`make firmware`).

    python -m hardware.mpy_build [--profile pico] [--out build/pico] [--march ARCH]

What goes on the board is listed by the profile's manifest, firmware/boards/PROFILE/manifest.py
(micropython-lib style: include(), package(), module(), metadata(); paths relative to the
manifest). mpy-cross must match the board's MicroPython version (hardware/pinmap.json
"micropython"): an .mpy from another version does not import. `-march` comes from the profile
(armv6m for the RP2040) so @micropython.native/viper functions compile to the board's machine
code. main.py stays source (MicroPython runs main.py, never main.mpy).
"""

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

from hardware import FIRMWARE_DIR, ROOT
from hardware import pinmap as pm

BOARDS_DIR = FIRMWARE_DIR / "boards"
KEEP_SOURCE = {"main"}  # modules the board runs as .py


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


def manifest_path(profile: str) -> Path:
    return BOARDS_DIR / profile / "manifest.py"


def sources(profile: str) -> list[tuple[Path, str]]:
    """(source file, module path on the board without suffix) for every module the profile's
    manifest lists, in order, each once. BuildError for a missing manifest or file."""
    path = manifest_path(profile)
    if not path.exists():
        raise BuildError(f"no manifest for profile {profile!r}: {path}")
    found: dict[str, Path] = {}
    _read_manifest(path, found)
    return [(source, target) for target, source in found.items()]


def _read_manifest(path: Path, found: dict[str, Path]) -> None:
    here = path.parent

    def add(source: Path, target: str) -> None:
        if not source.is_file():
            raise BuildError(f"{path} lists {source.name}, which does not exist")
        found.setdefault(target, source.resolve())

    def package(package_path, files=None, base_path=".", opt=None):
        root = here / base_path / package_path
        names = files if files is not None else [p.name for p in sorted(root.glob("*.py"))]
        for name in names:
            add(root / name, f"{package_path}/{name.removesuffix('.py')}")

    def module(module_path, base_path=".", opt=None):
        add(here / base_path / module_path, module_path.removesuffix(".py"))

    def include(manifest):
        _read_manifest((here / manifest).resolve(), found)

    def metadata(**_fields):
        pass  # description and version: for people reading the manifest

    names = {"package": package, "module": module, "include": include, "metadata": metadata}
    exec(compile(path.read_text(), str(path), "exec"), names)


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
    for source, target in sources(profile):
        if target in KEEP_SOURCE:
            dest = out / f"{target}.py"
            shutil.copy(source, dest)
        else:
            dest = out / f"{target}.mpy"
            compile_one(tool, source, dest, target, march)
        written.append(dest)
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
