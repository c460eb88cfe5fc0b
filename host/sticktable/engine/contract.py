"""The contract between the engine (and the table around it) and a game's rules.

A rule set is a `RuleSet` subclass: it declares its phases and its event handlers (one
dispatch style for every game), and it answers in typed values, never in dict keys that
generic code would have to know: `Standings` (with each round's `RoundResult`), `Display`
(what the score rings show), `Turn` (the phase and who acts), and `Effect`s (what the table
must do after an event, such as arming the board at a new round). Broken invariants raise
`InvariantError` (a bug in the rules, unlike `RuleError`, which is a player's illegal move).

Events stay JSON-safe dicts with a "type" key: they are what the journal stores.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from sticktable.keyvalue import parse_pairs

State = Any
Event = dict


class RuleError(Exception):
    """An illegal event or header, with a reason a player understands."""


class InvariantError(Exception):
    """A rule set broke one of its own invariants (a bug, never a player's mistake).

    Raised explicitly, unlike `assert`, so the checks also run under `python -O`."""


def require(condition: bool, broken: str) -> None:
    """Raise InvariantError(broken) unless `condition` holds."""
    if not condition:
        raise InvariantError(broken)


# --- the log ------------------------------------------------------------------------------


def effective_log(events: list[Event]) -> list[Event]:
    """The log with every referee correction applied in place of the event it targets."""
    slots: list[list[Event]] = []
    for index, event in enumerate(events):
        if event.get("type") != "correct":
            slots.append([event])
            continue
        target = event.get("target")
        if not isinstance(target, int) or not 0 <= target < index:
            raise RuleError(f"correction targets no earlier event: {target!r}")
        if events[target].get("type") == "correct":
            raise RuleError("a correction cannot target another correction")
        replacement = event.get("events", [])
        if not isinstance(replacement, list) or not all(map(is_event, replacement)):
            raise RuleError("a correction's events must be a list of events (each with a type)")
        # Every raw entry owns one slot, so the target's slot index is its log index.
        slots[target] = list(replacement)
        slots.append([])
    return [e for slot in slots for e in slot]


def is_event(event: object) -> bool:
    return isinstance(event, dict) and isinstance(event.get("type"), str)


# --- what a game tells the table ------------------------------------------------------------


@dataclass(frozen=True)
class RoundResult:
    """One finished round (a deal, a drop): the points it gave and how it ended."""

    number: int
    scores: Mapping[str, int]
    how: str = ""  # e.g. "topple by Ann"; empty when there is nothing to tell


@dataclass(frozen=True)
class Standings:
    """Scores so far. Games add their own fields in a subclass (a pot, payouts...)."""

    finished: bool
    totals: Mapping[str, int]
    winners: list[str]
    rounds: list[RoundResult] = field(default_factory=list)
    lowest_wins: bool = False  # how `ranking` orders the players

    def remarks(self) -> dict[str, str]:
        """A word on a player beside their total (what they were paid, that they fell out)."""
        return {}

    def ranking(self) -> list[str]:
        """The players in the order a result table lists them: winners first, then by total."""
        sign = 1 if self.lowest_wins else -1
        return sorted(self.totals, key=lambda p: (p not in self.winners, sign * self.totals[p]))

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Display:
    """What the score rings show (see tablefw.rings): one ring per seat."""

    scores: tuple[int, ...]
    scale: int
    turn: int | None = None  # the seat that acts next
    mode: str = "idle"  # idle, play, topple, over (the table adds paused and fault)
    win: tuple[int, ...] = ()
    marks: tuple[int, ...] = ()  # per-seat flags a game defines (fouls, the counter...)
    names: tuple[str, ...] = ()  # who sits at each ring, in ring order

    def with_mode(self, mode: str) -> Display:
        return dataclasses.replace(self, mode=mode)

    def wire(self) -> dict:
        """The fields of the `show` command (short keys, see PROTOCOL.md)."""
        fields = {
            "sc": list(self.scores),
            "scale": self.scale,
            "turn": self.turn,
            "mode": self.mode,
            "win": list(self.win),
        }
        if any(self.marks):
            fields["mk"] = list(self.marks)
        return fields


@dataclass(frozen=True)
class HouseRule:
    """A header key a table may set before play (the setup screen lists them): its default
    (None: none, or set by the game), what a valid value is, and what it changes."""

    key: str
    default: object
    values: str
    about: str


@dataclass(frozen=True)
class Turn:
    """Where the game is: its phase (one of the rule set's `phases`) and who acts now
    (None: nobody in particular, e.g. the table waits on chance or on a sensor)."""

    phase: str
    player: str | None = None


class Effect:
    """Something the table must do because of an event (beyond showing the new display)."""


@dataclass(frozen=True)
class ArmBoard(Effect):
    """A new round began: the tower is empty and still, the board re-baselines its sensors."""


# --- the rule set -----------------------------------------------------------------------------


Handler = Callable[[State, Event], State | None]


class RuleSet:
    """What a game's rules provide. `apply` receives a private copy it may change and return.

    Subclasses set `name`, `title`, `phases` and `handlers` and implement the methods that
    raise NotImplementedError; the others have defaults a game may override."""

    name: ClassVar[str]
    title: ClassVar[str]  # the game's name as players read it
    phases: ClassVar[tuple[str, ...]]
    # event type -> handler(state, event) that changes `state` (returning it, or None)
    handlers: ClassVar[Mapping[str, Handler]]
    # Header additions the random-play test plays every game with (presets, variants).
    variants: ClassVar[tuple[dict, ...]] = ({},)
    keys_help: ClassVar[str] = ""  # the game's own keyboard commands, for `help`
    house_rules: ClassVar[tuple[HouseRule, ...]] = ()  # header keys with defaults, for setup
    # The export (player None) holds the whole game, so `reimport` gives it back (False when
    # the export hides something, such as a shuffle).
    export_is_complete: ClassVar[bool] = True

    # -- required ----------------------------------------------------------------------------

    def initial(self, header: dict) -> State:
        """The state before any event; validates players and house rules (RuleError)."""
        raise NotImplementedError

    def check(self, state: State) -> None:
        """InvariantError if an invariant (conservation, ledger balance) is broken."""
        raise NotImplementedError

    def finished(self, state: State) -> bool:
        raise NotImplementedError

    def turn(self, state: State) -> Turn:
        raise NotImplementedError

    def standings(self, state: State) -> Standings:
        raise NotImplementedError

    def legal_actions(self, state: State, player: str | None = None) -> list[Event]:
        """Concrete events a player (or anyone, for None) may add now: each one applies.
        Chance outcomes are not listed: `chance` draws them."""
        raise NotImplementedError

    def view(self, state: State, player: str | None = None) -> dict:
        """What `player` may see (None: a spectator), JSON-safe. Never leaks hidden information."""
        raise NotImplementedError

    def display(self, state: State) -> Display:
        raise NotImplementedError

    # -- one dispatch for every game ---------------------------------------------------------

    def apply(self, state: State, event: Event) -> State:
        """The state after `event`, or RuleError if the event is illegal now."""
        kind = event.get("type")
        handler = self.handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise RuleError(f"{self.title} has no event {kind!r}")
        if self.finished(state):
            raise RuleError("the game is over")
        self.admit(state, kind)
        changed = handler(state, event)
        return state if changed is None else changed

    def admit(self, state: State, kind: str) -> None:
        """RuleError if events of `kind` are not taken in the state's phase (default: any)."""

    def is_legal(self, state: State, event: Event) -> bool:
        try:
            self.apply(copy.deepcopy(state), event)
        except RuleError:
            return False
        return True

    # -- optional, with defaults -------------------------------------------------------------

    def chance(self, state: State, rng: random.Random) -> Event | None:
        """If the game waits on chance (a shuffle, a draw), the outcome drawn as an event."""
        return None

    def interpret(self, state: State, fact: dict) -> list[Event]:
        """Rule events meant by a board fact (a decoded board message such as
        {"k": "fell", "n": 2}): sensors report physics, the rules decide. May be empty."""
        return []

    def effects(self, before: State, after: State) -> tuple[Effect, ...]:
        """What the table must do after an event took `before` to `after`."""
        return ()

    def status(self, state: State) -> str:
        """One line for a shared screen: where the game is and who acts."""
        turn = self.turn(state)
        return f"phase {turn.phase}" + (f", {turn.player} to act" if turn.player else "")

    def public_lines(self, state: State) -> list[str]:
        """What lies on the table for everyone to see, beyond `status` (Sticks: the melds,
        the discard pile, each player's card count), as lines for a shared screen."""
        return []

    def hot_seat(self, state: State) -> tuple[str, object] | None:
        """Games with hidden hands played at one shared screen: whose turn it is and a key
        that changes whenever a new turn begins (the screen hides every hand then); None
        when nothing is hidden or nobody acts."""
        return None

    def private_lines(self, state: State, player: str) -> list[str]:
        """What only `player` may see (their hand, their moves), as lines for a shared
        screen shown to them alone (see `hot_seat`)."""
        return []

    def parse_key(self, line: str, state: State = None) -> Event:
        """A typed command as an event: `TYPE key=value ...` (numbers become ints).
        `state`: the game now, for commands that default to whose turn it is."""
        words = line.split()
        if not words:
            raise RuleError("type a command")
        try:
            return {"type": words[0], **parse_pairs(words[1:])}
        except ValueError as err:
            raise RuleError(str(err)) from None

    def summary(self, state: State) -> dict:
        """What `sticktable replay` prints (JSON)."""
        return self.standings(state).to_json()

    def summary_of_log(self, header: dict, events: list[Event], state: State) -> dict:
        """What `sticktable replay` prints for the game whose log and state these are: the
        state's summary, unless the rule set needs the log itself (a Bloodsticks record's
        result names side bets by their line in the record)."""
        return self.summary(state)

    def export(self, header: dict, events: list[Event], player: str | None = None) -> list[str]:
        """The game as text lines for `player`'s eyes: the header and the effective log."""
        return [json.dumps(header)] + [json.dumps(e) for e in effective_log(events)]

    def reimport(self, lines: list[str]) -> tuple[dict, list[Event]]:
        """The header and events of an export (player None); RuleError if it is not one."""
        try:
            header, *events = [json.loads(line) for line in lines if line.strip()]
        except ValueError as err:
            raise RuleError(f"not an export of this game: {err}") from None
        return header, events
