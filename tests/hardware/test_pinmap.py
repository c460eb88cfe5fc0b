"""The pin map is the one source of truth: board rules hold, the firmware's pin modules are
exactly what the map generates, and MicroPython reads the same values from them."""

import copy
import json

import pytest
from hardware import pinmap as pm

PINMAP = pm.load()
PROFILES = sorted(PINMAP["profiles"])


def test_every_board_has_a_profile():
    assert {"pico", "esp32", "pi"} <= set(PROFILES)


def test_the_pi_module_imports_under_cpython():
    # The Pi runs the firmware under CPython: its pin module is plain numbers.
    namespace: dict = {}
    exec(pm.render(PINMAP, "pi"), namespace)
    assert namespace["SCOREBOARD"] == PINMAP["profiles"]["pi"]["pins"]["SCOREBOARD"]
    assert namespace["LEDS_SUPPLY_MA"] == PINMAP["profiles"]["pi"]["supply"]["leds_ma"]


@pytest.mark.parametrize("profile", PROFILES)
def test_profile_follows_the_board_rules(profile):
    assert pm.problems(PINMAP, profile) == []


def test_firmware_pin_modules_are_generated_from_the_map():
    assert pm.drift(PINMAP) == [], "run `python -m hardware.pinmap --write` (or make hardware)"


def test_check_reports_a_hand_edited_pin_module(tmp_path, monkeypatch):
    edited = copy.deepcopy(PINMAP)
    edited["profiles"]["pico"]["pins"]["NEOPIXEL"] = 16  # the map moved, the module did not
    assert pm.drift(edited) == ["firmware/tablefw/pins.py"]


def _broken(profile, **pins):
    bad = copy.deepcopy(PINMAP)
    bad["profiles"][profile]["pins"].update(pins)
    return pm.problems(bad, profile)


@pytest.mark.parametrize(
    "profile, change, words",
    [
        ("pico", {"HX711_DOUT": [3, 4, 6, 7]}, "consecutive"),
        ("pico", {"I2C_SDA": 16}, "not SDA/SCL"),
        ("pico", {"NEOPIXEL": 25}, "not a header GPIO"),
        ("pico", {"NEOPIXEL": 10}, "used twice"),
        ("pico", {"BUTTONS": [10, 11, 12]}, "buttons for 8 seats"),
        ("esp32", {"NEOPIXEL": 7}, "not usable"),
        ("esp32", {"NEOPIXEL": 2}, "strapping"),
        ("esp32", {"BUTTONS": [18, 19, 23, 25, 26, 27, 32, 34]}, "input-only"),
        ("pi", {"NEOPIXEL": 20}, "cannot drive NeoPixels"),
        ("pi", {"NEOPIXEL": 12}, "one strip per block"),
        ("pi", {"I2C_SDA": 14}, "I2C1"),
        ("pi", {"BUTTONS": [17, 22, 23, 24, 25, 26, 27, 9]}, "SPI0 MISO"),
        ("pi", {"HX711_SCK": 1}, "not a header GPIO"),
    ],
)
def test_board_rules_catch_wiring_mistakes(profile, change, words):
    assert any(words in p for p in _broken(profile, **change))


PRINT_PINS = """
import json, sys
mod = __import__("tablefw." + sys.argv[1], None, None, ["x"])
names = ("HX711_SCK", "HX711_DOUT", "I2C_ID", "I2C_SDA", "I2C_SCL", "ACCEL_ADDR", "NEOPIXEL",
         "BUTTONS", "SEATS", "LEDS_PER_RING")
print(json.dumps([list(v) if isinstance(v, tuple) else v for v in
                  (getattr(mod, n) for n in names)]))
"""


@pytest.mark.parametrize("profile", PROFILES)
def test_micropython_reads_the_mapped_pins(profile, mp, tmp_path):
    script = tmp_path / "print_pins.py"
    script.write_text(PRINT_PINS)
    module = pm.module_path(PINMAP, profile).stem
    result = mp(script, module)
    assert result.returncode == 0, result.stdout + result.stderr
    pins, table = PINMAP["profiles"][profile]["pins"], PINMAP["table"]
    expected = [pins[n] for n in pm.PIN_NAMES[:5]] + [pm.accel_addr(PINMAP)]
    expected += [pins["NEOPIXEL"], pins["BUTTONS"], table["seats"], table["leds_per_ring"]]
    assert json.loads(result.stdout) == expected
