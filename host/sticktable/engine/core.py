"""Event-sourced rules engine shared by every game on the table.

A game is a header (which rule set, the players, house rules) plus an append-only log of
events. State is never stored on its own: it is the fold of the log through the rule set's
`apply`. So replay rebuilds it, undo folds a prefix, and the log is the save file.

Events are JSON-safe dicts with a "type" key; the rule set decides what else they hold.
Chance (a shuffle, a deal) is an event too: a driver asks the rule set to draw the outcome
with its random generator and then applies the resulting event like any other, so replay
never needs the generator.

A referee's correction is one more event, never an edit:
    {"type": "correct", "target": 7, "events": [...], "why": "..."}
replaces raw log entry 7 (a non-correction event earlier in the log) by the given events
(possibly none). The fold runs over the *effective* log; a correction that would make the
rest of the log illegal is refused like any other illegal event.
"""

from __future__ import annotations

import copy
import json
import random

from sticktable.engine.contract import (
    Effect,
    Event,
    InvariantError,
    RuleError,
    RuleSet,
    Standings,
    State,
    Turn,
    effective_log,
    is_event,
)

_REGISTRY: dict[str, RuleSet] = {}


def register(rules: RuleSet) -> RuleSet:
    _REGISTRY[rules.name] = rules
    return rules


def registered() -> list[RuleSet]:
    """Every rule set the table hosts, by name."""
    _load_games()
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def _load_games() -> None:
    import sticktable.games  # noqa: F401  (importing the package registers every rule set)


def get_rules(name: str) -> RuleSet:
    _load_games()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise RuleError(f"unknown game {name!r} (known: {known})") from None


class Game:
    """A header plus its event log; the current state is the fold of the effective log."""

    def __init__(self, header: dict, events: list[Event] | None = None):
        self.header = dict(header)
        self.rules = get_rules(str(header.get("game")))
        self.events: list[Event] = []
        self.state = self.rules.initial(self.header)
        self.check(self.state)
        for event in events or []:
            self.apply(event)

    def fold(self, events: list[Event]) -> State:
        """State after the given raw log (corrections resolved); RuleError if any is illegal."""
        state = self.rules.initial(self.header)
        for event in effective_log(events):
            state = self.rules.apply(copy.deepcopy(state), event)
            self.check(state)
        return state

    def check(self, state: State) -> None:
        """The rule set's invariants, and its declared phases: InvariantError if broken."""
        self.rules.check(state)
        phase = self.rules.turn(state).phase
        if phase not in self.rules.phases:
            raise InvariantError(f"{self.rules.name} is in an undeclared phase {phase!r}")

    def apply(self, event: Event) -> State:
        """Append `event` if it is legal now; the log is unchanged when it is not."""
        if not is_event(event):
            raise RuleError(f"an event needs a type: {event!r}")
        if event["type"] == "correct":
            new_state = self.fold(self.events + [event])
        else:
            new_state = self.rules.apply(copy.deepcopy(self.state), event)
            self.check(new_state)
        self.events.append(event)
        self.state = new_state
        return new_state

    def step(self, event: Event) -> tuple[Effect, ...]:
        """Apply `event` (as `apply`) and return what the table must do because of it."""
        before = self.state
        self.apply(event)
        return self.rules.effects(before, self.state)

    def replay(self) -> State:
        """Rebuild the state from the header and the log alone."""
        return self.fold(self.events)

    def dump(self) -> list[str]:
        """The whole game as JSON lines (the header, then the raw log): what the journal holds."""
        return [json.dumps(self.header)] + [json.dumps(e) for e in self.events]

    @classmethod
    def load(cls, lines: list[str]) -> Game:
        """The game `dump` wrote."""
        header, *events = [json.loads(line) for line in lines]
        return cls(header, events)

    def undo(self, count: int = 1) -> Game:
        """The same game with the last `count` events taken back (a prefix replayed)."""
        if not 0 <= count <= len(self.events):
            raise RuleError(f"cannot undo {count} of {len(self.events)} events")
        return Game(self.header, self.events[: len(self.events) - count])

    def draw_chance(self, rng: random.Random) -> Event | None:
        """Draw and apply the pending chance outcome, if any; returns the recorded event."""
        event = self.rules.chance(self.state, rng)
        if event is not None:
            self.apply(event)
        return event

    def summary(self) -> dict:
        """What a replay reports (JSON)."""
        return self.rules.summary_of_log(self.header, self.events, self.state)

    def export(self, player: str | None = None) -> list[str]:
        """The game as text lines for `player` (None: everything public)."""
        return self.rules.export(self.header, self.events, player)

    @property
    def finished(self) -> bool:
        return self.rules.finished(self.state)

    def turn(self) -> Turn:
        return self.rules.turn(self.state)

    def standings(self) -> Standings:
        return self.rules.standings(self.state)
