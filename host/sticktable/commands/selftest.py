"""`sticktable selftest [--port DEV | --sim] --mass GRAMS`: the table's sensing checked step by
step (noise, accelerometer, gain and centre of pressure with a known mass, drift, the plate's
resonance and the ring test), printed as a report card (host/sticktable/selftest.py)."""

from __future__ import annotations

from sticktable.cliargs import add_hello_timeout
from sticktable.errors import UserError
from sticktable.selftest import report

SETTLE_MS = 800  # after each prompt: hands away, the plate settles


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "selftest",
        help="check the table's sensing with a known mass and print a report card",
        description="Check the table's sensing step by step with a known mass: noise floor, "
        "accelerometer, gain and centre of pressure at the centre and over each cell, drift "
        "over a minute, the plate's resonance from a tap and the ring test. Prints pass or "
        "fail per line and what to fix; exit 0 if all pass, 1 if not.",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--port", metavar="PORT", help="the board's serial port (default: USB id)")
    where.add_argument(
        "--sim", action="store_true", help="test the virtual tower (simulated time: seconds)"
    )
    parser.add_argument(
        "--mass", type=float, default=200.0, metavar="GRAMS", help="the known mass (200 g)"
    )
    parser.add_argument(
        "--seed", type=int, default=1, metavar="N", help="--sim: the virtual table's seed"
    )
    add_hello_timeout(parser)
    parser.set_defaults(func=run)


def run(args) -> int:
    if not args.mass > 0:
        raise UserError("--mass must be a positive number of grams")
    if args.sim:
        bench = SimBench(args.seed, args.mass)
        ok, checks = report(bench.meta, bench, args.mass)
    else:
        from sticktable.link import BoardLink

        link = BoardLink.open(args.port, hello_timeout=args.hello_timeout)
        try:
            bench = LinkBench(link)
            ok, checks = report(bench.meta, bench, args.mass)
        finally:
            link.close()
    print(f"\nsensing self-test ({'virtual tower' if args.sim else 'the board'}):")
    for check in checks:
        print(check.line())
    failed = sum(1 for c in checks if not c.ok)
    print(f"\n{'PASS' if ok else 'FAIL'}: {len(checks) - failed} of {len(checks)} checks pass")
    return 0 if ok else 1


class SimBench:
    """The virtual tower (issue-10 physics) with the person's steps acted out on it."""

    def __init__(self, seed: int, mass: float):
        from sticktable.sim.physics import REAL
        from sticktable.sim.tower import Effect, VirtualTower

        self.tower = VirtualTower.create(seed, physics=REAL)
        self.tower.t = 15 * 60_000.0  # on for 15 minutes: warm-up drift done
        self.mass = mass
        self.load: list[tuple[float, float, float]] = []
        bench = self

        class Loads(Effect):
            def loads(self, tower, t):
                return list(bench.load)

        self.tower.add(Loads())
        self.meta = self.tower.board.meta()
        list(self.tower.run(2000))

    def window(self, action: tuple, ms: float, prompt: str) -> list:
        print(f"{prompt}\n  (simulated)")
        if action[0] == "mass":
            self.load = [(self.mass, action[1], action[2])]
        elif action[0] == "empty":
            self.load = []
        if action[0] == "tap":
            self.tower.knock(strength_mg=600.0)
        else:
            list(self.tower.run(SETTLE_MS))
        return list(self.tower.run(ms))


class LinkBench:
    """The board over the link: a prompt, Enter, then the raw stream for a while."""

    def __init__(self, link):
        from sticktable.commands.record import _board_meta

        self.link = link
        self.meta = _board_meta(link)

    def window(self, action: tuple, ms: float, prompt: str) -> list:
        from sticktable.commands.record import _stream

        print(prompt)
        try:
            input("  press Enter when ready ")
        except EOFError:
            raise UserError("no answer on stdin: self-test stopped") from None
        stats = {"samples": 0, "dropped": 0}
        samples = list(_stream(self.link, self.meta["cells"], (SETTLE_MS + ms) / 1000, stats))
        if action[0] != "tap":
            samples = [s for s in samples if s.t_ms - samples[0].t_ms >= SETTLE_MS]
        if len(samples) < 20:
            raise UserError("the board sent too few raw samples: check the link (doctor)")
        return samples
