"""`sticktable calibrate`: walk a person through calibrating the table's load cells.

    sticktable calibrate [--port PORT | --sim] --mass GRAMS [--sticks N] [--yes]

Over the normal link (no REPL, no mpremote): asks for the empty plate, the reference mass right
over each cell in turn and at the centre, then N sticks added one at a time; reads each step as
the median of a still second of the board's raw stream; solves each cell's counts per gram
(sticktable/calibration.py). Last, a tap on the empty plate: the firmware's own detector learns
the plate's ringing from it (`ring`: its period in samples and its damping), so the table nulls
the ringing from the first event of a game instead of learning it from the first few. Shows the
table with the
residuals, the stick masses and the ringing, asks to confirm and sends it to the board (`cal`),
which uses it at once and stores it. Answers come from
stdin (a pipe works: one line per prompt). `--yes` asks nothing: each step is read as soon as
the plate has changed and keeps still, and the result is sent without confirmation.

`--sim`: the simulated board on a virtual plate whose true gains are known; each prompt is
acted out on the plate, and the end compares the result with the truth.
"""

from __future__ import annotations

import contextlib
import math
import random
import statistics
import tempfile
import time
from pathlib import Path

from sticktable.calibration import (
    IN_PLAY,
    CalibrationError,
    centre_mm,
    command,
    grams,
    query,
    read_still,
    solve,
    stick_masses,
    to_board,
)
from sticktable.cliargs import add_hello_timeout
from sticktable.errors import UserError
from sticktable.sim.detection import learned_ring
from sticktable.sim.physics import REAL
from sticktable.sim.tower import Effect, VirtualTower

NOMINAL_CPG = 2150.0  # what the simulated board starts with (an uncalibrated board's default)
WARM_MS = 15 * 60_000  # the simulated table has been on for 15 minutes (warm-up drift done)
STICK_SPREAD = 0.03  # simulated sticks: 3 % mass spread (1 sigma)
CHANGE_TIMEOUT_S = 120  # --yes at a real table: time to do each step
TAP_S = 3.0  # the raw stream kept after the tap prompt (a ringing plate rings for ~1 s)
TAP_YES_S = 8.0  # ... with --yes at a real table: the person taps within this time
MIN_TAP_SAMPLES = 80  # a second of the board's stream at least, or the link is failing
# The simulated plate rings as the tuned virtual tower's does (host/sticktable/sim/physics.py).
SIM_RING = {key: REAL[key] for key in ("ring_hz", "ring_zeta", "hx_average")}


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="calibrate the load cells with a known mass and weigh the sticks",
        description=__doc__.split("\n\n")[0],
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--port", metavar="PORT", help="the board's serial port (default: USB id)")
    where.add_argument("--sim", action="store_true", help="calibrate the simulated board")
    where.add_argument(
        "--board",
        choices=["pi"],
        help="pi: calibrate this Raspberry Pi's table (no microcontroller)",
    )
    parser.add_argument(
        "--mass", type=float, required=True, metavar="GRAMS", help="the reference mass"
    )
    parser.add_argument(
        "--sticks", type=int, default=10, metavar="N", help="sticks to weigh (0: keep stick_g)"
    )
    parser.add_argument(
        "--yes", action="store_true", help="do not wait for Enter at each step; send the result"
    )
    parser.add_argument(
        "--seed", type=int, default=1, metavar="N", help="--sim: the virtual table's seed"
    )
    add_hello_timeout(parser)
    parser.set_defaults(func=run)


# -- the walk-through ------------------------------------------------------------------------


def ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        raise UserError("no answer on stdin: calibration stopped, nothing sent") from None


def _moved_g(before: list[int], after: list[int], cpg: list[float]) -> float:
    """Grams that came, went or moved between two readings, over all cells."""
    return sum(abs(a - b) / abs(k) for a, b, k in zip(after, before, cpg, strict=True))


def _await_change(link, cpg, before, reading, change_g: float) -> list[int]:
    """--yes at a real table: readings until the plate differs from the last step by
    `change_g` (the person has done what was asked) and keeps still."""
    deadline = time.monotonic() + CHANGE_TIMEOUT_S
    while _moved_g(before, reading, cpg) < change_g:
        if time.monotonic() > deadline:
            raise CalibrationError(
                f"nothing changed on the plate within {CHANGE_TIMEOUT_S} s: calibration "
                "stopped, nothing sent"
            )
        with contextlib.suppress(CalibrationError):  # hands on the plate: not still yet
            reading = read_still(link, cpg)
    return reading


def walk(link, mass: float, sticks: int, yes: bool, plate=None) -> dict:
    """The whole procedure on an open link; returns the calibration sent (or raises)."""
    now = query(link)
    if now.get("play"):
        raise CalibrationError(IN_PLAY)
    cpg_now = [float(k) for k in now["counts_per_gram"]]
    xy = now["cell_xy_mm"]
    n = len(cpg_now)

    last: list[list[int]] = []

    def step(what: str, action, change_g: float = 0.0) -> list[int]:
        print(what)
        if not yes:
            ask("  keep hands off the table and press Enter ")
        elif plate is None and last:
            print("  (--yes: read once the plate has changed and keeps still)")
        if plate is not None:
            plate.act(action)
        reading = read_still(link, cpg_now)
        if yes and plate is None and last:
            reading = _await_change(link, cpg_now, last[-1], reading, change_g)
        last.append(reading)
        return reading

    print(
        f"Calibrating {n} load cells with a {mass:g} g mass"
        + (f" and {sticks} sticks" if sticks else "")
        + ". The table should have been on for 15 minutes (the cells drift while warming)."
    )
    zero = step("1. Empty the plate: take the tower and everything else off it.", ("empty",))
    placements, spots = [], []
    for i in range(n):
        x, y = xy[i]
        placements.append(
            step(
                f"{i + 2}. Put the {mass:g} g mass right over cell {i + 1} "
                f"(x={x:g}, y={y:g} mm from the centre).",
                ("mass", x, y),
                mass / 4,
            )
        )
        spots.append((float(x), float(y)))
    placements.append(
        step(
            f"{n + 2}. Put the {mass:g} g mass at the centre of the plate.",
            ("mass", 0.0, 0.0),
            mass / 4,
        )
    )
    spots.append((0.0, 0.0))
    cpg = solve(zero, placements, mass, spots, xy)
    levels = []
    for k in range(sticks):
        what = "Take the mass off and put one stick" if k == 0 else "Add one more stick"
        levels.append(
            step(
                f"{n + 3}.{k + 1} {what} on the plate (stick {k + 1} of {sticks}).",
                ("sticks", k + 1),
                float(now["stick_g"]) / 2,
            )
        )
    weighed = stick_masses(levels, zero, cpg) if sticks else None
    stick_g = weighed.mean if weighed else float(now["stick_g"])
    number = f"{n + 3 + (1 if sticks else 0)}."

    def cleared() -> None:
        """--yes at a real table: wait until the plate has changed since the last step (the
        sticks off, the tower on) and keeps still."""
        _await_change(link, cpg_now, last[-1], last[-1], float(now["stick_g"]) / 2)

    ring, rate = tap(link, yes, plate, number, to_board(cpg, zero, xy, stick_g), cleared)
    show(cpg, cpg_now, zero, placements, spots, mass, xy, weighed)
    print(_ring_line(ring, rate))
    if not yes and ask("Send this calibration to the board? [y/N] ").strip().lower() not in (
        "y",
        "yes",
    ):
        raise UserError("not sent: the board keeps its calibration")
    cal = to_board(cpg, zero, xy, stick_g, ring)
    command(link, "cal", **cal)
    after = query(link)
    where = "stored on the board" if after.get("stored") else "in use (this board keeps it in RAM)"
    print(f"sent: the board uses the new calibration, {where}")
    return cal


def tap(
    link, yes: bool, plate, number: str, cal: dict, cleared=None
) -> tuple[list[float] | None, float]:
    """The tap step: the raw stream while the person taps the plate once, the ringing the
    firmware's detector (run here, on the board's stream) learns from it ([samples per cycle,
    damping ratio], or None) and the board's sample rate over it (to tell the ringing in Hz)."""
    from sticktable.commands.record import _stream

    print(f"{number} Take the sticks off and stand the empty tower on the plate, as for a game;")
    print("   tap the plate firmly once with a knuckle, then keep hands off: the table learns")
    print("   how the plate rings.")
    if not yes:
        ask("  press Enter, then tap ")
    elif plate is None:
        print("  (--yes: waiting for the plate to change and keep still)")
        if cleared is not None:
            cleared()
        print(f"  tap now (within {TAP_YES_S:g} s)")
    if plate is not None:
        plate.act(("tap",))
    stats = {"samples": 0, "dropped": 0}
    seconds = TAP_YES_S if yes and plate is None else TAP_S
    samples = list(_stream(link, len(cal["counts_per_gram"]), seconds, stats))
    if stats.get("interrupted"):
        raise UserError("stopped: calibration not sent")
    if len(samples) < MIN_TAP_SAMPLES:
        raise CalibrationError(
            f"the board sent {len(samples)} raw samples during the tap: check the link "
            "(sticktable doctor); calibration stopped, nothing sent"
        )
    period = statistics.median(b.t_ms - a.t_ms for a, b in zip(samples, samples[1:], strict=False))
    meta = dict(cal, cells=len(cal["counts_per_gram"]))
    return learned_ring(meta, samples), 1000.0 / (period or 1)


def _ring_line(ring: list[float] | None, rate: float) -> str:
    if ring is None:
        return (
            "plate ringing: none learned from the tap (a plate that does not ring needs no "
            "filter; the detector learns any ringing from the game's first events)"
        )
    return (
        f"plate ringing: {rate / ring[0]:.1f} Hz ({ring[0]:.2f} samples a cycle at "
        f"{rate:.1f} samples/s), damping ratio {ring[1]:.3f}"
    )


def show(cpg, cpg_now, zero, placements, spots, mass, xy, weighed) -> None:
    print()
    print(" cell   x mm   y mm   counts/g   was      change")
    for i, k in enumerate(cpg):
        change = 100.0 * (k - cpg_now[i]) / cpg_now[i]
        x, y = xy[i]
        print(f"  {i + 1:>2} {x:>6g} {y:>6g} {k:>10.2f} {cpg_now[i]:>9.2f} {change:>+8.1f} %")
    print(" placement          weighs g   residual g   centre found at (mm)")
    for j, reading in enumerate(placements):
        g = grams(reading, zero, cpg)
        cx, cy = centre_mm(reading, zero, cpg, xy)
        where = "centre" if j == len(placements) - 1 else f"over cell {j + 1}"
        print(f"  {where:<16} {g:>9.2f} {g - mass:>+11.3f}   ({cx:.1f}, {cy:.1f}) for {spots[j]}")
    if weighed:
        m = weighed.masses
        print(
            f" sticks: {len(m)} weighed, mean {weighed.mean:.3f} g, sd {weighed.sd:.3f} g, "
            f"lightest {min(m):.3f} g, heaviest {max(m):.3f} g (spread {weighed.spread_pct:.1f} %)"
        )
    print()


# -- the simulated plate -----------------------------------------------------------------------


class SimPlate:
    """A virtual plate (host/sticktable/sim/tower.py physics: lever rule, noise, wild values,
    missing readings) whose loads follow the walk-through's steps: the person, simulated."""

    def __init__(self, seed: int, mass: float):
        self.tower = VirtualTower.create(seed=seed, physics=SIM_RING)
        self.tower.tower_load = 0.0  # calibration starts from a bare plate
        self.tower.t = float(WARM_MS)
        self.mass = mass
        rng = random.Random(seed)
        stick_g = self.tower.board.stick_g
        self.stick_g = [stick_g * (1 + rng.gauss(0, STICK_SPREAD)) for _ in range(64)]
        self.loads: list[tuple[float, float, float]] = []
        self.tower.add(_Loads(self))

    @property
    def truth(self):
        return self.tower.board

    def meta(self, cal_file: Path | None = None) -> dict:
        """The simulated board's start: nominal gains, no zero (an uncalibrated board)."""
        meta = self.truth.meta(with_zero=False)
        meta["counts_per_gram"] = [NOMINAL_CPG] * len(meta["counts_per_gram"])
        if cal_file is not None:
            meta["cal_file"] = str(cal_file)
        return meta

    def samples(self):
        while True:
            yield from self.tower.run(1000.0)

    def act(self, action: tuple) -> None:
        kind = action[0]
        if kind == "empty":
            self.loads = []
        elif kind == "mass":
            self.loads = [(self.mass, action[1], action[2])]
        elif kind == "tap":
            self.loads = []  # (the simulated plate rings alike with or without the tower)
            self.tower.knock(strength_mg=600.0)
        elif kind == "sticks":
            k = action[1]
            self.loads = [
                (self.stick_g[s], 20.0 * math.cos(s), 20.0 * math.sin(s)) for s in range(k)
            ]
        print(f"  (simulated: {self._say(action)})")

    def _say(self, action) -> str:
        if action[0] == "empty":
            return "the plate is empty"
        if action[0] == "mass":
            return f"the {self.mass:g} g mass stands at ({action[1]:g}, {action[2]:g}) mm"
        if action[0] == "tap":
            return "a knuckle taps the plate"
        return f"{action[1]} stick(s) on the plate"


class _Loads(Effect):
    """The plate's current loads, as a tower effect that never ends."""

    def __init__(self, plate: SimPlate):
        self.plate = plate

    def loads(self, tower, t):
        return list(self.plate.loads)


def accuracy(cal: dict, plate: SimPlate) -> list[float]:
    """Each cell's error against the simulated truth, in %."""
    return [
        100.0 * (got - true) / true
        for got, true in zip(cal["counts_per_gram"], plate.truth.counts_per_gram, strict=True)
    ]


@contextlib.contextmanager
def simulated(seed: int, mass: float):
    from sticktable.sim.runner import SimTable

    plate = SimPlate(seed, mass)
    with tempfile.TemporaryDirectory() as tmp:
        with SimTable(plate.samples(), plate.meta(Path(tmp) / "calibration.json")) as table:
            yield table.port, plate


@contextlib.contextmanager
def pi_board():
    """The table's firmware on this Raspberry Pi (sticktable.pitable); no virtual plate."""
    from sticktable.pitable import PiTable

    with PiTable() as table:
        yield table.port, None


def run(args) -> int:
    if not math.isfinite(args.mass) or args.mass <= 0:
        raise UserError("--mass must be a positive number of grams")
    if args.sticks < 0 or args.sticks > 60:
        raise UserError("--sticks must be from 0 to 60")
    from sticktable.link import BoardLink

    opener = (
        simulated(args.seed, args.mass) if args.sim else contextlib.nullcontext((args.port, None))
    )
    if args.board == "pi":
        opener = pi_board()
    with opener as (port, plate):
        link = BoardLink.open(port, hello_timeout=args.hello_timeout, ack_on_poll=True)
        try:
            cal = walk(link, args.mass, args.sticks, args.yes, plate)
        finally:
            link.close()
    if plate is not None:
        errors = accuracy(cal, plate)
        true = plate.truth.counts_per_gram
        print(
            "simulated truth: counts/g "
            + ", ".join(f"{t:.2f}" for t in true)
            + "; error "
            + ", ".join(f"{e:+.3f} %" for e in errors)
            + f"; worst {max(abs(e) for e in errors):.3f} %"
        )
        physics = plate.tower.physics
        print(
            f"simulated plate: rings at {physics.ring_hz:.1f} Hz, damping ratio "
            f"{physics.ring_zeta:.3f}"
        )
        if args.sticks:
            real = plate.stick_g[: args.sticks]
            print(
                f"simulated sticks: true mean {sum(real) / len(real):.3f} g, "
                f"learned {cal['stick_g']:.3f} g"
            )
    return 0
