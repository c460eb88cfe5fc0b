"""`sticktable detect TRACE.csv`: the firmware's own detector over a sensor trace, as JSON lines."""

import json
import sys

from sticktable.sim.detection import run_detector
from sticktable.sim.trace import read_trace


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "detect",
        help="print the events the table's detector finds in a sensor trace",
        description="Run the firmware's event detector over a sensor trace "
        "(host/docs/formats/sensor-trace.md) and print one JSON object per event.",
    )
    parser.add_argument("trace", help="sensor trace file (CSV, '# sticktrace 1' header)")
    parser.set_defaults(func=run)


def run(args) -> int:
    meta, samples = read_trace(args.trace)  # InputRefused (exit 2) names the bad line
    out = sys.stdout
    for event in run_detector(meta, samples):
        out.write(json.dumps(event) + "\n")
    out.flush()
    return 0
