"""The virtual tower: what the plate's four HX711 load cells and the base accelerometer would say.

Physics, kept simple but honest where detection depends on it:
- Loads (the empty tower, sticks at their positions, hands, knocks) spread over the cells by the
  lever rule of a rigid plate on equal springs (`lever_weights`).
- Each cell reports raw HX711 counts: its zero offset + counts_per_gram x load (sign included:
  cells may be mounted inverted) + warm-up drift and creep + noise, clipped to 24 bits, with the
  chip's occasional wild values (saturation, bit errors) and missing readings.
- Each board samples at its own rate (78-92 Hz) with jitter; `t_ms` is the truth.
- The accelerometer sits in the base: gravity in the base's frame (z up), noise, a fixed
  offset, knocks as damped vibrations; a toppling tower tilts the base with it.
- Sticks each keep their own mass (several % apart).

Actions (place, fall, touch, knock, slide, topple, rebuild, clear, button) are effects added at
the current time; `run(ms)` advances time and yields one `Sample` per sample period. Every action
writes labelled truth events (`truth`), so a trace carries its own answer key.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from sticktable.sim.physics import Physics, Plate

MAX_COUNTS = 8388607
MIN_COUNTS = -8388608
GRAVITY_MG = 1000.0
TOPPLE_TRUTH_DEG = 5.0  # a topple's truth time: the tower passes 5 degrees of tilt
COP_MM_PER_DEG = 2.6


@dataclass
class Sample:
    t_ms: int
    cells: tuple  # raw counts per cell, None for a missing reading
    ax: int
    ay: int
    az: int
    buttons: int = 0


@dataclass
class Stick:
    ident: int
    mass_g: float
    x: float = 0.0
    y: float = 0.0


@dataclass
class Board:
    """One physical table: calibration, geometry and the quirks of its parts."""

    counts_per_gram: list[float]
    zero_counts: list[int]
    cell_xy_mm: list[list[float]]
    rate_hz: float  # the board's true sample rate
    noise_g: list[float]  # per-cell noise (grams, 1 sigma)
    warmup_g: list[float]  # per-cell warm-up drift amplitude (grams)
    warmup_tau_s: float
    creep_g_per_min: list[float]
    wild_p: float  # per cell reading
    missing_p: float
    accel_offset: tuple[float, float, float]
    accel_noise_mg: float
    tower_g: float  # base + post + cup
    stick_g: float
    sticks: int

    @classmethod
    def random(
        cls,
        rng: random.Random,
        stick_g: float = 8.0,
        sticks: int = 36,
        clean: bool = False,
        cells: int = 4,
        noise_scale: float = 1.0,
    ) -> Board:
        half = round(rng.uniform(60.0, 75.0), 1)
        if cells == 4:
            xy = [[-half, -half], [half, -half], [half, half], [-half, half]]
        else:  # evenly round the axis
            xy = [
                [
                    round(half * 1.4 * math.cos(math.pi / 2 + 2 * math.pi * k / cells), 1),
                    round(half * 1.4 * math.sin(math.pi / 2 + 2 * math.pi * k / cells), 1),
                ]
                for k in range(cells)
            ]
        n = cells
        k = noise_scale
        signs = [(-1 if rng.random() < 0.2 else 1) for _ in range(n)]
        cpg = [round(s * rng.uniform(1900.0, 2400.0), 2) for s in signs]
        tilt = [rng.gauss(0, 12.0), rng.gauss(0, 12.0), 0.0]  # table not level, sensor offset
        return cls(
            counts_per_gram=cpg,
            zero_counts=[rng.randint(-300000, 300000) for _ in range(n)],
            cell_xy_mm=xy,
            rate_hz=80.0 if clean else rng.uniform(78.0, 92.0),
            noise_g=[0.02 if clean else k * rng.uniform(0.04, 0.14) for _ in range(n)],
            warmup_g=[0.0 if clean else k * rng.uniform(-2.5, 2.5) for _ in range(n)],
            warmup_tau_s=rng.uniform(120.0, 400.0),
            creep_g_per_min=[0.0 if clean else k * rng.uniform(-0.03, 0.03) for _ in range(n)],
            wild_p=0.0 if clean else k * rng.uniform(0.0003, 0.003),
            missing_p=0.0 if clean else k * rng.uniform(0.0005, 0.004),
            accel_offset=(tilt[0], tilt[1], rng.gauss(0, 8.0)),
            accel_noise_mg=2.0 if clean else k * rng.uniform(2.0, 6.0),
            tower_g=round(rng.uniform(300.0, 450.0), 1),
            stick_g=stick_g,
            sticks=sticks,
        )

    def meta(self, with_zero: bool = True) -> dict:
        meta = {
            "rate_hz": 80,
            "cells": len(self.counts_per_gram),
            "counts_per_gram": list(self.counts_per_gram),
            "cell_xy_mm": [list(p) for p in self.cell_xy_mm],
            "stick_g": self.stick_g,
            "sticks": self.sticks,
            "accel": "base-mg",
        }
        if with_zero:
            meta["zero_counts"] = list(self.zero_counts)
        return meta


def lever_weights(cells: list[list[float]], x: float, y: float) -> list[float]:
    """Share of a point load at (x, y) on each cell: a rigid plate on equal springs.

    The minimum-norm weights with sum 1 and first moments (x, y): w = A^T (A A^T)^-1 b.
    """
    rows = [[1.0] * len(cells), [c[0] for c in cells], [c[1] for c in cells]]
    gram = [[sum(a * b for a, b in zip(r1, r2, strict=True)) for r2 in rows] for r1 in rows]
    lam = _solve3(gram, [1.0, x, y])
    return [sum(lam[k] * rows[k][i] for k in range(3)) for i in range(len(cells))]


def _solve3(m: list[list[float]], b: list[float]) -> list[float]:
    a = [row[:] + [v] for row, v in zip(m, b, strict=True)]
    for col in range(3):
        pivot = max(range(col, 3), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(3):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [u - f * v for u, v in zip(a[r], a[col], strict=True)]
    return [a[i][3] / a[i][i] for i in range(3)]


class Effect:
    """Something happening on or around the tower over a span of time."""

    done = False

    def loads(self, tower: VirtualTower, t: float) -> list[tuple[float, float, float]]:
        return []  # extra point loads (grams, x, y)

    def accel(self, tower: VirtualTower, t: float) -> tuple[float, float, float]:
        return (0.0, 0.0, 0.0)

    def step(self, tower: VirtualTower, t: float) -> None:
        """Advance to time t (may change the tower, record truth, set done)."""


@dataclass
class VirtualTower:
    board: Board
    rng: random.Random
    sticks_on: list[Stick] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    truth: list[dict] = field(default_factory=list)
    buttons: int = 0
    turn: int = -1  # the game's turn index, written into truth events
    phase: str = "play"  # "play" or "clear" (rebuilding between rounds: benchmarks ignore it)
    tremor: float = 1.0  # how much hands shake (1 = typical)
    t: float = 0.0  # time of the next sample (ms)
    tilt_deg: float = 0.0
    tilt_dir: float = 0.0
    tower_load: float = 1.0  # share of the tower body still on the plate
    tower_xy: tuple[float, float] = (0.0, 0.0)
    physics: Physics = field(default_factory=Physics)
    prng: random.Random = field(default_factory=random.Random)  # draws of the extra physics
    cop_shift_mm: float | None = None  # a rigid topple's centre of pressure (None: 2.6 mm/deg)
    tilt_rate: float = 0.0  # rad/s, while toppling (an accelerometer off the pivot feels it)
    tilt_acc: float = 0.0  # rad/s^2
    lean: tuple[float, float] = (0.0, 0.0)  # the table's own tilt (degrees, direction)
    resting: bool = False  # a toppled tower came to rest leaning on the plate
    _weights_cache: dict = field(default_factory=dict)
    _plate: Plate | None = None

    @classmethod
    def create(
        cls, seed: int, clean: bool = False, physics: dict | None = None, **board
    ) -> VirtualTower:
        """A tower on a random board; `board` may set stick_g, cells, noise_scale; `physics`
        is a spec for `Physics.draw` (host/sticktable/sim/physics.py), default all off."""
        rng = random.Random(seed)
        prng = random.Random(seed * 7907 + 11)  # apart from rng: the original draws stay
        tower = cls(board=Board.random(rng, clean=clean, **board), rng=rng, prng=prng)
        tower.physics = Physics.draw(prng, physics)
        if tower.physics.ring_hz or tower.physics.hx_average:
            tower._plate = Plate(tower.physics, len(tower.board.counts_per_gram))
        return tower

    def calibration_tap(self) -> list[Sample]:
        """The samples of `sticktable calibrate`'s last step on this table: the empty tower
        standing still, the plate tapped once with a knuckle and left to ring (on a fresh
        tower: it plays on it). The simulated plate rings alike whatever stands on it; a real
        one rings lower as the tower grows, which the detector's fits after events follow."""
        samples = list(self.run(2000))
        self.knock(strength_mg=600.0)
        return samples + list(self.run(3000))

    def kick_plate(self, grams: float, x: float, y: float) -> None:
        """A knock rings the plate with about `grams` (shared over the cells by the lever rule)."""
        if self._plate is not None:
            self._plate.kick([grams * w for w in self._weights(x, y)])

    # -- sampling ----------------------------------------------------------------------------

    def run(self, ms: float) -> Iterator[Sample]:
        """Advance `ms` of simulated time, yielding every sample taken meanwhile."""
        end = self.t + ms
        period = 1000.0 / self.board.rate_hz
        while self.t < end:
            t = self.t
            for effect in list(self.effects):
                effect.step(self, t)
            self.effects = [e for e in self.effects if not e.done]
            yield self._sample(t)
            self.t += period + self.rng.gauss(0.0, 0.25)

    def run_until_quiet(self, limit_ms: float = 10000.0) -> Iterator[Sample]:
        """Advance until no effect is running (at most `limit_ms`)."""
        end = self.t + limit_ms
        while self.effects and self.t < end:
            yield from self.run(20.0)

    def add(self, effect: Effect) -> Effect:
        self.effects.append(effect)
        effect.step(self, self.t)
        return effect

    def record(self, kind: str, t: float, **extra) -> dict:
        event = {"kind": kind, "t_ms": int(round(t)), "turn": self.turn, "phase": self.phase}
        event.update(extra)
        self.truth.append(event)
        return event

    def _weights(self, x: float, y: float) -> list[float]:
        key = (round(x, 1), round(y, 1))
        w = self._weights_cache.get(key)
        if w is None:
            if len(self._weights_cache) > 4096:
                self._weights_cache.clear()
            w = lever_weights(self.board.cell_xy_mm, x, y)
            self._weights_cache[key] = w
        return w

    def point_loads(self, t: float) -> list[tuple[float, float, float]]:
        """Everything pressing on the plate now: (grams, x, y)."""
        theta = self.tilt_deg
        factor = max(0.0, 1.0 - 0.045 * (theta / 10.0) ** 2)
        if self.resting:
            factor = 1.0  # lying against the plate: tower_load says what still presses on it
        if self.cop_shift_mm is not None:
            shift = self.cop_shift_mm
        else:
            shift = min(COP_MM_PER_DEG * theta, 55.0)
        # A table leaning by a degree moves the centre of pressure of a tower ~80 mm high.
        lean = 80.0 * math.sin(math.radians(self.lean[0]))
        sx = shift * math.cos(self.tilt_dir) + lean * math.cos(self.lean[1])
        sy = shift * math.sin(self.tilt_dir) + lean * math.sin(self.lean[1])
        tx, ty = self.tower_xy
        loads = [(self.board.tower_g * self.tower_load * factor, tx + sx, ty + sy)]
        for s in self.sticks_on:
            loads.append((s.mass_g * factor, s.x + sx, s.y + sy))
        for effect in self.effects:
            loads.extend(effect.loads(self, t))
        return loads

    def total_on_plate(self) -> float:
        return sum(g for g, _, _ in self.point_loads(self.t))

    def _sample(self, t: float) -> Sample:
        b = self.board
        rng = self.rng
        grams = [0.0] * len(b.counts_per_gram)
        for g, x, y in self.point_loads(t):
            if g:
                for i, w in enumerate(self._weights(x, y)):
                    grams[i] += g * w
        if self._plate is not None:
            grams = self._plate.read(t, grams)
        minutes = t / 60000.0
        warm = 1.0 - math.exp(-t / 1000.0 / b.warmup_tau_s)
        lost = rng.random() < b.missing_p / 4  # now and then a whole period without readings
        cells = []
        for i, g in enumerate(grams):
            g += b.warmup_g[i] * warm + b.creep_g_per_min[i] * minutes + rng.gauss(0, b.noise_g[i])
            raw = int(round(b.zero_counts[i] + b.counts_per_gram[i] * g))
            raw = max(MIN_COUNTS, min(MAX_COUNTS, raw))
            roll = rng.random()
            if lost or roll < b.missing_p:
                cells.append(None)
                continue
            if roll < b.missing_p + b.wild_p:
                raw = _wild(rng, raw)
            cells.append(raw)
        ax, ay, az = self._gravity()
        for effect in self.effects:
            ex, ey, ez = effect.accel(self, t)
            ax += ex
            ay += ey
            az += ez
        n = b.accel_noise_mg
        return Sample(
            int(round(t)),
            tuple(cells),
            int(round(ax + b.accel_offset[0] + rng.gauss(0, n))),
            int(round(ay + b.accel_offset[1] + rng.gauss(0, n))),
            int(round(az + b.accel_offset[2] + rng.gauss(0, n))),
            self.buttons,
        )

    def _gravity(self) -> tuple[float, float, float]:
        th = math.radians(self.tilt_deg)
        # Along the tilt direction u and up z, in the base's frame: gravity, and (off the
        # pivot, d inward and h up) the tangential alpha x r and centripetal -omega^2 r.
        u = GRAVITY_MG * math.sin(th)
        z = GRAVITY_MG * math.cos(th)
        d = self.physics.accel_arm_mm / 1000.0
        if d and (self.tilt_rate or self.tilt_acc):
            h = self.physics.accel_h_mm / 1000.0
            w2 = self.tilt_rate * self.tilt_rate
            per_mg = GRAVITY_MG / 9.81
            u += (self.tilt_acc * h + w2 * d) * per_mg
            z += (self.tilt_acc * d - w2 * h) * per_mg
        ax, ay = u * math.cos(self.tilt_dir), u * math.sin(self.tilt_dir)
        if self.lean[0]:  # the table itself leans (small angle)
            s = GRAVITY_MG * math.sin(math.radians(self.lean[0]))
            ax += s * math.cos(self.lean[1])
            ay += s * math.sin(self.lean[1])
        return ax, ay, z

    # -- actions -----------------------------------------------------------------------------

    def spot(self) -> tuple[float, float]:
        """A random resting place for a stick's centre on the cup."""
        r = 45.0 * math.sqrt(self.rng.random())
        a = self.rng.uniform(0, 2 * math.pi)
        return r * math.cos(a), r * math.sin(a)

    def place(self, stick: Stick, heavy: bool = False, fall_after_ms: float | None = None):
        return self.add(Place(self, stick, heavy, fall_after_ms))

    def fall(self, sticks: list[Stick], spread_ms: float = 0.0, label: bool = True):
        """Sticks leave the tower, spread over `spread_ms` (one truth burst)."""
        return self.add(Fall(self, sticks, spread_ms, label))

    def touch(self):
        return self.add(Touch(self))

    def knock(self, strength_mg: float | None = None, knock_off: int = 0):
        return self.add(Knock(self, strength_mg, knock_off))

    def slide(self, stick: Stick):
        return self.add(Slide(self, stick))

    def topple(self, crumble: bool = False):
        return self.add(Topple(self, crumble))

    def lean_table(self, touch_after_ms: float | None = None):
        """Someone leans on the table (and, with `touch_after_ms`, runs into the tower)."""
        return self.add(TableLean(self, touch_after_ms))

    def press_button(self, seat: int, long: bool = False):
        return self.add(Button(self, seat, long))

    def standing_sticks(self) -> list[Stick]:
        return list(self.sticks_on)


def _wild(rng: random.Random, raw: int) -> int:
    kind = rng.random()
    if kind < 0.3:
        return MAX_COUNTS
    if kind < 0.5:
        return MIN_COUNTS
    flipped = (raw & 0xFFFFFF) ^ (1 << rng.randint(8, 23))
    return flipped - (1 << 24) if flipped & 0x800000 else flipped


class Place(Effect):
    """A hand brings a stick, holds or presses it on the tower, lets go (truth: placed then)."""

    def __init__(self, tower: VirtualTower, stick: Stick, heavy: bool, fall_after_ms):
        rng = tower.rng
        self.stick = stick
        self.stick.x, self.stick.y = tower.spot()
        self.t0 = tower.t
        self.ramp = rng.uniform(60, 200)
        self.hold = rng.uniform(150, 900)
        self.release = rng.uniform(20, 80)
        self.support = rng.uniform(0.0, 0.7) if not heavy else 1.0  # share the hand still holds
        self.press = rng.uniform(15, 90) if heavy else rng.uniform(0.0, 3.0)
        self.tremor = rng.uniform(0.5, 2.0) if not heavy else rng.uniform(2.0, 8.0)
        self.tremor *= tower.tremor
        self.freq = rng.uniform(7, 12)
        self.phase = rng.uniform(0, 6.3)
        self.fall_after = fall_after_ms
        self.turn = tower.turn
        p, pr = tower.physics, tower.prng
        self.slow = not heavy and pr.random() < p.slow_p
        if self.slow:  # the stick's weight arrives smoothly over most of a second
            self.support, self.press = 0.0, 0.0
            self.ramp = pr.uniform(*p.slow_ms)
            self.hold = pr.uniform(30.0, 150.0)
        if pr.random() < p.steady_p:
            self.tremor = 0.0
        self.smooth = p.smooth_hands
        if self.smooth:
            self.release = pr.uniform(60.0, 200.0)
        if heavy and pr.random() < p.brisk_p:
            self.release = pr.uniform(8.0, 25.0)  # a press let go at once

    def _hand(self, t: float) -> float:
        """The stick's share resting on the tower and the hand's extra press (grams)."""
        u = t - self.t0
        wobble = self.tremor * math.sin(2 * math.pi * self.freq * u / 1000.0 + self.phase)
        if u < self.ramp:
            k = u / self.ramp
            if self.slow or self.smooth:
                k = 0.5 - 0.5 * math.cos(math.pi * k)
            return self.stick.mass_g * (1 - self.support) * k + (self.press + wobble) * k
        u -= self.ramp
        if u < self.hold:
            wander = 0.3 * self.press * math.sin(u / 170.0 + self.phase)
            return self.stick.mass_g * (1 - self.support) + max(0.0, self.press + wander + wobble)
        u -= self.hold
        k = min(1.0, u / self.release)
        if self.smooth:
            k = 0.5 - 0.5 * math.cos(math.pi * k)
        hold = self.stick.mass_g * (1 - self.support) + max(0.0, self.press + wobble)
        return hold * (1 - k) + self.stick.mass_g * k

    def loads(self, tower, t):
        return [(self._hand(t), self.stick.x, self.stick.y)]

    def step(self, tower, t):
        if t - self.t0 >= self.ramp + self.hold + self.release:
            tower.sticks_on.append(self.stick)
            tower.record("placed", t, onset_ms=int(self.t0), grams=round(self.stick.mass_g, 2))
            self.done = True
            if self.fall_after is not None:
                tower.add(Fall(tower, [self.stick], 0.0, True, delay_ms=self.fall_after))


class Fall(Effect):
    """Sticks slide off the tower one after another; each lands on the table ~250 ms later."""

    def __init__(self, tower, sticks, spread_ms, label=True, delay_ms=0.0):
        rng = tower.rng
        start = tower.t + delay_ms
        offsets = sorted([0.0] + [rng.uniform(0, spread_ms) for _ in sticks[1:]])
        self.leave = [(start + o, s) for o, s in zip(offsets, sticks, strict=True)]
        self.leaving: list[tuple[float, Stick]] = []  # (t_left, stick) sliding off now
        self.slide_ms = rng.uniform(10.0, 60.0)  # how long a stick's weight takes to leave
        leave = tower.physics.leave_ms
        if tuple(leave) != (10.0, 60.0):
            self.slide_ms = tower.prng.uniform(*leave)
        self.landings: list[float] = []
        self.clips: list[tuple[float, float, float, float, float]] = []  # t, ms, g, x, y
        self.label = label
        self.first = None
        self.count = 0
        self.turn = tower.turn

    def loads(self, tower, t):
        out = []
        for t_left, s in self.leaving:  # the last moments of a stick's slide off the edge
            k = max(0.0, 1.0 - (t - t_left) / self.slide_ms)
            if k > 0:
                out.append((s.mass_g * k, s.x * 1.3, s.y * 1.3))
        for tc, ms, g, x, y in self.clips:  # a falling stick clips the base
            if tc <= t < tc + ms:
                out.append((g * math.sin(math.pi * (t - tc) / ms), x, y))
        return out

    def accel(self, tower, t):
        ax = ay = az = 0.0
        for tl in self.landings:
            u = t - tl
            if 0 <= u < 120:
                v = 25.0 * math.exp(-u / 30.0) * math.sin(2 * math.pi * 30 * u / 1000.0)
                ax += v
                az += 0.6 * v
        return ax, ay, az

    def step(self, tower, t):
        while self.leave and self.leave[0][0] <= t:
            t_left, stick = self.leave.pop(0)
            if stick in tower.sticks_on:
                tower.sticks_on.remove(stick)
                self.leaving.append((t_left, stick))
                self.landings.append(t_left + tower.rng.uniform(200, 300))
                pr = tower.prng
                if pr.random() < tower.physics.clip_p:
                    self.clips.append(
                        (
                            t_left + self.slide_ms + pr.uniform(60, 160),
                            pr.uniform(8, 25),
                            pr.uniform(5, 30),
                            stick.x * 1.8,
                            stick.y * 1.8,
                        )
                    )
                self.count += 1
                if self.first is None:
                    self.first = t_left
        self.leaving = [(tl, s) for tl, s in self.leaving if t - tl < self.slide_ms]
        self.clips = [c for c in self.clips if t < c[0] + c[1]]
        if (
            not self.leave
            and not self.leaving
            and not self.clips
            and all(t - tl > 120 for tl in self.landings)
        ):
            self.done = True
            if self.label and self.count:
                event = tower.record("fell", self.first, count=self.count, onset_ms=int(self.first))
                event["turn"] = self.turn


class Touch(Effect):
    """A hand presses on the tower and lets go; nothing changes (truth: touch at release)."""

    def __init__(self, tower):
        rng = tower.rng
        self.t0 = tower.t
        self.x, self.y = tower.spot()
        self.peak = rng.uniform(15, 150)
        self.ramp = rng.uniform(60, 150)
        self.hold = rng.uniform(100, 600)
        self.freq = rng.uniform(7, 12)
        self.tremor = (rng.uniform(0.5, 2.0) + 0.03 * self.peak) * tower.tremor  # never still
        self.phase = rng.uniform(0, 6.3)
        self.smooth = tower.physics.smooth_hands
        if tower.prng.random() < tower.physics.steady_p:
            self.tremor = 0.0

    def _ease(self, k):
        return 0.5 - 0.5 * math.cos(math.pi * k) if self.smooth else k

    def _force(self, t):
        u = t - self.t0
        if u < self.ramp:
            return self.peak * self._ease(u / self.ramp)
        u -= self.ramp
        if u < self.hold:
            wobble = self.tremor * math.sin(2 * math.pi * self.freq * u / 1000.0 + self.phase)
            wander = 0.15 * self.peak * math.sin(u / 150.0 + self.phase)
            return max(0.0, self.peak + wander + wobble)
        u -= self.hold
        return max(0.0, self.peak * (1 - self._ease(min(1.0, u / self.ramp))))

    def loads(self, tower, t):
        return [(self._force(t), self.x, self.y)]

    def step(self, tower, t):
        if t - self.t0 >= 2 * self.ramp + self.hold:
            tower.record("touch", t, onset_ms=int(self.t0))
            self.done = True


class Knock(Effect):
    """Someone bumps the table: the plate and the base shake; sometimes sticks fall off."""

    def __init__(self, tower, strength_mg, knock_off):
        rng = tower.rng
        self.t0 = tower.t
        self.amp = strength_mg if strength_mg is not None else rng.uniform(80, 700)
        self.freq = rng.uniform(12, 38)
        self.tau = rng.uniform(20, 60)
        d = [rng.gauss(0, 1) for _ in range(3)]
        norm = math.sqrt(sum(v * v for v in d)) or 1.0
        self.dir = [v / norm for v in d]
        self.pos = (rng.uniform(-30, 30), rng.uniform(-30, 30))
        tower.record("knock", self.t0, labelled=False)
        ring = tower.physics.knock_ring_g
        if ring:  # the base goes quiet within ~0.1 s; the plate rings on
            pr = tower.prng
            self.tau = pr.uniform(12.0, 30.0)
            grams = ring * pr.uniform(0.5, 1.5) * min(1.5, self.amp / 300.0)
            tower.kick_plate(grams * pr.choice((-1, 1)), *self.pos)
        if knock_off:
            standing = tower.standing_sticks()
            victims = rng.sample(standing, min(knock_off, len(standing)))
            if victims:
                tower.add(Fall(tower, victims, rng.uniform(0, 150), delay_ms=rng.uniform(20, 80)))

    def _v(self, t):
        u = t - self.t0
        if u < 0:
            return 0.0
        return self.amp * math.exp(-u / self.tau) * math.sin(2 * math.pi * self.freq * u / 1000.0)

    def accel(self, tower, t):
        v = self._v(t)
        return v * self.dir[0], v * self.dir[1], v * self.dir[2]

    def loads(self, tower, t):
        # The plate carries the tower: vertical shaking is an inertial load on the cells.
        mass = tower.board.tower_g * tower.tower_load + sum(s.mass_g for s in tower.sticks_on)
        return [(mass * self._v(t) * self.dir[2] / GRAVITY_MG, *self.pos)]

    def step(self, tower, t):
        if t - self.t0 > 6 * self.tau:
            self.done = True


class Slide(Effect):
    """A stick slides to a new place on the tower (same mass, the centre of pressure moves)."""

    def __init__(self, tower, stick):
        rng = tower.rng
        self.stick = stick
        self.t0 = tower.t
        self.dur = rng.uniform(100, 400)
        self.start = (stick.x, stick.y)
        self.end = tower.spot()
        tower.record("slide", self.t0, labelled=False)

    def step(self, tower, t):
        k = min(1.0, (t - self.t0) / self.dur)
        self.stick.x = self.start[0] + (self.end[0] - self.start[0]) * k
        self.stick.y = self.start[1] + (self.end[1] - self.start[1]) * k
        if k >= 1.0:
            self.done = True


class Topple(Effect):
    """The tower leans, then falls over: tilt grows, the centre of pressure runs ahead of it,
    sticks fly off, the tower lands beside the plate (truth: topple when tilt passes 5 deg)."""

    def __init__(self, tower, crumble):
        rng = tower.rng
        self.t0 = tower.t
        tower.tilt_dir = rng.uniform(0, 2 * math.pi)
        self.lean_ms = rng.uniform(150, 900)
        self.lean_deg = rng.uniform(1.0, 2.0)
        fall_s = rng.uniform(0.18, 0.25) if crumble else rng.uniform(0.5, 0.85)
        # theta'' = w^2 sin(theta): pick w so that lean_deg -> 80 deg takes fall_s.
        self.curve = _fall_curve(math.radians(self.lean_deg), fall_s)
        self.leave_deg = {id(s): rng.uniform(6, 35) for s in tower.sticks_on}
        self.rest = rng.uniform(0.0, 0.25)  # share of the body left lying on the plate
        self.passed = False
        self.landed = None
        self.impact = None
        p, pr = tower.physics, tower.prng
        self.end_deg = 85.0
        if pr.random() < p.rest_p:  # comes to rest leaning, part of its weight on the plate
            self.end_deg = p.rest_deg
            self.rest = p.rest_load
        # A rigid tower: the centre of pressure first runs out to the footprint's edge, with
        # the tower still upright, then stays pinned there while it tilts.
        self.run_ms = pr.uniform(150.0, 600.0) if p.rigid else 0.0
        self.edge = p.footprint_mm

    def _angle(self, u: float) -> float:
        u -= self.run_ms
        if u < 0:
            return 0.0
        if u < self.lean_ms:
            return self.lean_deg * u / self.lean_ms
        return min(self.end_deg, _curve_at(self.curve, (u - self.lean_ms) / 1000.0))

    def step(self, tower, t):
        u = t - self.t0
        if self.run_ms:
            k = min(1.0, u / self.run_ms)
            tower.cop_shift_mm = self.edge * (0.5 - 0.5 * math.cos(math.pi * k))
        tower.tilt_deg = self._angle(u)
        if self.landed is None:
            h = 4.0  # ms: rates from the angle's own curve
            a, b = math.radians(self._angle(u - h)), math.radians(self._angle(u + h))
            tower.tilt_rate = (b - a) / (2 * h / 1000.0)
            tower.tilt_acc = (b - 2 * math.radians(tower.tilt_deg) + a) / (h / 1000.0) ** 2
        th = tower.tilt_deg
        if not self.passed and th >= TOPPLE_TRUTH_DEG:
            self.passed = True
            tower.record("topple", t, onset_ms=int(self.t0))
        for s in list(tower.sticks_on):
            if th >= self.leave_deg.get(id(s), 10.0):
                tower.sticks_on.remove(s)
        if th >= 45.0:
            tower.tower_load = self.rest
        if th >= self.end_deg and self.landed is None:
            self.landed = t
            tower.tilt_rate = tower.tilt_acc = 0.0
            tower.resting = self.end_deg < 85.0
            tower.sticks_on.clear()
            self.impact = Knock(tower, 900.0, 0)
            tower.effects.append(self.impact)
        if self.landed is not None and t - self.landed > 300:
            self.done = True


def _fall_curve(theta0: float, fall_s: float) -> list[tuple[float, float]]:
    """(t_s, theta_deg) of an inverted pendulum falling from theta0, scaled to take fall_s."""
    pts = []
    th, om, ts, dt = theta0, 0.0, 0.0, 0.0005
    while th < math.radians(85.0):
        pts.append((ts, math.degrees(th)))
        om += math.sin(th) * dt
        th += om * dt
        ts += dt
    scale = fall_s / ts
    return [(a * scale, b) for a, b in pts]


def _curve_at(curve, ts):
    lo, hi = 0, len(curve) - 1
    if ts >= curve[hi][0]:
        return 85.0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if curve[mid][0] <= ts:
            lo = mid
        else:
            hi = mid
    return curve[lo][1]


class Rebuild(Effect):
    """After a topple: hands pick the tower up and stand it back, empty, still."""

    def __init__(self, tower):
        rng = tower.rng
        self.t0 = tower.t
        self.dur = rng.uniform(800, 2000)
        self.start = tower.tilt_deg
        self.lift = rng.uniform(0.3, 0.8)

    def loads(self, tower, t):
        u = t - self.t0
        if u < self.dur:
            press = 200.0 * self.lift * abs(math.sin(u / 90.0))
            return [(press, 10.0 * math.sin(u / 130.0), 10.0 * math.cos(u / 170.0))]
        return []

    def step(self, tower, t):
        u = t - self.t0
        k = min(1.0, u / self.dur)
        tower.tilt_deg = self.start * (1 - k) if k < 0.9 else tower.rng.uniform(0.0, 0.25)
        if k > 0.5:
            tower.tower_load = 1.0
            tower.cop_shift_mm = None
            tower.resting = False
        if k >= 1.0:
            tower.tilt_deg = tower.rng.uniform(0.0, 0.3)
            self.done = True


class Clear(Effect):
    """Between rounds a hand takes the remaining sticks off, a few at a time."""

    def __init__(self, tower):
        rng = tower.rng
        self.t0 = tower.t
        self.grabs = []
        t = tower.t
        sticks = list(tower.sticks_on)
        rng.shuffle(sticks)
        while sticks:
            n = min(len(sticks), rng.randint(1, 6))
            self.grabs.append((t, t + rng.uniform(200, 500), sticks[:n]))
            sticks = sticks[n:]
            t += rng.uniform(500, 900)

    def loads(self, tower, t):
        for start, end, _ in self.grabs:
            if start <= t < end:
                return [(20.0 * math.sin(math.pi * (t - start) / (end - start)), 0.0, 0.0)]
        return []

    def step(self, tower, t):
        while self.grabs and self.grabs[0][1] <= t:
            _, _, sticks = self.grabs.pop(0)
            for s in sticks:
                if s in tower.sticks_on:
                    tower.sticks_on.remove(s)
        if not self.grabs:
            self.done = True


class Button(Effect):
    """A seat button held ~150 ms (short press) or >= 1 s (long press)."""

    def __init__(self, tower, seat, long):
        self.bit = 1 << seat
        self.t0 = tower.t
        self.dur = tower.rng.uniform(1100, 1400) if long else tower.rng.uniform(90, 220)
        tower.record("button", self.t0, seat=seat, long=long, labelled=False)

    def step(self, tower, t):
        if t - self.t0 < self.dur:
            tower.buttons |= self.bit
        else:
            tower.buttons &= ~self.bit
            self.done = True


class TableLean(Effect):
    """Someone leans on the table: it tilts a degree or two for a few seconds, slowly; with
    `touch_after_ms` the leaning person also runs into the tower (a touch)."""

    def __init__(self, tower, touch_after_ms):
        pr = tower.prng
        self.t0 = tower.t
        self.deg = pr.uniform(*tower.physics.lean_deg)
        self.dir = pr.uniform(0, 2 * math.pi)
        self.ramp = pr.uniform(300.0, 800.0)
        self.hold = pr.uniform(800.0, 3000.0)
        self.touch_at = None if touch_after_ms is None else self.t0 + touch_after_ms
        tower.record("lean", self.t0, labelled=False)

    def step(self, tower, t):
        u = t - self.t0
        if self.touch_at is not None and t >= self.touch_at:
            self.touch_at = None
            tower.touch()
        if u < self.ramp:
            k = u / self.ramp
        elif u < self.ramp + self.hold:
            k = 1.0
        else:
            k = max(0.0, 1.0 - (u - self.ramp - self.hold) / self.ramp)
        tower.lean = (self.deg * (0.5 - 0.5 * math.cos(math.pi * k)), self.dir)
        if u >= 2 * self.ramp + self.hold and self.touch_at is None:
            tower.lean = (0.0, 0.0)
            self.done = True
