"""The power budget, from the firmware's real constants and its real cap: the rings can never
take the table past what the host's USB port gives."""

import pytest
from hardware import pinmap as pm
from hardware import power


@pytest.fixture(scope="module")
def budget():
    return power.budget()


def test_worst_case_fits_the_supply(budget):
    assert budget["worst_ma"] <= budget["limit_ma"] < budget["supply_ma"]


def test_cap_matches_the_firmware_led_budget(budget):
    assert budget["cap_ma"] <= budget["led_budget_ma"]


def test_every_display_mode_stays_under_the_cap(budget):
    for name, _raw, capped in budget["modes"]:
        assert capped <= budget["cap_ma"], name


def test_the_cap_acts_on_the_bright_modes(budget):
    raw = {name: r for name, r, _ in budget["modes"]}
    assert max(raw.values()) > budget["cap_ma"]  # otherwise the cap was never tested


def test_ring_size_agrees_everywhere(budget):
    leds_per_ring = pm.load()["table"]["leds_per_ring"]
    assert budget["rings_leds_per_ring"] == budget["pins_leds_per_ring"] == leds_per_ring
