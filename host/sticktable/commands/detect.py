"""`sticktable detect TRACE.csv`: the firmware's own detector over a sensor trace, as JSON lines."""

import json
import sys

from sticktable import textfile
from sticktable.sim.detection import run_detector
from sticktable.sim.trace import stream_trace


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "detect",
        help="print the events the table's detector finds in a sensor trace",
        description="Run the firmware's event detector over a sensor trace "
        "(host/docs/formats/sensor-trace.md) and print one JSON object per event.",
    )
    parser.add_argument(
        "trace", metavar="TRACE", help="sensor trace (CSV, '# sticktrace 1' header), - for stdin"
    )
    parser.set_defaults(func=run)


def run(args) -> int:
    # Streamed: memory does not grow with the trace. InputRefused (exit 2) names the bad line.
    meta, samples = stream_trace(args.trace, label="detect")
    with textfile.naming(args.trace):
        events = run_detector(meta, samples)
    out = sys.stdout
    for event in events:
        out.write(json.dumps(event, ensure_ascii=False) + "\n")
    out.flush()
    return 0
