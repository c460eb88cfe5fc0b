"""The Pi profile's documents (hardware/pi.md, made by `make hardware`): every mapped GPIO is
wired once, on its header pin; the LED supply's budget holds with the rings and a scoreboard
at their caps; a strip too long for the supply is refused."""

import pytest
from hardware import pi
from hardware import pinmap as pm

from sticktable.errors import UserError
from sticktable.scoreboard import sum_cap

PINMAP = pm.load()


def test_every_mapped_gpio_is_wired_once_on_its_header_pin():
    rows = pi.wiring_rows(PINMAP)
    gpios = [g for _, g, _, _ in rows]
    assert sorted(gpios) == sorted(pm.used_gpios(PINMAP["profiles"]["pi"]["pins"]))
    header = [p for _, _, p, _ in rows]
    assert len(set(header)) == len(header) and all(1 <= p <= 40 for p in header)
    assert pi.PI_HEADER[2] == 3 and pi.PI_HEADER[18] == 12  # I2C1 SDA, PCM_CLK/PWM0


@pytest.mark.parametrize("count", [8, 60, 300])
def test_the_led_supply_carries_the_rings_and_a_capped_scoreboard(count):
    b = pi.budget(count)
    assert b["rings_ma"] + b["scoreboard_idle_ma"] + b["scoreboard_cap_ma"] <= b["usable_ma"]
    assert b["scoreboard_cap_ma"] <= b["scoreboard_full_ma"]


def test_a_strip_too_long_for_the_supply_is_refused():
    with pytest.raises(UserError, match="cannot light"):
        sum_cap(5000, 4000, 396)


def test_the_document_names_every_part_and_the_budget():
    text = pi.document()
    assert "74AHCT125" in text and "| GPIO18 | 12 |" in text
    assert f"| supply rating | {PINMAP['profiles']['pi']['supply']['leds_ma']} |" in text
