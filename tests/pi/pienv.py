"""Run a command as if on a Raspberry Pi 4, with the fakes below Blinka (tests/pi/fakes).

Blinka is forced onto the Pi platform (BLINKA_FORCECHIP/BLINKA_FORCEBOARD, as its platform
detection allows for testing) and imported as it is; only what lies below it is fake: libgpiod's
bindings, /dev/i2c-1's smbus access and rpi_ws281x's driver (tests/pi/fakes/fakepi.py says how
they behave). Blinka looks for GPIO controllers as /dev/gpiochipN, so the command runs in a
private mount namespace whose /dev also holds a gpiochip0 node (an overlay: the machine's /dev
is untouched, /dev/pts stays the real one so ptys work), and whose /proc/cpuinfo ends with the
revision line a Pi 4B's kernel writes there (how Blinka tells a Pi's model).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
FAKES = TESTS / "pi" / "fakes"
HX711_FAKES = TESTS / "firmware" / "mpfakes"  # the HX711 and LIS3DH datasheet models
FIRMWARE = ROOT / "firmware"

_NAMESPACE = """
d=$1; shift
mkdir -p "$d/up" "$d/work" "$d/pts"
: > "$d/up/gpiochip0"
mount --rbind /dev/pts "$d/pts"
mount -t overlay overlay -o "lowerdir=/dev,upperdir=$d/up,workdir=$d/work" /dev
mount --move "$d/pts" /dev/pts
{ cat /proc/cpuinfo; printf 'Revision\t: c03111\nModel\t\t: Raspberry Pi 4 Model B Rev 1.1\n'; } \
    > "$d/cpuinfo"
mount --bind "$d/cpuinfo" /proc/cpuinfo
exec "$@"
"""


def pi_env(**extra: str) -> dict:
    env = dict(os.environ)
    env.update(
        BLINKA_FORCECHIP="BCM2XXX",
        BLINKA_FORCEBOARD="RASPBERRY_PI_4B",
        PYTHONPATH=os.pathsep.join(
            [*map(str, (FAKES, HX711_FAKES, FIRMWARE)), *filter(None, [env.get("PYTHONPATH")])]
        ),
    )
    env.update(extra)
    return env


def pi_command(argv: list[str], scratch: Path) -> list[str]:
    """`argv` run inside the Pi's mount namespace; `scratch` holds the overlay's layers."""
    scratch.mkdir(parents=True, exist_ok=True)
    return ["unshare", "--mount", "--", "sh", "-ec", _NAMESPACE, "sh", str(scratch), *argv]


def python() -> str:
    return sys.executable
