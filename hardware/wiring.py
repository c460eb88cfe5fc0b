"""The wiring diagram (hardware/wiring.svg), drawn with schemdraw from the circuit itself.

Top: the Pico with every wired pin, its GPIO and header pin number, and where the wire goes
(read from the skidl nets, so the drawing cannot disagree with the netlist). Below: the four
recurring sub-circuits drawn as schematics: one load-cell channel, the LED data path, the
accelerometer with its pull-ups, and a seat button.
"""

import re

import schemdraw
import schemdraw.elements as elm
import schemdraw.logic as logic

from hardware import pinmap as pm
from hardware.circuit import pin, pins_named

KIND_LABEL = {
    "hx711": "HX711",
    "cell": "cell",
    "lis3dh": "LIS3DH",
    "ring": "ring",
    "button": "button",
    "shifter": "74AHCT125",
    "r_pullup": "4.7k",
    "ptc": "F1 PTC",
    "r_series": "330R",
    "c_bulk": "1000uF",
    "c_decouple": "100nF",
}


def _destinations(circuit, pico, name: str) -> str:
    """Where the wire from the Pico pin `name` goes, in words."""
    net = (pins_named(pico, name)[0] if name == "GND" else pin(pico, name)).net
    if net is None:
        return ""
    if net.name == "VBUS":
        return "USB 5 V: F1 (500 mA PTC) to the +5V rail (rings, 74AHCT125)"
    if net.name in ("GND", "+3V3"):
        return f"{net.name} rail" + (" (all GND pins)" if net.name == "GND" else "")
    others = [p for p in net.pins if p.part is not pico]
    words = sorted(
        f"{KIND_LABEL.get(p.part.name, p.part.name)} {p.part.ref}.{p.name}" for p in others
    )
    if len(words) > 3:
        refs = sorted({p.part.ref for p in others})
        return f"{net.name}: {others[0].name} of all {len(words)} HX711 ({refs[0]}-{refs[-1]})"
    return f"{net.name}: " + ", ".join(words)


def _pico(d: schemdraw.Drawing, circuit, pins: dict) -> None:
    pico = next(p for p in circuit.parts if p.name == "pico")
    left = ["VBUS", "3V3", "GND", f"GP{pins['HX711_SCK']}"]
    left += [f"GP{g}" for g in pins["HX711_DOUT"]]
    right = [f"GP{pins['I2C_SDA']}", f"GP{pins['I2C_SCL']}", f"GP{pins['NEOPIXEL']}"]
    right += [f"GP{g}" for g in pins["BUTTONS"]]
    number = {name: str(i + 1) for i, name in enumerate(pm.PICO_HEADER) if name != "GND"}
    number["GND"] = "38"
    # schemdraw stacks a side's pins from the bottom up: reverse to read top-down.
    ic_pins = [elm.IcPin(name=n, pin=number[n], side="left", anchorname=n) for n in left[::-1]]
    ic_pins += [elm.IcPin(name=n, pin=number[n], side="right", anchorname=n) for n in right[::-1]]
    ic = elm.Ic(pins=ic_pins, pinspacing=0.9, edgepadW=3.2, edgepadH=0.6).theta(0)
    ic.label("Raspberry Pi Pico (U1)", loc="top", fontsize=13)
    d += ic
    d += (
        elm.Label()
        .at((ic.absanchors["GP2"][0] + 3.2, ic.absanchors["GP2"][1]))
        .label("GPnn inside,\nheader pin\nnumber outside", fontsize=10)
    )
    for name in left:
        d += elm.Line().at(ic.absanchors[name]).left(1.0)
        d += elm.Label().label(_destinations(circuit, pico, name), loc="left", fontsize=10)
    for name in right:
        d += elm.Line().at(ic.absanchors[name]).right(1.0)
        d += elm.Label().label(_destinations(circuit, pico, name), loc="right", fontsize=10)


def _load_cell(d: schemdraw.Drawing, x: float, y: float, pins: dict) -> None:
    d += (
        elm.Label()
        .at((x, y + 1.4))
        .label(
            f"One load-cell channel (x4: HX711 #i DOUT to GP{pins['HX711_DOUT'][0]}+i)",
            loc="right",
            fontsize=12,
        )
    )
    cell = (
        elm.Ic(
            pins=[
                elm.IcPin(name=n, side="right", anchorname=a)
                for n, a in (
                    ("S- green", "SN"),
                    ("S+ white", "SP"),
                    ("E- black", "EN"),
                    ("E+ red", "EP"),
                )
            ],
            pinspacing=0.7,
            edgepadW=2.4,
        )
        .theta(0)
        .label("load cell 1 kg", loc="top")
    )
    d += cell.at((x, y)).anchor("EP")
    adc = elm.Ic(
        pins=[
            elm.IcPin(name=n, side="left", anchorname=n.replace("+", "P").replace("-", "N"))
            for n in ("A-", "A+", "E-", "E+")
        ]
        + [
            elm.IcPin(name=n, side="right", anchorname=n)
            for n in ("GND", "DOUT", "SCK", "RATE", "VDD", "VCC")
        ],
        pinspacing=0.7,
        edgepadW=1.6,
        label="HX711\nmodule",
        lsize=11,
    ).theta(0)
    d += adc.at((x + 5, y)).anchor("EP")
    for a, b in (("EP", "EP"), ("EN", "EN"), ("SP", "AP"), ("SN", "AN")):
        d += elm.Wire("-").at(cell.absanchors[a]).to(adc.absanchors[b])
    for name, to in (
        ("VCC", "+3V3"),
        ("VDD", "+3V3"),
        ("RATE", "+3V3 (80 SPS)"),
        ("SCK", f"GP{pins['HX711_SCK']} (shared)"),
        ("DOUT", f"GP{pins['HX711_DOUT'][0]}..GP{pins['HX711_DOUT'][-1]}"),
        ("GND", "GND"),
    ):
        d += elm.Line().at(adc.absanchors[name]).right(1.0)
        d += elm.Label().label(to, loc="right", fontsize=10)


def _led_path(d: schemdraw.Drawing, x: float, y: float, pins: dict, seats: int) -> None:
    d += (
        elm.Label()
        .at((x, y + 1.6))
        .label("LED data path (5 V pixels from 3.3 V logic)", loc="right", fontsize=12)
    )
    d += elm.Dot(open=True).at((x, y)).label(f"GP{pins['NEOPIXEL']}", loc="left")
    d += elm.Line().right(0.8)
    d += logic.Buf().right().label("74AHCT125\n(1OE to GND,\nVCC +5V)", loc="bottom", fontsize=9)
    d += elm.Resistor().right().label("330R", fontsize=10)
    d += elm.Line().right(0.5)
    d += elm.Dot()
    d += elm.Label().label("ring 1 DIN", loc="top", fontsize=10)
    d.push()
    d += elm.Line().right(1.5)
    d += elm.Label().label(f"DOUT -> DIN\nto ring {seats}", loc="right", fontsize=10)
    d.pop()
    cap_x = x + 9.0
    d += elm.Line().at((cap_x, y - 1.0)).right(0.01).label("+5V", loc="left", fontsize=10)
    d += (
        elm.Capacitor(polar=True)
        .at((cap_x, y - 1.0))
        .down()
        .label("1000uF\n10V", loc="bottom", fontsize=9)
    )
    d += elm.Ground()


def _i2c(d: schemdraw.Drawing, x: float, y: float, pins: dict, addr: int) -> None:
    d += (
        elm.Label()
        .at((x, y + 2.4))
        .label(
            f"Accelerometer on I2C{pins['I2C_ID']} (address 0x{addr:02X})", loc="right", fontsize=12
        )
    )
    accel = elm.Ic(
        pins=[
            elm.IcPin(name=n, side="left", anchorname=n)
            for n in ("GND", "SDO", "CS", "VIN", "SCL", "SDA")
        ],
        pinspacing=0.7,
        edgepadW=1.6,
        label="LIS3DH\nbreakout",
        lsize=11,
    ).theta(0)
    d += accel.at((x + 6, y)).anchor("SDA")
    for name, gpio, dx in (("SDA", pins["I2C_SDA"], 1.5), ("SCL", pins["I2C_SCL"], 3.0)):
        d += elm.Line().at(accel.absanchors[name]).left(6 - dx if name == "SDA" else 6 - dx)
        d += elm.Label().label(f"GP{gpio} {name}", loc="left", fontsize=10)
        d += elm.Dot().at((x + dx, accel.absanchors[name][1]))
        d += elm.Resistor().up().length(1.6 if name == "SDA" else 2.3).label("4.7k", fontsize=9)
        d += elm.Label().label("+3V3", loc="top", fontsize=9)
    for name, to in (
        ("VIN", "+3V3"),
        ("CS", "+3V3 (I2C mode)"),
        ("SDO", "GND (0x18)"),
        ("GND", "GND"),
    ):
        d += elm.Line().at(accel.absanchors[name]).left(1.0)
        d += elm.Label().label(to, loc="left", fontsize=10)


def _button(d: schemdraw.Drawing, x: float, y: float, pins: dict) -> None:
    d += elm.Label().at((x - 4, y + 1.6)).label("Seat button (x8)", loc="right", fontsize=12)
    gpios = ", ".join(f"GP{g}" for g in pins["BUTTONS"])
    d += elm.Dot(open=True).at((x, y)).label(gpios, loc="left", fontsize=9)
    d += elm.Button().right().label("internal pull-up, active low", loc="top", fontsize=9)
    d += elm.Ground()


def drawing(circuit) -> schemdraw.Drawing:
    pinmap = pm.load()
    pins = pinmap["profiles"]["pico"]["pins"]
    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=11, unit=2.0)
        d += (
            elm.Label()
            .at((-16, 12.5))
            .label(
                "Stick-game table wiring, Raspberry Pi Pico profile (generated from "
                "hardware/pinmap.json and hardware/circuit.py by `make hardware`)",
                loc="right",
                fontsize=14,
            )
        )
        _pico(d, circuit, pins)
        _load_cell(d, -16, -4, pins)
        _led_path(d, 8, -4, pins, pinmap["table"]["seats"])
        _i2c(d, -16, -11, pins, pm.accel_addr(pinmap))
        _button(d, 12, -11, pins)
    return d


def svg_text(circuit) -> str:
    schemdraw.use("svg")
    schemdraw.svgconfig.text = "text"  # real text: searchable, small, deterministic
    return drawing(circuit).get_imagedata("svg").decode()


POWER_NETS = ("VBUS", "+5V", "+3V3", "GND")


def _endpoint(p) -> str:
    """One pin in words: `U1 Pico GP2 (pin 4)`, `U2 HX711 SCK`."""
    kind = KIND_LABEL.get(p.part.name, p.part.name)
    if p.part.name == "pico":
        return f"{p.part.ref} Pico {p.name} (pin {p.num})"
    return f"{p.part.ref} {kind} {p.name}"


def wire_list(circuit) -> str:
    """hardware/wiring-list.md: every net and the pins it joins, signals first."""
    nets = [n for n in circuit.nets if n.pins and n.name != "__NOCONNECT"]
    signal = sorted((n for n in nets if n.name not in POWER_NETS), key=lambda n: n.name)
    power = sorted(
        (n for n in nets if n.name in POWER_NETS), key=lambda n: POWER_NETS.index(n.name)
    )
    lines = [
        "# Wire list",
        "",
        "GENERATED by `make hardware` from hardware/circuit.py (the same nets as the KiCad",
        "netlist): every connection to make, one net per row. Reference designators match",
        "bom.csv; Pico pin numbers are the 40-pin header's.",
        "",
        "| net | connects |",
        "| --- | --- |",
    ]
    for net in signal + power:
        ends = sorted((_endpoint(p) for p in net.pins), key=_natural)
        lines.append(f"| {net.name} | {'<br>'.join(ends)} |")
    return "\n".join(lines) + "\n"


def _natural(text: str) -> tuple:
    """Sort U2 before U10 and GP3 before GP10."""

    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text))
