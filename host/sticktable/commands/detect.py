"""`sticktable detect TRACE.csv`: the firmware's own detector over a sensor trace, as JSON lines;
with --plot, also a picture of the trace and the events (matplotlib, imported only then)."""

import json
import sys
from pathlib import Path

from sticktable import textfile
from sticktable.errors import InputRefused, UserError
from sticktable.sim.detection import run_detector
from sticktable.sim.trace import stream_trace

PLOT_SUFFIXES = (".png", ".svg")


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
    parser.add_argument(
        "--plot",
        metavar="OUT",
        help="also draw total grams, centre of pressure and tilt over time with the events "
        "into OUT (.png or .svg)",
    )
    parser.add_argument(
        "--truth",
        metavar="FILE",
        help="with --plot: the trace's labelled truth (JSON lines from `simulate --truth`)",
    )
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.plot and Path(args.plot).suffix.lower() not in PLOT_SUFFIXES:
        raise UserError(f"--plot {args.plot}: the picture must end in .png or .svg")
    if args.truth and not args.plot:
        raise UserError("--truth goes with --plot")
    truth = _truth(args.truth) if args.truth else None
    # Streamed: memory does not grow with the trace (a picture needs the samples kept).
    # InputRefused (exit 2) names the bad line.
    meta, samples = stream_trace(args.trace, label="detect")
    events = []  # kept only for the picture
    out = sys.stdout
    with textfile.naming(args.trace):
        if args.plot:
            samples = list(samples)
        for event in run_detector(meta, samples):
            out.write(json.dumps(event, ensure_ascii=False) + "\n")
            if args.plot:
                events.append(event)
    out.flush()
    if args.plot:
        from sticktable.sim.plot import plot_trace

        try:
            plot_trace(meta, samples, events, args.plot, truth, title=Path(args.trace).name)
        except OSError as err:
            raise UserError(f"cannot write {args.plot}: {err.strerror}") from None
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0


def _truth(path: str) -> list[dict]:
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise InputRefused(f"{path}: {err.strerror}") from None
    truth = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError:
            raise InputRefused(f"{path} line {number}: not a JSON object") from None
        if not isinstance(event, dict) or not isinstance(event.get("t_ms"), int):
            raise InputRefused(f"{path} line {number}: a truth event needs an integer t_ms")
        truth.append(event)
    return truth
