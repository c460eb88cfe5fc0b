"""`sticktable doctor`: check a connected table and say in plain words what is wrong.

    sticktable doctor [--port /dev/ttyACM0]     the board (found by USB id without --port)
    sticktable doctor --sim                     the simulated board (firmware on the unix port)

Checks: the board answers and speaks our protocol; its firmware is the version this host
carries; every load cell gives readings that are neither missing, stuck nor saturated; the
accelerometer reads about 1 g; no part reports a fault. Then shows a ring test pattern (each
seat's ring lights in turn) and says what you should see. Exit status 0 when all is well.
"""

import contextlib
import time

from sticktable.errors import UserError
from tablefw.reading import MISSING

SATURATED = (-(2**23), 2**23 - 1)  # HX711 rails: the input is out of range or the chip is dead
STREAM_S = 1.5  # raw samples to look at (~120 at 80/s)
RING_STEP_S = 0.4


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "doctor", help="check a connected table's board", description=__doc__.split("\n\n")[0]
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--port", metavar="DEV", help="the board's serial port")
    where.add_argument("--sim", action="store_true", help="check the simulated board")
    where.add_argument(
        "--board", choices=["pi"], help="pi: check this Raspberry Pi as the table's board"
    )
    parser.add_argument("--hello-timeout", type=float, default=3.0, metavar="S")
    parser.set_defaults(func=run)


def host_firmware_version() -> str:
    """The firmware version this host's source tree carries (what `make flash` installs)."""
    from tablefw import app

    return app.FW_VERSION


def check_version(hello: dict, expected: str) -> list[str]:
    fw = hello.get("fw")
    if fw != expected:
        return [
            f"the board runs firmware {fw}, this host carries {expected}: "
            "run `make flash PORT=...` (hold seat 1's button while plugging the board in)"
        ]
    return []


def check_cells(samples: list[dict], cells: int) -> list[str]:
    """Problems with the load cells seen in raw samples ({"lc": [...], "a": [...]})."""
    if not samples:
        return ["the board sent no raw samples: the load cells are not being read"]
    found = []
    for i in range(cells):
        values = [s["lc"][i] for s in samples if i < len(s.get("lc", ()))]
        name = f"load cell {i + 1} (HX711 #{i + 1})"
        read = [v for v in values if v is not None and v != MISSING]
        if len(read) < len(samples) // 2:
            found.append(f"{name} gives no readings: check its HX711's DOUT, SCK and power")
        elif any(v in SATURATED for v in read):
            found.append(
                f"{name} is saturated: a load-cell wire (E+, E-, A+, A-) is loose "
                "or the cell is overloaded"
            )
        elif len(set(read)) == 1:
            found.append(f"{name} reads the same value every time: its wiring is suspect")
    return found


def check_accel(samples: list[dict]) -> list[str]:
    values = [s["a"] for s in samples if s.get("a")]
    if not values:
        return []  # already reported as no samples
    ax, ay, az = (sum(v[i] for v in values) / len(values) for i in range(3))
    g = (ax * ax + ay * ay + az * az) ** 0.5
    if not 700 <= g <= 1300:
        return [
            f"the accelerometer reads {g:.0f} mg instead of ~1000 mg (gravity): check the "
            "LIS3DH's I2C wires (SDA, SCL), its power, and SDO to GND (address 0x18)"
        ]
    return []


def check_faults(messages: list[dict]) -> list[str]:
    words = {
        "cells": "the load cells stopped answering",
        "accel": "the accelerometer does not answer on I2C",
    }
    latest = {m["what"]: m["ok"] for m in messages if m.get("k") == "fault"}
    return [f"the board reports: {words.get(what, what)}" for what, ok in latest.items() if not ok]


LONG_PULSE_LIMIT = 0.05  # a Pi table losing more readings than this to long clock pulses


def check_clock_pulses(samples: list[dict]) -> list[str]:
    """A Pi table (no microcontroller) discards HX711 readings whose clock pulse ran long (the
    process was preempted while SCK was high): say how many, and whether that is too many."""
    counted = [s for s in samples if "hx711_long" in s]
    if len(counted) < 2:
        return []
    long = counted[-1]["hx711_long"] - counted[0]["hx711_long"]
    kept = counted[-1]["hx711_reads"] - counted[0]["hx711_reads"]
    rate = long / max(1, long + kept)
    print(f"HX711 readings discarded for a long clock pulse: {long} of {long + kept} ({rate:.1%})")
    if rate > LONG_PULSE_LIMIT:
        return [
            f"{rate:.0%} of the HX711 readings were discarded for a clock pulse that ran long: "
            "the Pi is too busy (run the table as root for its real-time priority, stop "
            "other work)"
        ]
    return []


def collect(link, seconds: float) -> list[dict]:
    end = time.monotonic() + seconds
    messages: list[dict] = []
    while time.monotonic() < end:
        messages.extend(link.poll(0.02))
    return messages


def ring_test(link, seats: int) -> None:
    """Each seat's ring full (blue) in turn, then the idle display."""
    for seat in range(seats):
        scores = [1 if i == seat else 0 for i in range(seats)]
        link.send("show", sc=scores, scale=1, turn=None, mode="play", win=[], mk=[])
        collect(link, RING_STEP_S)
    link.send("show", sc=[0] * seats, scale=1, turn=None, mode="idle", win=[], mk=[])
    collect(link, 0.1)


@contextlib.contextmanager
def simulated_port():
    """A simulated board with an empty, still tower, paced in real time."""
    from sticktable.sim.runner import SimTable
    from sticktable.sim.tower import VirtualTower

    tower = VirtualTower.create(seed=1)
    with SimTable(tower.run(60_000), tower.board.meta(), speed=1.0) as table:
        yield table.port


@contextlib.contextmanager
def pi_port():
    """The table's firmware on this Raspberry Pi (sticktable.pitable)."""
    from sticktable.pitable import PiTable

    with PiTable() as table:
        yield table.port


def diagnose(link) -> list[str]:
    """Every check on an open link; returns the problems (empty: all is well)."""
    hello = link.hello or {}
    problems = check_version(hello, host_firmware_version())
    cells = int(hello.get("cells", 4))
    link.send("stream", on=True)
    messages = collect(link, STREAM_S)
    link.send("stream", on=False)
    raw = [m for m in messages if m.get("k") == "raw"]
    problems += check_faults(messages)
    problems += check_cells(raw, cells)
    problems += check_accel(raw)
    problems += check_clock_pulses(raw)
    print(
        f"board {hello.get('board')} firmware {hello.get('fw')} protocol "
        f"{'.'.join(map(str, hello.get('proto', [])))}, {cells} cells, "
        f"{hello.get('seats')} seats, last reset: {hello.get('reset')}; "
        f"{len(raw)} raw samples in {STREAM_S:g} s"
    )
    seats = int(hello.get("seats", 8))
    print(
        f"ring test: the rings light blue one at a time, seat 1 to seat {seats}. A ring that "
        "stays dark, and every ring after it, points to the data wire into it; wrong colours "
        "mean a ring of another pixel type (RGBW)"
    )
    ring_test(link, seats)
    return problems


def run(args) -> int:
    from sticktable.link import BoardLink

    opener = simulated_port() if args.sim else contextlib.nullcontext(args.port)
    if args.board == "pi":
        opener = pi_port()
    with opener as port:
        link = BoardLink.open(port, hello_timeout=args.hello_timeout, ack_on_poll=True)
        try:
            problems = diagnose(link)
        finally:
            link.close()
    for problem in problems:
        print(f"PROBLEM: {problem}")
    if problems:
        raise UserError(f"{len(problems)} problem(s) found (above)")
    print("all checks passed")
    return 0
