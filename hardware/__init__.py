"""The table's hardware as code: pin map, circuit, builder documents, firmware deployment.

Run the tools from the repository root: `python -m hardware.pinmap --check`,
`python -m hardware.build`, `python -m hardware.mpy_build`, `python -m hardware.flash`.
"""

from pathlib import Path

HARDWARE_DIR = Path(__file__).resolve().parent
ROOT = HARDWARE_DIR.parent
FIRMWARE_DIR = ROOT / "firmware"
