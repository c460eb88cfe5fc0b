"""A hand that presses on while it holds the stick it placed, after a stick fell under its
press, then lets go (issue 10; tuning games 1042 of real, ring-light and ring-heavy, turn 31).

A stick seen leaving under the press, then a level one stick up that holds, is placed (it
cannot be told from a stick resting there) and marked held: the hand may still hold its
stick, and its let-go back to the old level soon after is no fall (settle.let_go). That
let-go was taken only with no hand since; but the hand that holds a stick presses on it
(its press wanders up by most of a stick before it lets go, as _same_hand knows), and the
let-go was then told as a second fall. Within _REST_MS of the placement, such a drop is the
hand letting go, pressing or not."""

import pytest
from towers import built_tower

from sticktable.sim.detection import run_detector
from sticktable.sim.physics import REAL
from sticktable.sim.tower import Effect, Fall


class ScriptedHand(Effect):
    """A hand brings `stick` with a scripted load on the tower (ms after it starts, grams),
    and lets go of it at the script's end."""

    def __init__(self, tower, stick, script):
        self.t0 = tower.t
        self.stick = stick
        self.script = script
        stick.x, stick.y = 5.0, -5.0

    def _grams(self, t):
        u = t - self.t0
        for (u0, g0), (u1, g1) in zip(self.script, self.script[1:], strict=False):
            if u0 <= u < u1:
                return g0 + (g1 - g0) * (u - u0) / (u1 - u0)
        return self.script[-1][1]

    def loads(self, tower, t):
        return [(self._grams(t), self.stick.x, self.stick.y)]

    def step(self, tower, t):
        if t - self.t0 >= self.script[-1][0]:
            tower.sticks_on.append(self.stick)
            tower.record("placed", t, onset_ms=int(self.t0), grams=self.stick.mass_g)
            self.done = True


@pytest.mark.parametrize("seed", [1000, 1003])
def test_a_hand_pressing_on_its_held_stick_then_letting_go_is_no_second_fall(seed):
    tower, samples, sticks = built_tower(seed, dict(REAL), 12, 6, 800)
    g = tower.board.stick_g
    start = tower.t
    held = g + 7  # (the stick held, the hand pressing: one stick over the old level)
    script = [(0, 0), (100, g + 12), (250, g + 12), (350, held), (700, held)]
    script += [(800, held + 5), (900, held + 5), (960, g)]  # (presses on, lets go)
    tower.add(ScriptedHand(tower, sticks[6], script))
    tower.add(Fall(tower, [sticks[2]], 0.0, True, delay_ms=150.0))  # (under the press)
    samples.extend(tower.run(3000))
    events = [e for e in run_detector(tower.board.meta(), samples) if e["t_ms"] > start]
    assert [(e["kind"], e.get("count", 1)) for e in events] == [("fell", 1), ("placed", 1)]
