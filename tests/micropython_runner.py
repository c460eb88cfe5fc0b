"""Paths and a runner for scripts under the real MicroPython interpreter (tests and benches).

Import it as `from micropython_runner import ...`; tests/conftest.py puts tests/ on sys.path."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from sticktable.sim.runner import SOURCE_HEAP  # noqa: F401  (the whole app from its sources)

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware"
MICROPYTHON = shutil.which("micropython", path=str(Path(sys.executable).parent)) or shutil.which(
    "micropython"
)


def micropython_env(extra_path: list[Path] | None = None) -> dict:
    """MICROPYPATH replaces the default path, so keep `.frozen` (the built-in asyncio etc.)."""
    paths = [str(p) for p in (extra_path or [])] + [str(FIRMWARE), ".frozen"]
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join(paths)
    return env


def run_micropython(
    script: Path | str,
    *args: str,
    heap: str = "192K",
    timeout: float = 60,
    input: bytes | None = None,
    extra_path: list[Path] | None = None,
):
    """Run a file under MicroPython with the firmware importable; returns CompletedProcess."""
    if MICROPYTHON is None:
        raise RuntimeError("the micropython command is missing; run `make setup`")
    cmd = [MICROPYTHON, "-X", f"heapsize={heap}", str(script), *args]
    return subprocess.run(
        cmd, input=input, capture_output=True, timeout=timeout, env=micropython_env(extra_path)
    )


def compile_firmware(out: Path) -> Path:
    """The simulated board's modules (firmware/boards/unix/manifest.py) as .mpy for the unix
    port (x64), under `out`/tablefw; returns `out` (pass it as `extra_path`: a module the
    manifest leaves out then fails to import). A board runs .mpy, so the compiler's RAM is not
    spent at import as it is when the sources are imported (SOURCE_HEAP)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from hardware import mpy_build

    (out / "tablefw").mkdir(parents=True)
    tool = mpy_build.mpy_cross()
    for source, target in mpy_build.sources("unix"):
        mpy_build.compile_one(tool, source, out / f"{target}.mpy", target, "x64")
    return out
