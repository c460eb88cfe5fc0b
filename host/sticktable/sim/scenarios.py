"""Labelled scenarios: short traces from the virtual tower, each stressing one thing, with the
truth beside them (`sticktable simulate --scenario NAME`, sensing tests).

Every scenario starts with the empty tower still for 2.5 s, builds a tower stick by stick (one
"turn" per stick, marked by a `turn` truth event) and then does what its name says.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sticktable.sim.physics import REAL
from sticktable.sim.tower import Fall, Rebuild, Sample, Stick, VirtualTower


@dataclass
class Scenario:
    name: str
    meta: dict
    samples: list[Sample]
    truth: list[dict]


class _Script:
    def __init__(self, seed: int, clean: bool = False, physics: dict | None = None, **board):
        self.tower = VirtualTower.create(seed, clean=clean, physics=physics, **board)
        self.rng = random.Random(seed + 101)
        g = self.tower.board.stick_g
        self.bag = [Stick(i, round(g * self.rng.uniform(0.95, 1.05), 3)) for i in range(36)]
        self.samples: list[Sample] = []
        self.turn = -1

    def run(self, ms: float) -> None:
        self.samples.extend(self.tower.run(ms))

    def settle(self) -> None:
        self.samples.extend(self.tower.run_until_quiet())

    def new_turn(self) -> None:
        self.turn += 1
        self.tower.turn = self.turn
        self.tower.record("button", self.tower.t, seat=-1, labelled=False)

    def place(self, heavy: bool | None = None, fall_after: float | None = None) -> None:
        self.new_turn()
        self.run(self.rng.uniform(300, 800))
        if heavy is None:
            heavy = self.rng.random() < 0.3
        self.tower.place(self.bag.pop(), heavy=heavy, fall_after_ms=fall_after)
        self.settle()
        self.run(self.rng.uniform(400, 900))

    def build(self, count: int, **kw) -> None:
        for _ in range(count):
            self.place(**kw)

    def done(self, name: str) -> Scenario:
        self.run(1500)
        truth = sorted(self.tower.truth, key=lambda e: e["t_ms"])
        return Scenario(name, self.tower.board.meta(), self.samples, truth)


def _gentle(s):
    s.build(10, heavy=False)


def _heavy(s):
    s.build(10, heavy=True)


def _fall_after_place(s):
    s.build(4)
    for _ in range(4):
        s.place(fall_after=s.rng.uniform(40, 350))


def _fall_at_once(s):
    s.build(4)
    for _ in range(6):
        s.place(fall_after=s.rng.uniform(40, 120))  # let go, and off it goes


def _single_falls(s):
    s.build(6)
    for _ in range(4):
        s.place()
        s.tower.fall([s.rng.choice(s.tower.standing_sticks())])
        s.settle()
        s.run(800)


def _burst(s):
    s.build(12)
    for count in (2, 3, 5):
        s.place()
        s.tower.fall(s.tower.standing_sticks()[-count:], spread_ms=s.rng.uniform(100, 400))
        s.settle()
        s.run(800)


def _big_burst(s):
    s.build(20)
    s.place()
    s.tower.fall(s.tower.standing_sticks()[-9:], spread_ms=500)
    s.settle()


def _cascade(s):
    s.build(14)
    s.place()
    s.tower.fall(s.tower.standing_sticks(), spread_ms=s.rng.uniform(300, 600))
    s.settle()


def _slide(s):
    s.build(8)
    for _ in range(3):
        s.tower.slide(s.rng.choice(s.tower.standing_sticks()))
        s.settle()
        s.run(700)
    s.place()


def _touch(s):
    s.build(5)
    for _ in range(4):
        s.tower.touch()
        s.settle()
        s.run(800)
        s.place()


def _knock(s):
    s.build(8)
    for _ in range(4):
        s.tower.knock()
        s.settle()
        s.run(900)
    s.place()


def _knock_off(s):
    s.build(10)
    for n in (1, 2):
        s.new_turn()
        s.tower.knock(strength_mg=600, knock_off=n)
        s.settle()
        s.run(900)
    s.place()


def _drift_board(b, rng):
    b.warmup_g = [rng.choice((-1, 1)) * 6.0 for _ in b.warmup_g]
    b.warmup_tau_s = 60.0
    b.creep_g_per_min = [0.3 * rng.choice((-1, 1)) for _ in b.creep_g_per_min]


def _drift(s):
    for _ in range(8):
        s.place()
        s.run(4000)


def _wild_board(b, rng):
    b.wild_p = 0.01


def _missing_board(b, rng):
    b.missing_p = 0.02


def _slow_board(b, rng):
    b.rate_hz = 78.0


def _fast_board(b, rng):
    b.rate_hz = 92.0


def _inverted_board(b, rng):
    b.counts_per_gram = [-abs(v) if i % 2 else abs(v) for i, v in enumerate(b.counts_per_gram)]


def _build8(s):
    s.build(8)


def _topple(s):
    s.build(12)
    s.tower.topple()
    s.settle()
    s.tower.phase = "clear"
    start = s.tower.t
    s.run(800)
    s.tower.add(Rebuild(s.tower))
    s.settle()
    s.run(2500)
    s.tower.record("clear", start, end_ms=int(s.tower.t))
    s.tower.phase = "play"
    s.build(3)


def _crumble(s):
    s.build(12)
    s.tower.topple(crumble=True)
    s.settle()


def _press_fall(s):
    s.build(6, heavy=False)
    for _ in range(4):
        s.new_turn()
        s.run(400)
        victim = s.rng.choice(s.tower.standing_sticks())
        s.tower.place(s.bag.pop(), heavy=True)
        s.tower.add(Fall(s.tower, [victim], 0.0, True, delay_ms=s.rng.uniform(80, 400)))
        s.settle()
        s.run(900)


def _touch_fall(s):
    # A hand presses, a stick falls from elsewhere meanwhile, the hand leaves; then more
    # sticks are placed (on a slow plate the episode must still end: issue 10).
    s.build(5, heavy=False)
    s.new_turn()
    s.run(400)
    victim = s.rng.choice(s.tower.standing_sticks()[:-1])
    s.tower.touch()
    s.tower.add(Fall(s.tower, [victim], 0.0, True, delay_ms=s.rng.uniform(150, 400)))
    s.settle()
    s.run(900)
    s.build(4, heavy=False)


def _knock_touch(s):
    s.build(6)
    for _ in range(3):
        s.tower.knock(strength_mg=s.rng.uniform(150, 500))
        s.run(s.rng.uniform(80, 300))
        s.tower.touch()
        s.settle()
        s.run(900)
    s.place()


def _lean_touch(s):
    s.build(6)
    for _ in range(3):
        s.tower.lean_table(touch_after_ms=s.rng.uniform(300, 1200))
        s.settle()
        s.run(900)
    s.place()


def _ring_knock(s):
    s.build(8)
    for _ in range(4):
        s.tower.knock(strength_mg=s.rng.uniform(200, 700))
        s.settle()
        s.run(1200)
    s.place()


def _soft_knock(s):
    """Knocks the base hardly feels (60-150 mg) that kick a heavily ringing plate."""
    s.build(8)
    for _ in range(6):
        s.tower.knock(strength_mg=s.rng.uniform(60, 150))
        s.settle()
        s.run(900)
    s.place()


SCENARIOS = {
    "gentle": _gentle,
    "heavy": _heavy,
    "fall-after-place": _fall_after_place,
    "fall-at-once": _fall_at_once,
    "single-falls": _single_falls,
    "burst": _burst,
    "big-burst": _big_burst,
    "cascade": _cascade,
    "slide": _slide,
    "touch": _touch,
    "knock": _knock,
    "knock-off": _knock_off,
    "drift": _drift,
    "wild": _build8,
    "missing": _build8,
    "slow-board": _build8,
    "fast-board": _build8,
    "inverted": _build8,
    "topple": _topple,
    "crumble": _crumble,
    # On the issue-10 physics (ringing plate, rigid tower, slow and steady hands: REAL).
    "ring-falls": _single_falls,
    "ring-burst": _burst,
    "ring-knock": _ring_knock,
    "soft-knock": _soft_knock,
    "slow-hands": _gentle,
    "rigid-topple": _topple,
    "rigid-crumble": _crumble,
    "press-fall": _press_fall,
    "touch-fall-slow": _touch_fall,
    "knock-touch": _knock_touch,
    "lean-touch": _lean_touch,
}

# Scenarios played on more than the original virtual tower's physics (sim/physics.py specs).
SCENARIO_PHYSICS = {
    "ring-falls": REAL,
    "ring-burst": REAL,
    "ring-knock": REAL,
    "soft-knock": dict(REAL, ring_zeta=(0.01, 0.02), knock_ring_g=(60.0, 90.0)),
    "slow-hands": dict(REAL, slow_p=1.0),
    "rigid-topple": dict(REAL, rest_p=0.0),
    "rigid-crumble": dict(REAL, rest_p=1.0),
    "press-fall": REAL,
    # A slow, nearly undamped plate (the bench's "independent" ringing).
    "touch-fall-slow": dict(REAL, ring_hz=(6.0, 9.0), ring_zeta=(0.008, 0.015)),
    "knock-touch": REAL,
    "lean-touch": REAL,
}


# Boards with one quirk made strong (applied before the first sample).
BOARD_QUIRKS = {
    "drift": _drift_board,
    "wild": _wild_board,
    "missing": _missing_board,
    "slow-board": _slow_board,
    "fast-board": _fast_board,
    "inverted": _inverted_board,
}


def _table(name: str, seed: int, clean: bool, physics: dict | None, board: dict) -> _Script:
    if physics is None:
        physics = SCENARIO_PHYSICS.get(name)
    s = _Script(seed, clean=clean, physics=physics, **board)
    if name in BOARD_QUIRKS:
        BOARD_QUIRKS[name](s.tower.board, s.rng)
    return s


def calibration_tap(
    name: str, seed: int = 1, clean: bool = False, physics: dict | None = None, **board
) -> list[Sample]:
    """`sticktable calibrate`'s tap on the table scenario `name` is played on (its physics and
    board quirk): what the calibration learns the plate's ringing from."""
    return _table(name, seed, clean, physics, board).tower.calibration_tap()


def scenario(
    name: str, seed: int = 1, clean: bool = False, physics: dict | None = None, **board
) -> Scenario:
    """The labelled trace of scenario `name` (KeyError if there is none); `board` may set the
    board's stick_g, cells and noise_scale, `physics` replaces the scenario's physics spec."""
    script = SCENARIOS[name]
    s = _table(name, seed, clean, physics, board)
    s.run(2500)
    script(s)
    return s.done(name)
