"""Install the MicroPython type stubs of every board profile into .venv/stubs/<port>.

    python -m hardware.stubs

The stubs replace the standard library for the type checker, so they live outside the venv
(installing them into it would shadow CPython's own modules). Versions follow the profile's
MicroPython version in hardware/pinmap.json; the Makefile runs this once (`make stubs`).
"""

import shutil
import subprocess
import sys
from pathlib import Path

from hardware import ROOT
from hardware import pinmap as pm

STUBS_DIR = ROOT / ".venv" / "stubs"


def install(port: str, package: str, version: str) -> None:
    target = STUBS_DIR / port
    if target.exists():
        shutil.rmtree(target)
    spec = f"{package}=={version}.*"
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(target), spec]
    subprocess.run(cmd, check=True)


def main() -> int:
    pinmap = pm.load()
    boards = [pinmap["profiles"][name] for name in pm.micropython_profiles(pinmap)]
    for prof in boards:
        install(prof["port"], prof["stubs"], prof["micropython"])
    print(
        f"stubs in {Path(STUBS_DIR).relative_to(ROOT)}/: "
        + ", ".join(sorted(p["port"] for p in boards))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
