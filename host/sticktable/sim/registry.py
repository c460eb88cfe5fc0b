"""Which simulated table each game plays on (`sticktable run --sim`).

A game with a scripted simulation (Stick Stack: `SimGame` drives the virtual tower, and the
script knows how the game must be scored) registers it here; every other game plays on the
tower standing idle in real time, with its input typed or piped.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

from sticktable.engine import Game
from sticktable.sim.runner import SimTable

# After the scripted table has played its last sample, wait this long for the last frames.
DRAIN_S = 3.0


class Simulation:
    """A running simulated table: the firmware under MicroPython on a virtual tower."""

    # A scripted game ends with its script; an idle table ends with its typed input.
    ends_with_input = True

    def __init__(self, table: SimTable):
        self.table = table
        self.port = table.port
        self._drained_at: float | None = None

    def tick(self) -> bytes | None:
        """Raise if the firmware died; the LED frame it shows now."""
        self.table.check()
        return self.table.leds

    def over(self) -> bool:
        """The simulation has played every sample (an idle tower never has) and the board has
        had time to send its last frames."""
        if not self.table.samples_done.is_set():
            return False
        self._drained_at = self._drained_at or time.monotonic()
        return time.monotonic() - self._drained_at > DRAIN_S

    def verdict(self, game: Game) -> tuple[bool, str] | None:
        """Whether the table scored the game as the simulation knows it happened (None: it
        does not know)."""
        return None


class ScriptedStickStack(Simulation):
    """A Stick Stack game played by `SimGame` on the virtual tower: it knows the truth."""

    ends_with_input = False

    def __init__(self, table: SimTable, script):
        super().__init__(table)
        self.script = script

    def verdict(self, game: Game) -> tuple[bool, str]:
        expected, got = self.script.expected_standings(), game.standings()
        same = (got.totals, got.winners) == (expected.totals, expected.winners)
        told = "exactly as scripted" if same else f"DIFFERENTLY from the script: {expected.totals}"
        return same and game.finished, f"table scored the game {told}"


@contextlib.contextmanager
def scripted_stick_stack(header: dict, seed: int, speed: float) -> Iterator[Simulation]:
    from sticktable.sim.game import SimGame

    house = {k: v for k, v in header.items() if k not in ("game", "players")}
    script = SimGame(header["players"], seed=seed, **house)
    with SimTable(script.samples(), script.meta, speed=speed) as table:
        yield ScriptedStickStack(table, script)


@contextlib.contextmanager
def idle_tower(header: dict, seed: int, speed: float) -> Iterator[Simulation]:
    """The tower standing idle, in real time unless told otherwise, for as long as it takes."""
    from sticktable.sim.tower import VirtualTower

    tower = VirtualTower.create(seed, clean=True)
    samples = itertools.chain.from_iterable(tower.run(1000.0) for _ in itertools.count())
    with SimTable(samples, tower.board.meta(), speed=speed or 1.0) as table:
        yield Simulation(table)


Starter = Callable[[dict, int, float], AbstractContextManager[Simulation]]
SIMULATIONS: dict[str, Starter] = {"stick-stack": scripted_stick_stack}


def simulate(header: dict, seed: int, speed: float) -> AbstractContextManager[Simulation]:
    """The simulated table for the game `header` describes, started."""
    return SIMULATIONS.get(header["game"], idle_tower)(header, seed, speed)


def resumable(header: dict) -> bool:
    """Whether `run --sim --resume` can continue this game: an idle tower (its input typed)
    can; a scripted simulation plays its script from the start, so it cannot."""
    return header["game"] not in SIMULATIONS
