"""Where things live: the firmware sources and the user's data directory."""

import os
from pathlib import Path

import platformdirs

import tablefw

# The directory holding the firmware package `tablefw` (installed with the host: the checkout's
# firmware/ in an editable install, site-packages otherwise): MicroPython runs it from there.
FIRMWARE_DIR = Path(tablefw.__file__).resolve().parents[1]


def data_dir() -> Path:
    """The user's data directory (journal, calibration); STICKTABLE_HOME overrides it."""
    override = os.environ.get("STICKTABLE_HOME")
    path = Path(override) if override else Path(platformdirs.user_data_dir("sticktable"))
    path.mkdir(parents=True, exist_ok=True)
    return path
