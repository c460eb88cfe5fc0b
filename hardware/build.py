"""`make hardware`: check the circuit and write everything a builder needs.

    python -m hardware.build

Runs the electrical rules check (fails unless it is clean), writes the KiCad netlist to
hardware/out/table.net (skidl's scratch files stay in hardware/out/ too), regenerates the
firmware pin modules from pinmap.json, and writes the generated documents that live in the
repository beside the hand-written ones: bom.csv, wiring.svg, power-budget.md.
"""

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


def main() -> int:
    if pm.main(["--write"]) != 0:
        return 1
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
