"""A random but rule-abiding Stick Stack game, played physically on the virtual tower.

The Stick Stack rules (through the engine) say whose turn it is, what is legal and when a
round or the game ends; the players act physically: a seat button (short = take from the bag,
long = take from one's own pile), a hand placing the stick, sticks falling (singly, in bursts,
cascades, right after placement), touches, knocks, slides, topples. Between rounds the tower is
cleared or stood back up and then held still and empty >= 2 s, so the detector can re-baseline
(the daemon sends `arm` then).

The whole game is decided and simulated at construction (a few minutes of simulated time);
`samples()` replays it for SimTable, `truth_events()` holds the labelled physical events,
`transcript_lines()` the truth as host/docs/formats/stick-stack-transcript.md lines and
`expected_standings()` what the rules make of it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from sticktable.engine import Game, Standings
from sticktable.games.stickstack import blocked, next_seat
from sticktable.sim.tower import Clear, Fall, Rebuild, Sample, Stick, VirtualTower

STILL_MS = 2500  # empty tower held still between rounds (the spec asks >= 2 s)


class SimGame:
    def __init__(
        self,
        players,
        seed: int,
        clean: bool = False,
        lively: float = 1.0,
        physics: dict | None = None,
        **house,
    ):
        """`house`: the game's house rules; `physics`: stick_g, cells, noise_scale (the
        board), spread (how far sticks' masses differ, default 5 %), tremor (how much hands
        shake, default 1), and any setting of sim/physics.py (a value or a (low, high) range)."""
        if isinstance(players, str):
            players = [p for p in players.split(",") if p]
        self.players = list(players)
        self.seed = seed
        self.header = {"game": "stick-stack", "players": self.players, **house}
        self.game = Game(self.header)
        self.rng = random.Random(seed * 7919 + 17)
        physics = dict(physics or {})
        spread = physics.pop("spread", 0.05)
        tremor = physics.pop("tremor", 1.0)
        board = {k: physics.pop(k) for k in ("stick_g", "cells", "noise_scale") if k in physics}
        self._table = (seed, clean, physics, board)  # (calibration_tap builds its twin)
        self.tower = VirtualTower.create(seed, clean=clean, physics=physics, **board)
        self.tower.tremor = tremor
        self.meta = self.tower.board.meta()
        self.lively = lively  # scales how often things go wrong (falls, knocks, topples)
        stick_g = self.tower.board.stick_g
        # Each stick keeps its own mass (several % apart) for the whole game.
        self._all_sticks = [
            Stick(i, round(stick_g * self.rng.uniform(1 - spread, 1 + spread), 3))
            for i in range(self.tower.board.sticks)
        ]
        self._bag_sticks = list(self._all_sticks)
        self._fronts: list[list[Stick]] = [[] for _ in self.players]
        self._hand: Stick | None = None
        self._turn_fell: list[Stick] = []
        self._samples: list[Sample] = []
        self._lines: list[dict] = []
        self._turn = -1
        self._play()

    # -- what others read ------------------------------------------------------------------

    def calibration_tap(self) -> list:
        """`sticktable calibrate`'s tap on this game's table (on its twin, built from the same
        seed: the game's own tower is left as it is)."""
        seed, clean, physics, board = self._table
        return VirtualTower.create(seed, clean=clean, physics=physics, **board).calibration_tap()

    def samples(self) -> Iterator[Sample]:
        return iter(self._samples)

    def truth_events(self) -> list[dict]:
        return sorted(self.tower.truth, key=lambda e: e["t_ms"])

    def transcript_lines(self) -> list[dict]:
        """The header and one object per line of the truth transcript."""
        header = {k: v for k, v in self.header.items()}
        return [header] + [dict(line) for line in self._lines]

    def transcript_text(self) -> str:
        import json

        return "".join(json.dumps(line) + "\n" for line in self.transcript_lines())

    def expected_standings(self) -> Standings:
        return self.game.standings()

    @property
    def duration_ms(self) -> int:
        return self._samples[-1].t_ms if self._samples else 0

    # -- playing -----------------------------------------------------------------------------

    def _run(self, ms: float) -> None:
        self._samples.extend(self.tower.run(ms))

    def _settle(self) -> None:
        self._samples.extend(self.tower.run_until_quiet())

    def _rule(self, event: dict, line: dict | None = None) -> None:
        self.game.apply(event)
        if line is not None:
            self._lines.append(line)

    def _play(self) -> None:
        self._run(STILL_MS + self.rng.uniform(0, 500))
        guard = 0
        while not self.game.finished and guard < 2000:
            guard += 1
            state = self.game.state
            if blocked(state):
                self._close_round()
                continue
            self._turn_once()
        self._run(1500)

    def _press(self, seat: int, long: bool) -> None:
        self.tower.press_button(seat, long)
        self._settle()

    def _turn_once(self) -> None:
        rng = self.rng
        state = self.game.state
        seat = next_seat(state)
        name = self.players[seat]
        pile = self._fronts[seat]
        if pile and (state["bag"] == 0 or rng.random() < 0.6):
            source, stick = "front", pile.pop(rng.randrange(len(pile)))
        else:
            source, stick = "bag", self._bag_sticks.pop(rng.randrange(len(self._bag_sticks)))
        self._turn += 1
        self.tower.turn = self._turn
        self._press(seat, long=source == "front")
        self._rule({"type": "take", "player": name, "from": source}, {"turn": name, "take": source})
        self._hand = stick
        self._turn_fell = []
        self._run(rng.uniform(300, 1200))  # reaching for the tower
        self._place(stick)
        if self.game.state["holder"] is None:
            return  # the round ended during the placement (a topple)
        self._after_placement()
        self._run(rng.uniform(100, 600))

    def _place(self, stick: Stick) -> None:
        rng = self.rng
        heavy = rng.random() < 0.25
        tower_count = len(self.tower.sticks_on)
        fall_after = rng.uniform(40, 350) if rng.random() < 0.04 * self.lively else None
        self.tower.place(stick, heavy=heavy, fall_after_ms=fall_after)
        pr = self.tower.prng
        standing = self.tower.standing_sticks()
        during = None
        if heavy and standing and pr.random() < self.tower.physics.overlap_p:
            during = pr.choice(standing)  # a stick falls while the hand presses
            self.tower.add(Fall(self.tower, [during], 0.0, True, delay_ms=pr.uniform(80, 450)))
        self._settle()
        self._hand = None
        self._rule({"type": "placed"}, {"placed": True})
        if during is not None and self.game.state["holder"] is not None:
            self._record_fall([during])
        if fall_after is not None:
            self._record_fall([stick])
        elif tower_count > 0 and rng.random() < self._topple_chance(tower_count):
            self._topple()

    def _topple_chance(self, count: int) -> float:
        return min(0.2, (0.004 + 0.0025 * count) * self.lively)

    def _after_placement(self) -> None:
        rng = self.rng
        lively = self.lively
        self._run(rng.uniform(150, 1200))
        standing = self.tower.standing_sticks()
        if self._overlap():
            return
        roll = rng.random()
        if standing and roll < 0.12 * lively:
            self._burst(standing)
        elif standing and roll < 0.16 * lively:
            knock_off = rng.randint(1, min(3, len(standing))) if rng.random() < 0.4 else 0
            before = list(self.tower.sticks_on)
            self.tower.knock(knock_off=knock_off)
            self._settle()
            gone = [s for s in before if s not in self.tower.sticks_on]
            if gone:
                self._record_fall(gone)
        elif roll < 0.21 * lively:
            self.tower.touch()
            self._settle()
            self._rule({"type": "touch"})
        elif standing and roll < 0.26 * lively:
            self.tower.slide(rng.choice(standing))
            self._settle()
        elif roll < 0.33 * lively:
            self.tower.knock(strength_mg=rng.uniform(60, 400))
            self._settle()

    def _overlap(self) -> bool:
        """Now and then events run into each other, or someone leans on the table."""
        pr = self.tower.prng
        phys = self.tower.physics
        roll = pr.random()
        if roll < phys.overlap_p / 2:
            self.tower.knock(strength_mg=pr.uniform(100, 500))
            self._run(pr.uniform(80, 300))  # a touch follows the knock
            self.tower.touch()
        elif roll < phys.overlap_p:
            self.tower.lean_table(touch_after_ms=pr.uniform(300, 1200))  # a lean into a touch
        elif pr.random() < phys.lean_p:
            self.tower.lean_table()
            self._settle()
            return True
        else:
            return False
        self._settle()
        self._rule({"type": "touch"})
        return True

    def _burst(self, standing: list[Stick]) -> None:
        rng = self.rng
        n = len(standing)
        r = rng.random()
        if r < 0.04 and n >= 4:
            count = n  # a cascade empties the tower
        elif r < 0.12 and n >= 6:
            count = rng.randint(6, n)
        elif r < 0.35 and n >= 2:
            count = rng.randint(2, min(5, n))
        else:
            count = 1
        victims = standing[-count:] if rng.random() < 0.7 else rng.sample(standing, count)
        spread = 0.0 if count == 1 else rng.uniform(50, 150 + 40 * count)
        self.tower.fall(victims, spread_ms=min(spread, 600.0))
        self._settle()
        self._record_fall(victims)

    def _record_fall(self, gone: list[Stick]) -> None:
        seat = self.game.state["holder"]
        self._fronts[seat].extend(gone)
        self._turn_fell.extend(gone)
        self._rule({"type": "fell", "count": len(gone)}, {"fell": len(gone)})
        if self.game.state["holder"] is None:
            self._round_over(toppled=True)  # the tower emptied: a topple by ruling 6

    def _topple(self) -> None:
        self.tower.topple(crumble=self.rng.random() < 0.3)
        self._settle()
        self._rule({"type": "topple"}, {"topple": True})
        self._round_over(toppled=True)

    def _close_round(self) -> None:
        """No more sticks: any seat's button closes the round; then the tower is cleared."""
        seat = next_seat(self.game.state)
        self._turn += 1
        self.tower.turn = self._turn
        self.tower.phase = "clear"  # this press starts no turn: it closes the round
        self._press(seat, long=False)
        self._rule({"type": "end_round"})
        self._round_over(toppled=False)

    def _round_over(self, toppled: bool) -> None:
        """Sticks back in the bag; the tower stood back up or cleared, then held still."""
        rng = self.rng
        tower = self.tower
        start = tower.t
        tower.phase = "clear"
        self._run(rng.uniform(500, 1500))
        if toppled and tower.tilt_deg > 10:
            tower.add(Rebuild(tower))
            self._settle()
        elif tower.sticks_on:
            tower.add(Clear(tower))
            self._settle()
        self._run(STILL_MS)
        tower.record("clear", start, end_ms=int(tower.t))
        tower.phase = "play"
        self._bag_sticks = list(self._all_sticks)
        tower.sticks_on.clear()
        self._fronts = [[] for _ in self.players]
