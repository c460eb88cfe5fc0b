"""`make lint`: ruff on all Python, the pin-map check, and the firmware type-check against
MicroPython's stubs (rp2 and esp32). tests/hardware/test_lint.py runs the same steps, so
`make test` fails when `make lint` would.

    python -m hardware.lint            every step; exit 1 if any fails
    python -m hardware.lint STEP...    only those (names as in STEPS)
"""

import subprocess
import sys
from pathlib import Path

from hardware import ROOT

PYTHON_TREES = ("host", "tests", "firmware", "hardware")


def _tool(name: str) -> str:
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else name


STEPS = {
    "ruff-check": [_tool("ruff"), "check", "--output-format", "concise", *PYTHON_TREES],
    "ruff-format": [
        _tool("ruff"),
        "format",
        "--check",
        "--output-format",
        "concise",
        *PYTHON_TREES,
    ],
    "pinmap": [sys.executable, "-m", "hardware.pinmap"],
    "types-rp2": [_tool("basedpyright"), "-p", "firmware/pyrightconfig.json"],
    "types-esp32": [_tool("basedpyright"), "-p", "firmware/pyrightconfig.esp32.json"],
}


def run(step: str) -> subprocess.CompletedProcess:
    """Run one step from the repository root, capturing its output."""
    return subprocess.run(STEPS[step], cwd=ROOT, capture_output=True, text=True)


def main(argv: list[str] | None = None) -> int:
    names = argv if argv else list(STEPS)
    unknown = [n for n in names if n not in STEPS]
    if unknown:
        print(f"make lint: unknown step {unknown[0]} (steps: {', '.join(STEPS)})", file=sys.stderr)
        return 1
    failed = []
    for name in names:
        result = run(name)
        if result.returncode != 0:
            failed.append(name)
            sys.stdout.write(result.stdout + result.stderr)
        print(f"{name}: {'ok' if result.returncode == 0 else 'FAILED'}")
    if failed:
        print(f"make lint: {len(failed)} step(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
