"""The circuit as code: ERC clean, wired as the pin map says, and the generated documents in
the repository are what the circuit produces today."""

import csv
import io
import subprocess
import sys
from pathlib import Path

from hardware import build as hw_build
from hardware import circuit as hw
from hardware import pinmap as pm

PINMAP = pm.load()
PINS = PINMAP["profiles"]["pico"]["pins"]


def _part(circuit, tag):
    return next(p for p in circuit.parts if p.tag == tag)


def _on_gpio(circuit, gpio):
    """(tag, pin name) of every other part pin on the net of Pico GP`gpio`."""
    net = hw.pin(_part(circuit, "pico"), f"GP{gpio}").net
    return {(p.part.tag, p.name) for p in net.pins if p.part.tag != "pico"}


def test_erc_is_clean(table_circuit):
    assert hw.erc_counts(table_circuit) == (0, 0)


def test_erc_catches_an_open_wire(tmp_path):
    circuit = hw.build(tmp_path)
    hw.pin(_part(circuit, "ring_3"), "DIN").disconnect()
    errors, warnings = hw.erc_counts(circuit)
    assert errors + warnings > 0


def test_circuit_is_wired_as_the_pin_map_says(table_circuit):
    c = table_circuit
    assert _on_gpio(c, PINS["HX711_SCK"]) == {(f"hx711_{i}", "SCK") for i in range(4)}
    for i, gpio in enumerate(PINS["HX711_DOUT"]):
        assert _on_gpio(c, gpio) == {(f"hx711_{i}", "DOUT")}
    assert ("accel", "SDA") in _on_gpio(c, PINS["I2C_SDA"])
    assert ("accel", "SCL") in _on_gpio(c, PINS["I2C_SCL"])
    assert _on_gpio(c, PINS["NEOPIXEL"]) == {("shifter", "1A")}
    for seat, gpio in enumerate(PINS["BUTTONS"]):
        assert _on_gpio(c, gpio) == {(f"button_{seat}", "1")}


def test_hx711_rate_is_high_for_80_samples_per_second(table_circuit):
    for i in range(4):
        assert hw.pin(_part(table_circuit, f"hx711_{i}"), "RATE").net.name == "+3V3"


def test_accelerometer_address_pin_matches_the_map(table_circuit):
    sdo = hw.pin(_part(table_circuit, "accel"), "SDO").net.name
    assert sdo == ("GND" if pm.accel_addr(PINMAP) == 0x18 else "+3V3")


def test_pixels_are_driven_through_the_shifter_and_resistor(table_circuit):
    shifter_out = hw.pin(_part(table_circuit, "shifter"), "1Y").net
    assert {p.part.tag for p in shifter_out.pins} == {"shifter", "r_data"}
    rings = [p for p in table_circuit.parts if p.name == "ring"]
    assert len(rings) == PINMAP["table"]["seats"]
    assert all(hw.pin(r, "5V").net.name == "+5V" for r in rings)


def test_netlist_is_written(table_circuit, tmp_path):
    path = tmp_path / "table.net"
    hw.write_netlist(table_circuit, path)
    text = path.read_text()
    assert text.startswith("(export")
    assert '(name "HX711_SCK")' in text and '(ref "RING8")' in text


def test_generated_documents_are_up_to_date(table_circuit):
    stale = [
        path.name
        for path, text in hw_build.generated_documents(table_circuit).items()
        if not path.exists() or path.read_text() != text
    ]
    assert stale == [], "run `make hardware` and keep the result"


def test_bom_lists_every_part_with_its_quantity(table_circuit):
    rows = list(csv.reader(io.StringIO(hw_build.bom.csv_text(table_circuit))))
    assert rows[0][:4] == ["part", "quantity", "example part number", "notes"]
    quantity = {r[0]: int(r[1]) for r in rows[1:]}
    assert quantity["HX711 load-cell ADC module"] == 4
    assert quantity["NeoPixel ring 12 x WS2812B"] == PINMAP["table"]["seats"]
    in_bom = sum(int(r[1]) for r in rows[1:] if r[4])
    assert in_bom == len(table_circuit.parts)


def test_erc_and_netlist_print_no_stray_skidl_lines(tmp_path):
    """`make hardware` shows findings only: no tag warning, no "none found" summaries (a fresh
    process: skidl sets up its log handlers on import)."""
    script = (
        "import sys; from pathlib import Path; from hardware import circuit as hw; "
        "c = hw.build(Path(sys.argv[1])); assert hw.erc_counts(c) == (0, 0); "
        "hw.write_netlist(c, Path(sys.argv[1]) / 'table.net')"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert (done.stdout + done.stderr).strip() == ""
