"""The bill of materials: the circuit's parts (grouped from the skidl circuit) plus the
mechanical items no netlist holds. Written to hardware/bom.csv by `make hardware`."""

import csv
import io

from hardware.circuit import PARTS

COLUMNS = ("part", "quantity", "example part number", "notes", "references")

# Not in the circuit: what holds and connects it.
MECHANICAL = (
    (
        "USB cable, A to micro-B, data",
        1,
        "any USB 2.0 data cable, <= 2 m",
        "power (500 mA) and the host link in one cable",
    ),
    (
        "Protoboard",
        1,
        "Adafruit Perma-Proto 1609",
        "carries the Pico, the 74AHCT125, the resistors and capacitors",
    ),
    (
        "Tower plate",
        1,
        "6 mm plywood or 3 mm aluminium, 140 x 140 mm",
        "rests on the four load cells' free ends; see mechanical.md",
    ),
    (
        "Base board",
        1,
        "18 mm plywood, 400 x 400 mm",
        "holds the cells' fixed ends, the electronics and the accelerometer",
    ),
    (
        "Plate guard ring",
        1,
        "3D-printed or 6 mm plywood, 150 mm inner square",
        "2 mm gap around the plate: fallen sticks land on the base, not the plate",
    ),
    (
        "Load-cell spacers and screws",
        4,
        "2 x M4 + 2 x M5 screws, 3 mm spacers per cell",
        "spacers under the fixed end and over the free end so the bar can bend",
    ),
    (
        "JST-XH 4-pin cable, 30 cm",
        12,
        "JST XHP-4 housings + SXH-001T-P0.6 crimps",
        "8 rings + 4 load cells to the protoboard",
    ),
    ("Hook-up wire 24 AWG", 1, "solid core, 3 colours", "protoboard wiring"),
)


def rows(circuit) -> list[tuple]:
    """One row per kind of part, in the order PARTS lists them, then the mechanical items."""
    refs: dict[str, list[str]] = {}
    for part in circuit.parts:
        refs.setdefault(part.name, []).append(part.ref)
    out = []
    for kind, (value, mpn, notes) in PARTS.items():
        if kind in refs:
            names = sorted(refs[kind], key=lambda r: (r.rstrip("0123456789"), len(r), r))
            out.append((value, len(names), mpn, notes, " ".join(names)))
    out += [(part, qty, mpn, notes, "") for part, qty, mpn, notes in MECHANICAL]
    return out


def csv_text(circuit) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows(circuit))
    return buf.getvalue()
