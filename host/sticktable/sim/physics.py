"""Physics settings of the virtual tower (issue 10): what a real tower does beyond the lever
rule, each a setting drawn from a range, so detection is judged on towers it was not tuned on.

Every setting's default is "off" (the original virtual tower); `Physics.draw(rng, spec)` picks
each setting from `spec` (a value, or a `(low, high)` range drawn uniformly per board).

- Plate resonance: the plate and tower are a mass on springs. Each cell's reading follows its
  load through a lightly damped second-order response (`ring_hz`, `ring_zeta`): any sudden load
  change rings for hundreds of ms. A knock rings the plate with `knock_ring_g` grams while the
  base accelerometer is quiet after ~0.1 s.
- `hx_average`: the HX711 averages the load over its conversion (the whole sample period).
- `rigid`: a rigid tower's centre of pressure runs out to the edge of its footprint
  (`footprint_mm` from the axis) before it tilts, then stays pinned there while the tilt grows.
- `accel_arm_mm`, `accel_h_mm`: the base accelerometer sits this far from the pivot edge
  (horizontally, and above it): it also feels the rotational acceleration of a topple.
- `rest_p`: share of topples that come to rest leaning at `rest_deg`, with `rest_load` of the
  tower's weight still on the plate.
- `leave_ms`: how long a falling stick's weight takes to leave; `clip_p`: share of falling
  sticks that clip the base on their way down.
- Hands: `smooth_hands` (weight comes and goes along smooth curves, never in corners),
  `steady_p` (no tremor), `slow_p` (a stick's weight arrives over `slow_ms`),
  `brisk_p` (a press let go at once: the plate undershoots).
- `overlap_p`: share of turns with overlapping events (a fall during a press, a touch after a
  knock, a lean into a touch); `lean_p`: someone leans on the table (it tilts `lean_deg`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, fields


@dataclass
class Physics:
    ring_hz: float = 0.0  # 0: no plate resonance
    ring_zeta: float = 0.03
    knock_ring_g: float = 0.0
    hx_average: bool = False
    rigid: bool = False
    footprint_mm: float = 35.0
    accel_arm_mm: float = 0.0  # 0: the accelerometer sits on the pivot (gravity only)
    accel_h_mm: float = 15.0
    rest_p: float = 0.0
    rest_deg: float = 60.0
    rest_load: float = 0.4
    leave_ms: tuple = (10.0, 60.0)
    clip_p: float = 0.0
    smooth_hands: bool = False
    steady_p: float = 0.0
    slow_p: float = 0.0
    slow_ms: tuple = (400.0, 900.0)
    brisk_p: float = 0.0
    overlap_p: float = 0.0
    lean_p: float = 0.0
    lean_deg: tuple = (0.5, 2.5)

    @classmethod
    def draw(cls, rng: random.Random, spec: dict | None) -> Physics:
        """Settings from `spec`: a fixed value, or (low, high) drawn uniformly. Settings that
        are themselves ranges (leave_ms, slow_ms, lean_deg) take the pair as given."""
        phys = cls()
        names = {f.name for f in fields(cls)}
        for name, value in (spec or {}).items():
            if name not in names:
                raise KeyError(f"no physics setting {name!r}")
            default = getattr(phys, name)
            if isinstance(value, tuple) and not isinstance(default, tuple):
                value = rng.uniform(*value)
            setattr(phys, name, value)
        return phys


# The physics, at the values the detector is tuned on (the bench's regimes vary them).
REAL = {
    "ring_hz": (10.0, 20.0),
    "ring_zeta": (0.015, 0.05),
    "knock_ring_g": (10.0, 50.0),
    "hx_average": True,
    "rigid": True,
    "footprint_mm": (25.0, 45.0),
    "accel_arm_mm": (20.0, 50.0),
    "accel_h_mm": (5.0, 25.0),
    "rest_p": 0.4,
    "rest_deg": (50.0, 70.0),
    "rest_load": (0.25, 0.6),
    "leave_ms": (30.0, 150.0),
    "clip_p": 0.25,
    "smooth_hands": True,
    "steady_p": 0.3,
    "slow_p": 0.15,
    "brisk_p": 0.3,
    "overlap_p": 0.1,
    "lean_p": 0.05,
}


class Plate:
    """Each cell's reading as a damped spring driven by its load (the plate's resonance), and
    the HX711's averaging over its conversion. Inputs are the static loads at sample times,
    linearly interpolated in between; integration in small steps (semi-implicit Euler)."""

    SUB = 10  # integration steps per sample period

    def __init__(self, physics: Physics, cells: int):
        self.p = physics
        self.w = 2 * math.pi * physics.ring_hz / 1000.0  # rad per ms
        self.y = None  # spring force per cell (grams)
        self.v = [0.0] * cells
        self.prev = None
        self.t = 0.0

    def kick(self, grams: list[float]) -> None:
        """A knock: each cell starts ringing with about this amplitude (grams)."""
        if self.y is None or not self.w:
            return
        for i, g in enumerate(grams):
            self.v[i] += g * self.w

    def read(self, t: float, loads: list[float]) -> list[float]:
        """What the cells report at time t for these static loads (grams per cell)."""
        if self.prev is None:
            self.prev = list(loads)
            self.y = list(loads)
            self.t = t
            return list(loads)
        dt_total = t - self.t
        n = len(loads)
        out = [0.0] * n
        if dt_total <= 0:
            return list(self.y)
        h = dt_total / self.SUB
        w = self.w
        two_zw = 2 * self.p.ring_zeta * w
        w2 = w * w
        for i in range(n):
            a, b = self.prev[i], loads[i]
            y, v = self.y[i], self.v[i]
            acc = 0.0
            for k in range(1, self.SUB + 1):
                u = a + (b - a) * k / self.SUB
                if w:
                    v += (w2 * (u - y) - two_zw * v) * h
                    y += v * h
                else:
                    y = u
                acc += y
            self.y[i], self.v[i] = y, v
            out[i] = acc / self.SUB if self.p.hx_average else y
        self.prev = list(loads)
        self.t = t
        return out
