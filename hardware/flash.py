"""Put the compiled firmware on a board with mpremote and reset it (`make flash PORT=...`).

    python -m hardware.flash --port /dev/ttyACM0 [--profile pico]

Checks the port before anything else, so without a board it fails with one clear line.
Stale files under :tablefw/ are removed first: on the board a leftover tablefw/x.py would be
imported instead of the new tablefw/x.mpy.
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

from hardware import ROOT
from hardware import mpy_build as mb

# USB ids of each profile's board: the Pico's own (MicroPython), the ESP32 DevKits' USB-UART
# bridges (CP2102, CH340, CH9102) and the ESP32-S3's native USB.
USB_IDS = {
    "pico": {(0x2E8A, 0x0005)},
    "esp32": {(0x10C4, 0xEA60), (0x1A86, 0x7523), (0x1A86, 0x55D4), (0x303A, 0x1001)},
}
CLEAN_BOARD = """
import os
try:
    for name in os.listdir('tablefw'):
        os.remove('tablefw/' + name)
except OSError:
    pass
"""


def board_ports(profile: str) -> list[str]:
    """Serial ports that look like the profile's board (a hint for the user)."""
    try:
        from serial.tools import list_ports
    except ImportError:
        return []
    ids = USB_IDS.get(profile, set())
    return sorted(p.device for p in list_ports.comports() if (p.vid, p.pid) in ids)


def port_problem(port: str, profile: str = "pico") -> str | None:
    """Why `port` cannot be a board, in one line; None when it looks usable."""
    if not port:
        name = "Pico" if profile == "pico" else profile.upper()
        example = "/dev/ttyACM0" if profile == "pico" else "/dev/ttyUSB0"
        found = board_ports(profile)
        hint = f" (a {name} is at {', '.join(found)})" if found else f" (no {name} found on USB)"
        return (
            f"no board given: connect it and run `make flash PROFILE={profile} PORT={example}`"
            + hint
        )
    if port.startswith("/dev/") and not os.path.exists(port):
        return f"no board at {port}: is it plugged in and running MicroPython?"
    return None


def mpremote() -> str:
    here = Path(sys.executable).parent / "mpremote"
    return str(here) if here.exists() else "mpremote"


def flash_command(port: str, out: Path) -> list[str]:
    """One mpremote session: clean, copy the package and main.py, reset."""
    cmd = [mpremote(), "connect", port, "exec", CLEAN_BOARD, "+"]
    cmd += ["fs", "cp", "-r", str(out / "tablefw"), ":", "+"]
    if (out / "main.py").exists():
        cmd += ["fs", "cp", str(out / "main.py"), ":main.py", "+"]
    return cmd + ["reset"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.flash", description=__doc__)
    parser.add_argument("--port", default=os.environ.get("PORT", ""))
    parser.add_argument("--profile", default="pico")
    args = parser.parse_args(argv)
    problem = port_problem(args.port, args.profile)
    if problem:
        print(f"make flash: {problem}", file=sys.stderr)
        return 1
    out = ROOT / "build" / args.profile
    try:
        mb.build(args.profile, out)
    except mb.BuildError as exc:
        print(f"make flash: {exc}", file=sys.stderr)
        return 1
    try:
        result = subprocess.run(flash_command(args.port, out))
    except FileNotFoundError:
        print("make flash: mpremote is missing: run `make setup`", file=sys.stderr)
        return 1
    if result.returncode != 0:
        print(
            f"make flash: mpremote could not flash {args.port} (exit {result.returncode}); "
            "if the table app is running, replug the board holding seat 1's button",
            file=sys.stderr,
        )
        return 1
    print(f"flashed {args.profile} firmware to {args.port} and reset the board")
    return 0


if __name__ == "__main__":
    sys.exit(main())
