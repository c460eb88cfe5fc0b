"""`make hardware`: check the circuit and write everything a builder needs.

    python -m hardware.build [--profile pico]

Runs the electrical rules check (fails unless it is clean), writes the KiCad netlist to
hardware/out/table.net (skidl's scratch files stay in hardware/out/ too), regenerates the
firmware pin modules from pinmap.json, and writes the generated documents that live in the
repository beside the hand-written ones: bom.csv, wiring.svg, power-budget.md. The circuit is
drawn for the Pico; for another profile (esp32) the pin map is checked and its pin module
written, and the command says where that board's wiring is described.
"""

import argparse
import sys

from hardware import HARDWARE_DIR, ROOT, bom, pi, power, wiring
from hardware import circuit as hw
from hardware import pinmap as pm

OUT_DIR = HARDWARE_DIR / "out"
NETLIST = OUT_DIR / "table.net"


def generated_documents(circuit) -> dict:
    """Path -> text of every generated document (tests compare them with the repository)."""
    return {
        HARDWARE_DIR / "bom.csv": bom.csv_text(circuit),
        HARDWARE_DIR / "wiring.svg": wiring.svg_text(circuit),
        HARDWARE_DIR / "wiring-list.md": wiring.wire_list(circuit),
        HARDWARE_DIR / "power-budget.md": power.document(),
        HARDWARE_DIR / "pi.md": pi.document(),  # the Raspberry Pi profile (H-PI)
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.build", description=__doc__)
    parser.add_argument("--profile", default="pico", help="a board of hardware/pinmap.json")
    args = parser.parse_args(argv)
    profiles = pm.load()["profiles"]
    if args.profile not in profiles:
        known = ", ".join(profiles)
        print(f"make hardware: no profile {args.profile!r} (known: {known})", file=sys.stderr)
        return 1
    if pm.main(["--write"]) != 0:
        return 1
    if args.profile != "pico":
        module = profiles[args.profile]["module"]
        print(
            f"pin map checked, firmware/{module} written; the circuit, BOM, wiring diagram and "
            f"power budget are drawn for the Pico: the {profiles[args.profile]['board']} "
            "wiring is in hardware/README.md and hardware/pinmap.json"
        )
        return 0
    circuit = hw.build(OUT_DIR)
    errors, warnings = hw.erc_counts(circuit)
    if errors or warnings:
        print(
            f"make hardware: ERC found {errors} errors and {warnings} warnings (above)",
            file=sys.stderr,
        )
        return 1
    hw.write_netlist(circuit, NETLIST)
    for path, text in generated_documents(circuit).items():
        path.write_text(text)
    written = [NETLIST, *generated_documents(circuit)]
    print("ERC clean; wrote " + ", ".join(str(p.relative_to(ROOT)) for p in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
