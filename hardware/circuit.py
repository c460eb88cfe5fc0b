"""The table's circuit as code (skidl 3.0, parts defined inline: no KiCad libraries needed).

Pico (RP2040) on the host's USB; four HX711 modules with their load cells (one shared SCK,
one DOUT each, RATE high = 80 samples/s); a LIS3DH accelerometer on I2C with pull-ups; eight
12-LED NeoPixel rings in one chain behind a 74AHCT125 level shifter, a 330 ohm series resistor
and a 1000 uF bulk capacitor; eight seat buttons to ground. Every GPIO comes from
hardware/pinmap.json, so the netlist, the documents and the firmware share one pin map.

skidl writes log files into the current directory when it is imported and when it runs ERC:
`load_skidl(workdir)` imports it inside a scratch directory and turns the log files off.
"""

import contextlib
import logging
import os
from pathlib import Path

from hardware import pinmap as pm

# Each part: value, example part number, BOM notes. The BOM is generated from these.
PARTS = {
    "pico": ("Raspberry Pi Pico", "Raspberry Pi SC0915", "RP2040 board, MicroPython 1.29"),
    "hx711": (
        "HX711 load-cell ADC module",
        "SparkFun SEN-13879",
        "powered from 3V3 (3.3 V logic); RATE tied to VCC for 80 SPS: on modules that ground "
        "RATE, lift IC pin 15 and bridge it to pin 16 (DVDD)",
    ),
    "cell": (
        "Load cell 1 kg, 4-wire",
        "generic 1 kg straight-bar cell (YZC-131 type)",
        "one under each corner of the tower plate; red E+, black E-, white A+, green A-",
    ),
    "lis3dh": (
        "LIS3DH accelerometer breakout",
        "Adafruit 2809",
        "I2C address 0x18 (SDO to GND); mount flat in the base",
    ),
    "r_pullup": ("4.7k", "Yageo CFR-25JB-52-4K7", "I2C pull-ups to 3V3"),
    "shifter": (
        "74AHCT125 quad buffer",
        "TI SN74AHCT125N",
        "3.3 V to 5 V level shifter for the NeoPixel data line; unused gates disabled",
    ),
    "c_decouple": ("100nF", "KEMET C320C104K5R5TA", "decoupling at the 74AHCT125 VCC pin"),
    "r_series": ("330", "Yageo CFR-25JB-52-330R", "in the data line, close to the first ring"),
    "c_bulk": ("1000uF 10V", "Panasonic EEU-FR1A102", "across +5V/GND at the first ring"),
    "ptc": (
        "PTC fuse 500mA hold",
        "Bourns MF-R050",
        "protects the host's USB port; the firmware cap keeps the rings well below it",
    ),
    "ring": ("NeoPixel ring 12 x WS2812B", "Adafruit 1643", "one per seat, chained DOUT -> DIN"),
    "button": (
        "Push button",
        "E-Switch PV6 series, 12 mm momentary",
        "one per seat, to GND (internal pull-up)",
    ),
}

_SKIDL = None


def load_skidl(workdir: Path):
    """Import skidl with its log files confined to `workdir` (and then switched off)."""
    global _SKIDL
    if _SKIDL is None:
        workdir.mkdir(parents=True, exist_ok=True)
        for version in ("", "6", "7", "8", "9", "10"):  # no KiCad libraries: none are used
            os.environ.setdefault(f"KICAD{version}_SYMBOL_DIR", str(workdir))
        # An empty footprint table where skidl looks for KiCad's, so it does not warn that
        # footprints are unavailable (the netlist only names them).
        kicad_config = workdir / ".config" / "kicad"
        kicad_config.mkdir(parents=True, exist_ok=True)
        (kicad_config / "fp-lib-table").write_text("(fp_lib_table)\n")
        home = os.environ.get("HOME")
        os.environ["HOME"] = str(workdir)
        try:
            with contextlib.chdir(workdir):
                import skidl
                from skidl.logger import stop_log_file_output

                stop_log_file_output()
        finally:
            if home is None:
                os.environ.pop("HOME", None)
            else:
                os.environ["HOME"] = home
        _SKIDL = skidl
    return _SKIDL


def _templates(skidl) -> dict:
    """Part templates, one per kind of part (pins named as printed on the modules)."""
    Pin, Part = skidl.Pin, skidl.Part
    t = Pin.types

    def template(kind: str, ref: str, pins: list[tuple[str, object]], footprint: str):
        value, mpn, notes = PARTS[kind]
        return Part(
            tool=skidl.SKIDL,
            name=kind,
            ref_prefix=ref,
            dest=skidl.TEMPLATE,
            value=value,
            footprint=footprint,
            pins=[Pin(num=i + 1, name=n, func=f) for i, (n, f) in enumerate(pins)],
            mpn=mpn,
            notes=notes,
        )

    pico_func = {
        "GND": t.PWRIN,
        "AGND": t.PWRIN,
        "3V3": t.PWROUT,
        "VBUS": t.PWROUT,
        "VSYS": t.PWROUT,
        "ADC_VREF": t.PWRIN,
        "RUN": t.INPUT,
        "3V3_EN": t.INPUT,
    }
    two = [("1", t.PASSIVE), ("2", t.PASSIVE)]
    return {
        "pico": template(
            "pico",
            "U",
            [(n, pico_func.get(n, t.BIDIR)) for n in pm.PICO_HEADER],
            "Module:RaspberryPi_Pico_Common_THT",
        ),
        "hx711": template(
            "hx711",
            "U",
            [
                ("VCC", t.PWRIN),
                ("VDD", t.PWRIN),
                ("GND", t.PWRIN),
                ("SCK", t.INPUT),
                ("DOUT", t.OUTPUT),
                ("RATE", t.INPUT),
                ("E+", t.PWROUT),
                ("E-", t.PASSIVE),
                ("A+", t.INPUT),
                ("A-", t.INPUT),
                ("B+", t.INPUT),
                ("B-", t.INPUT),
            ],
            "Connector_PinHeader_2.54mm:PinHeader_1x12_P2.54mm_Vertical",
        ),
        "cell": template(
            "cell",
            "LC",
            [("E+", t.PWRIN), ("E-", t.PASSIVE), ("S+", t.OUTPUT), ("S-", t.OUTPUT)],
            "Connector_JST:JST_XH_B4B-XH-A_1x04_P2.50mm_Vertical",
        ),
        "lis3dh": template(
            "lis3dh",
            "U",
            [
                ("VIN", t.PWRIN),
                ("3Vo", t.PWROUT),
                ("GND", t.PWRIN),
                ("SCL", t.INPUT),
                ("SDA", t.BIDIR),
                ("SDO", t.INPUT),
                ("CS", t.INPUT),
                ("INT", t.OUTPUT),
            ],
            "Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical",
        ),
        "shifter": template(
            "shifter",
            "U",
            [
                ("1OE", t.INPUT),
                ("1A", t.INPUT),
                ("1Y", t.TRISTATE),
                ("2OE", t.INPUT),
                ("2A", t.INPUT),
                ("2Y", t.TRISTATE),
                ("GND", t.PWRIN),
                ("3Y", t.TRISTATE),
                ("3A", t.INPUT),
                ("3OE", t.INPUT),
                ("4Y", t.TRISTATE),
                ("4A", t.INPUT),
                ("4OE", t.INPUT),
                ("VCC", t.PWRIN),
            ],
            "Package_DIP:DIP-14_W7.62mm",
        ),
        "ring": template(
            "ring",
            "RING",
            [("5V", t.PWRIN), ("GND", t.PWRIN), ("DIN", t.INPUT), ("DOUT", t.OUTPUT)],
            "Connector_JST:JST_XH_B4B-XH-A_1x04_P2.50mm_Vertical",
        ),
        "button": template("button", "SW", two, "Button_Switch_THT:SW_PUSH_6mm"),
        "r_pullup": template("r_pullup", "R", two, "Resistor_THT:R_Axial_DIN0207"),
        "r_series": template("r_series", "R", two, "Resistor_THT:R_Axial_DIN0207"),
        "c_decouple": template("c_decouple", "C", two, "Capacitor_THT:C_Disc_D5.0mm_W2.5mm"),
        "c_bulk": template(
            "c_bulk",
            "C",
            [("+", t.PASSIVE), ("-", t.PASSIVE)],
            "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
        ),
        "ptc": template("ptc", "F", two, "Fuse:Fuse_Radial_D7.0mm_P5.00mm"),
    }


def pin(part, name: str):
    """The pin called exactly `name` (skidl's own lookup treats names as patterns)."""
    found = [p for p in part.pins if p.name == name]
    if len(found) != 1:
        raise KeyError(f"{part.ref} has {len(found)} pins named {name!r}")
    return found[0]


def pins_named(part, name: str) -> list:
    return [p for p in part.pins if p.name == name]


def build(workdir: Path, profile: str = "pico"):
    """Describe the whole table; returns the skidl Circuit (not yet checked)."""
    skidl = load_skidl(workdir)
    pinmap = pm.load()
    pins = pinmap["profiles"][profile]["pins"]
    if profile != "pico":
        raise ValueError("the circuit is drawn for the Pico profile")
    table = pinmap["table"]
    tpl = _templates(skidl)
    circuit = skidl.Circuit()
    with circuit:
        Net = skidl.Net

        def gp(n: int):
            return pin(pico, f"GP{n}")

        gnd, v3, vbus, v5 = Net("GND"), Net("+3V3"), Net("VBUS"), Net("+5V")
        gnd.drive = skidl.POWER  # the ground return of the USB supply
        v5.drive = skidl.POWER  # VBUS through the PTC fuse (a passive part hides the driver)

        pico = tpl["pico"](tag="pico")
        gnd += pins_named(pico, "GND") + pins_named(pico, "AGND")
        v3 += pin(pico, "3V3")
        vbus += pin(pico, "VBUS")
        fuse = tpl["ptc"](tag="fuse")
        vbus & fuse & v5

        # Load cells: four HX711 on one clock, one data line each, 80 samples/s.
        sck = Net("HX711_SCK")
        sck += gp(pins["HX711_SCK"])
        for i, dout_gpio in enumerate(pins["HX711_DOUT"]):
            adc = tpl["hx711"](tag=f"hx711_{i}")
            cell = tpl["cell"](tag=f"cell_{i}")
            v3 += pin(adc, "VCC"), pin(adc, "VDD"), pin(adc, "RATE")
            gnd += pin(adc, "GND")
            sck += pin(adc, "SCK")
            Net(f"HX711_DOUT{i + 1}").connect(gp(dout_gpio), pin(adc, "DOUT"))
            for adc_pin, cell_pin in (("E+", "E+"), ("E-", "E-"), ("A+", "S+"), ("A-", "S-")):
                Net(f"CELL{i + 1}_{cell_pin}").connect(pin(adc, adc_pin), pin(cell, cell_pin))
            circuit.NC += pin(adc, "B+"), pin(adc, "B-")

        # Accelerometer on I2C, address set by SDO, with pull-ups to 3V3.
        accel = tpl["lis3dh"](tag="accel")
        v3 += pin(accel, "VIN"), pin(accel, "CS")  # CS high selects I2C
        gnd += pin(accel, "GND")
        if int(table["accel_addr"], 16) == 0x18:
            gnd += pin(accel, "SDO")
        else:
            v3 += pin(accel, "SDO")
        circuit.NC += pin(accel, "3Vo"), pin(accel, "INT")
        for signal in ("SDA", "SCL"):
            line = Net(f"I2C_{signal}")
            line += gp(pins[f"I2C_{signal}"]), pin(accel, signal)
            v3 & tpl["r_pullup"](tag=f"pullup_{signal.lower()}") & line

        # NeoPixels: 3.3 V data -> 74AHCT125 (5 V) -> 330 ohm -> ring chain on +5V.
        shifter = tpl["shifter"](tag="shifter")
        v5 += pin(shifter, "VCC")
        gnd += pin(shifter, "GND"), pin(shifter, "1OE")  # gate 1 always enabled
        v5 & tpl["c_decouple"](tag="c_shifter") & gnd
        for gate in "234":  # unused gates: inputs grounded, outputs disabled
            gnd += pin(shifter, f"{gate}A")
            v5 += pin(shifter, f"{gate}OE")
            circuit.NC += pin(shifter, f"{gate}Y")
        Net("NEOPIXEL_3V3").connect(gp(pins["NEOPIXEL"]), pin(shifter, "1A"))
        data = Net("NEOPIXEL_5V")
        data += pin(shifter, "1Y")
        bulk = tpl["c_bulk"](tag="c_bulk")
        v5 += pin(bulk, "+")
        gnd += pin(bulk, "-")
        ring = None
        for seat in range(table["seats"]):
            previous, ring = ring, tpl["ring"](tag=f"ring_{seat}")
            v5 += pin(ring, "5V")
            gnd += pin(ring, "GND")
            if previous is None:
                data & tpl["r_series"](tag="r_data") & Net("RING1_DIN") & pin(ring, "DIN")
            else:
                Net(f"RING{seat}_DOUT").connect(pin(previous, "DOUT"), pin(ring, "DIN"))
        circuit.NC += pin(ring, "DOUT")

        # Seat buttons: GPIO to ground, the RP2040's internal pull-ups hold them high.
        for seat, gpio in enumerate(pins["BUTTONS"]):
            button = tpl["button"](tag=f"button_{seat}")
            Net(f"SEAT{seat + 1}_BUTTON").connect(gp(gpio), pin(button, "1"))
            gnd += pin(button, "2")

        used = set(pm.used_gpios(pins))
        for name in ("RUN", "3V3_EN", "ADC_VREF", "VSYS"):
            circuit.NC += pin(pico, name)
        for p in pico.pins:
            if p.name.startswith("GP") and int(p.name[2:]) not in used:
                circuit.NC += p
    return circuit


def erc_counts(circuit) -> tuple[int, int]:
    """Run the electrical rules check; returns (errors, warnings)."""
    from skidl.logger import erc_logger

    circuit.no_files = True
    with _quiet(logging.INFO):  # its findings are warnings and errors; "none found" is noise
        circuit.ERC()
    return erc_logger.error.count, erc_logger.warning.count


def write_netlist(circuit, path: Path) -> None:
    """A KiCad netlist (import it into KiCad's PCB editor to lay out a board)."""
    circuit.no_files = False
    # skidl warns that the top hierarchy node has no tag (KiCad's top sheet must have none) and
    # logs a summary: both are noise here, the ERC above is the check. Errors still show.
    with _quiet(logging.WARNING):
        circuit.generate_netlist(file_=str(path), tool=_SKIDL.KICAD8, do_backup=False)


@contextlib.contextmanager
def _quiet(level: int):
    """skidl's log messages up to `level` are not shown meanwhile."""
    previous = logging.root.manager.disable
    logging.disable(level)
    try:
        yield
    finally:
        logging.disable(previous)
