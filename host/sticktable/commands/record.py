"""`sticktable record [--port P] [--meta CAL.json] OUT.csv`: a board streams raw samples into a
sensor trace. The trace's meta (the calibration) comes from --meta, else from the board's own
stored calibration (its `cal` event, asked for with `calq`: firmware/PROTOCOL.md)."""

import json
import sys
import time

from sticktable import textfile
from sticktable.cliargs import add_hello_timeout, seconds
from sticktable.errors import InputRefused, UserError
from sticktable.sim.tower import Sample
from sticktable.sim.trace import check_meta, write_trace


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "record",
        help="record the board's raw sensor samples as a sensor trace",
        description="Ask the board to stream its raw load-cell and accelerometer samples and "
        "write them as a sensor trace (host/docs/formats/sensor-trace.md) until Ctrl-C or "
        "--seconds.",
    )
    parser.add_argument("out", metavar="TRACE", help="trace file to write (CSV), - for stdout")
    parser.add_argument(
        "--port", metavar="PORT", help="serial port (default: find the board by its USB id)"
    )
    parser.add_argument(
        "--meta",
        metavar="FILE",
        help="JSON file with the board's calibration: counts_per_gram, cell_xy_mm, stick_g "
        "(and optionally zero_counts, sticks); default: the calibration the board uses",
    )
    parser.add_argument(
        "--seconds", type=seconds, metavar="SECONDS", help="stop after this many seconds"
    )
    add_hello_timeout(parser)
    parser.set_defaults(func=run)


def run(args) -> int:
    meta = _load_meta(args.meta) if args.meta else None
    from sticktable.link import BoardLink

    link = BoardLink.open(args.port, hello_timeout=args.hello_timeout, ack_on_poll=True)
    try:
        if meta is None:
            meta = _board_meta(link)
        cells = link.hello.get("cells") if link.hello else None
        if isinstance(cells, int) and cells != meta["cells"]:
            raise UserError(f"the board has {cells} cells, the meta {meta['cells']}")
        stats = {"samples": 0, "dropped": 0}
        try:
            write_trace(args.out, meta, _stream(link, meta["cells"], args.seconds, stats))
        except OSError as err:
            raise UserError(f"cannot write {args.out}: {err.strerror}") from None
    finally:
        link.close()
    print(
        f"recorded {stats['samples']} samples to {textfile.name(args.out, output=True)}"
        + (f" ({stats['dropped']} unusable raw frames dropped)" if stats["dropped"] else ""),
        file=sys.stderr if args.out == "-" else sys.stdout,  # "-": the trace is stdout
    )
    return 0


def _load_meta(path: str) -> dict:
    try:
        meta = json.loads(textfile.read_text(path))
    except ValueError:
        raise InputRefused(f"{path}: not valid JSON") from None
    return _complete(meta, f"{path}: ")


def _board_meta(link) -> dict:
    """The trace meta from the calibration the board reports."""
    from sticktable.calibration import query

    cal = query(link)
    meta = {key: cal.get(key) for key in ("counts_per_gram", "cell_xy_mm", "stick_g")}
    for key in ("zero_counts", "ring"):  # (ring: the plate's ringing from the calibration's tap)
        if cal.get(key) is not None:
            meta[key] = cal[key]
    return _complete(meta, "the board's calibration: ")


def _complete(meta, where: str) -> dict:
    if isinstance(meta, dict):
        meta = dict(meta)
        if "counts_per_gram" in meta and "cells" not in meta:
            meta["cells"] = (
                len(meta["counts_per_gram"]) if isinstance(meta["counts_per_gram"], list) else 0
            )
        meta.setdefault("sticks", 36)
        meta.setdefault("accel", "base-mg")
    return check_meta(meta, where=where)


def _stream(link, cells: int, seconds: float | None, stats: dict):
    """Samples from the board's `raw` frames, in time order, until the time is up or Ctrl-C."""
    end = None if seconds is None else time.monotonic() + seconds
    link.send("stream", on=True)
    last_t = -1
    try:
        while end is None or time.monotonic() < end:
            for msg in link.poll(0.05):
                sample = _sample(msg, cells)
                if sample is None:
                    if msg.get("k") == "raw":
                        stats["dropped"] += 1
                    continue
                if sample.t_ms <= last_t:
                    stats["dropped"] += 1  # a reboot or a clock step: keep the trace monotonic
                    continue
                last_t = sample.t_ms
                stats["samples"] += 1
                yield sample
    except KeyboardInterrupt:
        stats["interrupted"] = True  # (record stops here; calibrate stops without sending)
    try:
        link.send("stream", on=False)
        link.poll(0.1)
    except (OSError, UserError):
        pass


def _sample(msg: dict, cells: int):
    if msg.get("k") != "raw":
        return None
    t, lc, acc = msg.get("t"), msg.get("lc"), msg.get("a")
    if not isinstance(t, int) or t < 0 or not isinstance(lc, list) or len(lc) != cells:
        return None
    if not isinstance(acc, list) or len(acc) != 3:
        return None
    if not all(v is None or isinstance(v, int) for v in lc + acc):
        return None
    return Sample(t, tuple(lc), *acc)
