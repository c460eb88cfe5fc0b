"""The pin map (hardware/pinmap.json): load it, check it against each board's rules, and
generate the firmware's pin modules from it so the wiring and the code cannot drift.

    python -m hardware.pinmap --write   regenerate firmware/tablefw/pins*.py
    python -m hardware.pinmap --check   exit 1 if a pin module differs from the map
"""

import argparse
import json
import sys
from pathlib import Path

from hardware import FIRMWARE_DIR, HARDWARE_DIR

PINMAP_PATH = HARDWARE_DIR / "pinmap.json"

# Names every profile defines, in the order the generated module lists them.
PIN_NAMES = ("HX711_SCK", "HX711_DOUT", "I2C_ID", "I2C_SDA", "I2C_SCL", "NEOPIXEL", "BUTTONS")
OPTIONAL_PINS = ("SCOREBOARD",)  # the Pi's room scoreboard strip

# Raspberry Pi Pico: the 40-pin header, pin 1 first (GP23-25 and GP29 are on-board only).
PICO_HEADER = (
    "GP0 GP1 GND GP2 GP3 GP4 GP5 GND GP6 GP7 GP8 GP9 GND GP10 GP11 GP12 GP13 GND GP14 GP15 "
    "GP16 GP17 GND GP18 GP19 GP20 GP21 GND GP22 RUN GP26 GP27 AGND GP28 ADC_VREF 3V3 3V3_EN GND "
    "VSYS VBUS"
).split()
# GPIO -> physical pin number.
PICO_PHYSICAL = {int(n[2:]): i + 1 for i, n in enumerate(PICO_HEADER) if n.startswith("GP")}
PICO_I2C = {  # I2C block -> (SDA-capable GPIOs, SCL-capable GPIOs)
    0: ({0, 4, 8, 12, 16, 20}, {1, 5, 9, 13, 17, 21}),
    1: ({2, 6, 10, 14, 18, 26}, {3, 7, 11, 15, 19, 27}),
}
# ESP32 (WROOM): 6-11 belong to the flash; 34-39 are inputs without pull-ups; the strapping
# pins 0, 2, 5, 12, 15 decide the boot mode and are left alone.
ESP32_GPIO = set(range(0, 6)) | set(range(12, 20)) | {21, 22, 23, 25, 26, 27} | set(range(32, 40))
ESP32_INPUT_ONLY = set(range(34, 40))
ESP32_STRAPPING = {0, 2, 5, 12, 15}
# Raspberry Pi (BCM numbers): GPIO2-27 are on the header (0/1 hold the HAT ID EEPROM); I2C1 is
# GPIO2/3; rpi_ws281x drives NeoPixels from PWM0 (GPIO12/18, with DMA), PCM (GPIO21) or SPI0
# MOSI (GPIO10), one strip per peripheral; SPI0's other pins and the UART are left alone.
PI_GPIO = set(range(2, 28))
PI_I2C1 = (2, 3)
PI_LED_PERIPHERAL = {12: "PWM0", 18: "PWM0", 21: "PCM", 10: "SPI0"}
PI_RESERVED = {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 11: "SPI0 SCLK", 14: "UART TX"}
PI_RESERVED[15] = "UART RX"


class PinMapError(ValueError):
    """The pin map breaks a board rule."""


def load(path: Path = PINMAP_PATH) -> dict:
    return json.loads(path.read_text())


def accel_addr(pinmap: dict) -> int:
    return int(pinmap["table"]["accel_addr"], 16)


def micropython_profiles(pinmap: dict) -> list[str]:
    """The profiles of boards that run MicroPython (the Pi runs the firmware under CPython)."""
    return [name for name, prof in pinmap["profiles"].items() if "micropython" in prof]


def used_gpios(pins: dict) -> list[int]:
    """Every GPIO the profile wires (I2C_ID is a peripheral number, not a pin)."""
    gpios = []
    for name in PIN_NAMES + OPTIONAL_PINS:
        if name == "I2C_ID" or name not in pins:
            continue
        value = pins[name]
        gpios.extend(value if isinstance(value, list) else [value])
    return gpios


def problems(pinmap: dict, profile: str) -> list[str]:
    """What is wrong with one profile, in words; [] when it can be wired as drawn."""
    table = pinmap["table"]
    pins = pinmap["profiles"][profile]["pins"]
    found = [f"{profile}: {name} missing" for name in PIN_NAMES if name not in pins]
    if found:
        return found
    gpios = used_gpios(pins)
    twice = sorted({g for g in gpios if gpios.count(g) > 1})
    if twice:
        found.append(f"{profile}: GPIO used twice: {twice}")
    if len(pins["BUTTONS"]) != table["seats"]:
        found.append(f"{profile}: {len(pins['BUTTONS'])} buttons for {table['seats']} seats")
    if len(pins["HX711_DOUT"]) != table["cells"]:
        found.append(f"{profile}: {len(pins['HX711_DOUT'])} DOUT pins for {table['cells']} cells")
    check = {"pico": _pico_problems, "esp32": _esp32_problems, "pi": _pi_problems}.get(profile)
    if check is None:
        found.append(f"{profile}: no board rules known for this profile")
    else:
        found.extend(f"{profile}: {p}" for p in check(pins))
    return found


def _pico_problems(pins: dict) -> list[str]:
    found = [f"GP{g} is not a header GPIO" for g in used_gpios(pins) if g not in PICO_PHYSICAL]
    dout = pins["HX711_DOUT"]
    if dout != list(range(dout[0], dout[0] + len(dout))):
        found.append("HX711_DOUT must be consecutive GPIOs (one PIO `in pins, N`)")
    block = PICO_I2C.get(pins["I2C_ID"])
    if block is None:
        found.append(f"I2C_ID {pins['I2C_ID']} does not exist")
    elif pins["I2C_SDA"] not in block[0] or pins["I2C_SCL"] not in block[1]:
        found.append(
            f"GP{pins['I2C_SDA']}/GP{pins['I2C_SCL']} are not SDA/SCL of I2C{pins['I2C_ID']}"
        )
    return found


def _esp32_problems(pins: dict) -> list[str]:
    gpios = used_gpios(pins)
    found = [f"GPIO{g} is not usable" for g in gpios if g not in ESP32_GPIO]
    found += [f"GPIO{g} is a strapping pin" for g in gpios if g in ESP32_STRAPPING]
    needs_output_or_pullup = [
        pins["HX711_SCK"],
        pins["NEOPIXEL"],
        pins["I2C_SDA"],
        pins["I2C_SCL"],
        *pins["BUTTONS"],
    ]
    found += [
        f"GPIO{g} is input-only (no output, no pull-up)"
        for g in needs_output_or_pullup
        if g in ESP32_INPUT_ONLY
    ]
    if pins["I2C_ID"] not in (0, 1):
        found.append(f"I2C_ID {pins['I2C_ID']} does not exist")
    return found


def _pi_problems(pins: dict) -> list[str]:
    gpios = used_gpios(pins)
    found = [f"GPIO{g} is not a header GPIO" for g in gpios if g not in PI_GPIO]
    found += [f"GPIO{g} is {PI_RESERVED[g]}" for g in gpios if g in PI_RESERVED]
    if pins["I2C_ID"] != 1 or (pins["I2C_SDA"], pins["I2C_SCL"]) != PI_I2C1:
        found.append("the accelerometer goes on I2C1: GPIO2 = SDA, GPIO3 = SCL")
    strips = [pins["NEOPIXEL"], *([pins["SCOREBOARD"]] if "SCOREBOARD" in pins else [])]
    blocks = [PI_LED_PERIPHERAL.get(g) for g in strips]
    found += [
        f"GPIO{g} cannot drive NeoPixels (PWM0 12/18, PCM 21 or SPI0 MOSI 10)"
        for g, block in zip(strips, blocks, strict=True)
        if block is None
    ]
    if None not in blocks and len(set(blocks)) < len(blocks):
        found.append(f"the rings and the scoreboard both need {blocks[0]}: one strip per block")
    return found


def render(pinmap: dict, profile: str) -> str:
    """The firmware pin module of one profile, as text (ruff-format clean)."""
    prof = pinmap["profiles"][profile]
    table = pinmap["table"]
    notes = prof.get("comments", {})
    cpython = prof.get("python") == "cpython"  # plain numbers: no `micropython` module there
    lines = [
        f"# Pin map of the {prof['board']} table board.",
        "# GENERATED from hardware/pinmap.json by `python -m hardware.pinmap --write`:",
        "# edit the JSON, not this file (tests/hardware checks the two agree).",
        *([] if cpython else ["from tablefw.compat import const"]),
        "",
    ]

    def line(name: str, value: str, note: str = "") -> None:
        lines.append(f"{name} = {value}" + (f"  # {note}" if note else ""))

    def number(value) -> str:
        return str(value) if cpython else f"const({value})"

    for name in PIN_NAMES + OPTIONAL_PINS:
        if name not in prof["pins"]:
            continue
        value = prof["pins"][name]
        text = f"({', '.join(map(str, value))})" if isinstance(value, list) else number(value)
        line(name, text, notes.get(name, ""))
        if name == "I2C_SCL":
            line("ACCEL_ADDR", number(table["accel_addr"]), table.get("accel_addr_note", ""))
    line("SEATS", number(table["seats"]))
    line("LEDS_PER_RING", number(table["leds_per_ring"]))
    if "supply" in prof:
        line("LEDS_SUPPLY_MA", number(prof["supply"]["leds_ma"]), prof["supply"]["note"])
    return "\n".join(lines) + "\n"


def module_path(pinmap: dict, profile: str) -> Path:
    return FIRMWARE_DIR / pinmap["profiles"][profile]["module"]


def drift(pinmap: dict) -> list[str]:
    """Profiles whose firmware module differs from what the map generates."""
    return [
        str(module_path(pinmap, p).relative_to(FIRMWARE_DIR.parent))
        for p in pinmap["profiles"]
        if not module_path(pinmap, p).exists()
        or module_path(pinmap, p).read_text() != render(pinmap, p)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.pinmap", description=__doc__)
    parser.add_argument("--write", action="store_true", help="regenerate the pin modules")
    args = parser.parse_args(argv)
    pinmap = load()
    wrong = [p for profile in pinmap["profiles"] for p in problems(pinmap, profile)]
    if wrong:
        print("pinmap.json: " + "; ".join(wrong), file=sys.stderr)
        return 1
    if args.write:
        for profile in pinmap["profiles"]:
            module_path(pinmap, profile).write_text(render(pinmap, profile))
        return 0
    stale = drift(pinmap)
    if stale:
        print(
            f"out of date with hardware/pinmap.json: {', '.join(stale)} "
            "(run `python -m hardware.pinmap --write`)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
