"""Where things live: the firmware source tree and the user's data directory."""

import os
from pathlib import Path

import platformdirs

# The host package is installed editable from the repository, so the firmware sits beside it.
FIRMWARE_DIR = Path(
    os.environ.get("STICKTABLE_FIRMWARE", Path(__file__).resolve().parents[2] / "firmware")
)


def data_dir() -> Path:
    """The user's data directory (journal, calibration); STICKTABLE_HOME overrides it."""
    override = os.environ.get("STICKTABLE_HOME")
    path = Path(override) if override else Path(platformdirs.user_data_dir("sticktable"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def import_firmware() -> None:
    """Make the firmware package `tablefw` importable under CPython.

    Host and board share one source (the frame codec, the detector). The firmware imports
    `micropython` for const() and the code emitters; on CPython those are identities.
    """
    import sys
    import types

    if "micropython" not in sys.modules:
        shim = types.ModuleType("micropython")
        shim.const = lambda value: value
        shim.native = shim.viper = lambda function: function
        sys.modules["micropython"] = shim
    firmware = str(FIRMWARE_DIR)
    if firmware not in sys.path:
        sys.path.insert(0, firmware)
