"""The rule session: board facts in, rule decisions out, everything journaled, rings kept right.

One `TableSession` runs one game (the table service, table.py, runs the loop around it). It
owns no rules: every board fact (a decoded board message) goes through the rule set's
`interpret`, each resulting event is applied to the game and written to the journal before
anything else happens, and the rule set's `display` is sent back to the board whenever it
changes. Keyboard lines are the same kind of input, typed by a player or the referee (see
`KEY_HELP` and the game's own `keys_help`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from sticktable.engine import ArmBoard, Display, Effect, Game, RuleError, Standings
from sticktable.journal import REFEREE_OK, Journal, apply_hold
from sticktable.rearm import TowerSticks, tower_count
from sticktable.texttable import table

# Board messages that are link housekeeping, not facts about the table.
LINK_KINDS = {"hb", "ack", "raw"}

KEY_HELP = """\
table commands (every game):
  button SEAT [long]        as if SEAT's button was pressed (long: held)
  {"type": ...}             a rule event as JSON
  undo                      the referee takes back the last event (logged as a correction)
  fix N EVENT...            the referee replaces event #N (JSON list or one JSON event)
  ok                        the referee confirms the table after a pause (lost events,
                            a sensor fault): play goes on
  show [--json]             where the game is and the standings so far
  help                      the game's commands and these"""


class TableSession:
    """One game at the table, journaled as it goes."""

    def __init__(
        self,
        journal: Journal,
        game_id: int,
        game: Game,
        send: Callable[..., object] | None = None,
        say: Callable[[str], None] = print,
        rng: random.Random | None = None,
    ):
        self.journal = journal
        self.game_id = game_id
        self.game = game
        self.send = send  # send(kind, **fields) to the board; None when no board is attached
        self.say = say
        self.rng = rng or random.SystemRandom()  # outcomes are journaled: no seed needed
        self.boot: str | None = None
        self.last_display: Display | None = None
        self.effects: list[Effect] = []  # what the table must do once the display is sent
        self.told: list[str] = []  # the events of the input being handled, as the screen tells
        # Why play is paused (a sensor fault, events lost in a reboot): board facts are
        # journaled but not applied until the fault clears or the referee types `ok`. Resuming,
        # rebuilt from the journal's facts.
        self.holds: dict[str, str] = journal.holds(game_id)
        # The sticks on the tower, to re-arm a board that reset mid-round (sticktable/rearm.py).
        self.tower = TowerSticks(tower_count(game.state))

    # -- input -----------------------------------------------------------------------------

    def on_board(self, message: dict) -> list[dict]:
        """Apply what the rules make of one board message; returns the events applied."""
        kind = message.get("k")
        if kind in LINK_KINDS:
            return []
        if kind in ("hello", "gap", "link", "fault", "err"):
            self._on_link_news(message)
            return []
        fact = dict(message)
        if self.holds:
            why = "; ".join(self.holds.values())
            self.journal.record_fact(self.game_id, message, f"held: paused ({why})", self.boot)
            self.say(f"{describe_fact(fact):38} -> not applied: play is paused")
            return []
        try:
            events = self.game.rules.interpret(self.game.state, fact)
        except RuleError as err:
            self.journal.record_fact(self.game_id, message, f"refused: {err}", self.boot)
            self.say(f"{describe_fact(fact):38} refused: {err}")
            return []
        meta = {"src": "board", "seq": message.get("s"), "t": message.get("t")}
        with self.journal.transaction():  # the events and their fact: on disk together or not
            applied, decision = self._apply_all([{**event, **meta} for event in events])
            self.journal.record_fact(self.game_id, message, decision, self.boot)
        self.tower.update(fact, applied, tower_count(self.game.state))
        self.say(f"{describe_fact(fact):38} -> {decision}")
        self.sync_display()
        return applied

    def _on_link_news(self, message: dict) -> None:
        """A reboot, lost events, the link going down or up, a sensor fault: tell and hold."""
        kind = message["k"]
        if kind == "hello":
            self.boot = message.get("boot")
            self.last_display = None  # a (re)booted board shows nothing until told
            note = f"board {message.get('board')} (boot {self.boot}, reset {message.get('reset')})"
        elif kind == "gap":
            note = (
                f"{apply_hold(self.holds, message)}: referee, check the tower, correct the game "
                "if needed (fix/undo), then type `ok`"
            )
            rearm = self.tower.arm_fields() if message.get("why") == "reboot" else None
            if rearm and self.send is not None:
                self.send("arm", **rearm)  # the new boot's detector: the sticks standing
        elif kind == "fault":
            note = apply_hold(self.holds, message)
            if not message.get("ok"):
                note += "; play paused until it clears (or referee `ok`)"
        elif kind == "link":
            note = "board link " + ("up" if message.get("up") else f"down: {message.get('why')}")
        else:
            note = f"board refused a command: {message.get('why')}"
        self.journal.record_fact(self.game_id, message, f"link: {note}", self.boot)
        self.say(f"          !! {note}")
        self.sync_display()

    def on_key(self, line: str) -> list[dict]:
        """Apply one typed command; refusals are reported, never raised."""
        words = line.split()
        if not words:
            return []
        try:
            if words[0] == "help":
                self.say("\n".join(filter(None, [self.game.rules.keys_help, KEY_HELP])))
                return []
            if words[0] == "ok":
                said = apply_hold(self.holds, REFEREE_OK)
                self.journal.record_fact(self.game_id, REFEREE_OK, said, self.boot)
                self.say(f"          {said}")
                self.sync_display()
                return []
            if words[0] == "show":
                if words[1:] == ["--json"]:
                    self.say(json.dumps(self.game.summary(), ensure_ascii=False))
                else:
                    rules, state = self.game.rules, self.game.state
                    self.say("\n".join([rules.status(state), *rules.public_lines(state)]))
                    self.say("\n".join(standings_table(self.game.standings())))
                return []
            if words[0] == "button":
                seat = int(words[1]) if len(words) > 1 and words[1].isdigit() else None
                if seat is None:
                    raise RuleError("usage: button SEAT [long]")
                fact = {"k": "button", "seat": seat, "long": words[2:] == ["long"]}
                events = [
                    {**e, "src": "key"} for e in self.game.rules.interpret(self.game.state, fact)
                ]
            elif words[0] == "undo":
                events = [self._undo()]
            elif words[0] == "fix":
                if len(words) < 3 or not words[1].isdigit():
                    raise RuleError("usage: fix N EVENT (JSON event or list of events)")
                replacement = json.loads(line.split(None, 2)[2])
                if isinstance(replacement, dict):
                    replacement = [replacement]
                events = [self._correction(int(words[1]), replacement, "fix")]
            elif line.lstrip().startswith("{"):
                events = [typed(json.loads(line), "key")]
            else:
                events = [typed(self.game.rules.parse_key(line, self.game.state), "key")]
        except (RuleError, ValueError) as err:
            self.say(f"  key: {line.strip()}: {err}")
            return []
        with self.journal.transaction():
            applied, decision = self._apply_all(events)
        self.tower.update({}, applied, tower_count(self.game.state))
        self.say(f"          key {line.strip():28} -> {decision}")
        self.say(f"          -- {self.game.rules.status(self.game.state)}")
        self.sync_display()
        return applied

    def _correction(self, target: int, events: list, why: str) -> dict:
        if not 0 <= target < len(self.game.events):
            raise RuleError(f"there is no event {target} (the log has {len(self.game.events)})")
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise RuleError("fix N takes a JSON event or a list of them")
        events = [typed(e, "referee") for e in events]
        return {"type": "correct", "target": target, "events": events, "why": why, "src": "referee"}

    def _undo(self) -> dict:
        """The correction that takes back the last event of the effective log: the raw event
        that stands last, or the last event a `fix` put in its place."""
        slots: dict[int, list[dict]] = {}  # raw event -> what stands in its place now
        for index, event in enumerate(self.game.events):
            if event.get("type") == "correct":
                slots[event["target"]] = event.get("events", [])
            else:
                slots[index] = [event]
        for target in sorted(slots, reverse=True):
            if slots[target]:
                return self._correction(target, slots[target][:-1], "undo")
        raise RuleError("nothing to undo")

    def begin(self) -> None:
        """Draw what the game waits on by chance (a deal), then show the rings the game."""
        self.told = []
        with self.journal.transaction():
            self._draw_chance()
        for line in self.told:
            self.say(f"          {line}")
        self.say(f"          -- {self.game.rules.status(self.game.state)}")
        self.sync_display()

    def _draw_chance(self) -> list[dict]:
        """Chance outcomes the game waits on (shuffles, deals), drawn and journaled as events
        so that replay never needs the random generator."""
        drawn = []
        while not self.game.finished:
            event = self.game.rules.chance(self.game.state, self.rng)
            if event is None:
                return drawn
            event = {**event, "src": "chance"}
            self._step(event)
            drawn.append(event)
        return drawn

    def _step(self, event: dict) -> str:
        """Apply and journal one event (RuleError if illegal); how the screen tells it."""
        before = self.game.rules.display(self.game.state)
        self.effects += self.game.step(event)
        number = len(self.game.events) - 1
        self.journal.append_event(self.game_id, number, event)
        self.told.append(f"#{number} {describe_event(event)}{costs(before, self._display())}")
        return self.told[-1]

    def _display(self):
        return self.game.rules.display(self.game.state)

    def _apply_all(self, events: list[dict]) -> tuple[list[dict], str]:
        """Apply events in order, journaling each; stop at the first the rules refuse."""
        applied: list[dict] = []
        self.told = []
        for event in events:
            try:
                self._step(event)
            except RuleError as err:
                done = "; ".join(self.told)
                return applied, (done + "; " if done else "") + f"refused: {err}"
            applied.append(event)
            applied += self._draw_chance()
        if self.game.finished:
            self.journal.finish(self.game_id)
        return applied, "; ".join(self.told) or "no rule event"

    # -- output ----------------------------------------------------------------------------

    def sync_display(self) -> None:
        """Send the rings what the rules say they should show, when that changed; then do
        what the events asked of the table (arm the board at a new round)."""
        display = self.game.rules.display(self.game.state)
        if self.holds and display.mode != "over":
            faulty = any(key.startswith("fault:") for key in self.holds)
            display = display.with_mode("fault" if faulty else "paused")
        effects, self.effects = self.effects, []
        if self.send is None:
            return
        if display != self.last_display:
            self.last_display = display
            self.send("show", **display.wire())
        if any(isinstance(effect, ArmBoard) for effect in effects):
            self.send("arm")  # a new round: the tower is empty and still, re-baseline


def describe_fact(fact: dict) -> str:
    """`  41.1s board fell n=3 24.5g`: the board's clock, then what it reported."""
    kind = fact.get("k", "?")
    details = " ".join(
        f"{v / 10:.1f}g" if k == "g" and isinstance(v, int) else f"{k}={v}"
        for k, v in fact.items()
        if k not in ("k", "s", "t") and v is not None
    )
    at = f"{fact['t'] / 1000:7.1f}s " if isinstance(fact.get("t"), int) else " " * 9
    return f"{at}board {kind} {details}".rstrip()


def describe_event(event: dict) -> str:
    """An event as the shared screen may show it: a chance outcome (a deal, a drawn stick) is
    hidden information, so only its kind is told; the journal keeps it whole for replay."""
    if event.get("src") == "chance":
        return f"{event.get('type')} (by chance)"
    details = " ".join(
        f"{k}={shown_value(v)}" for k, v in event.items() if k not in ("type", "src", "seq", "t")
    )
    return f"{event.get('type')} {details}".rstrip()


def shown_value(value, width: int = 60) -> str:
    """A field of an event for people: a list of words as `3C,4C,5C`, anything nested as
    compact JSON cut at `width` (the journal keeps it whole), never a Python repr."""
    if isinstance(value, list) and all(isinstance(v, str | int) for v in value):
        return ",".join(map(str, value))
    if isinstance(value, dict | list):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return text if len(text) <= width else text[: width - 1] + "…"
    return str(value)


def typed(event: dict, src: str) -> dict:
    """A typed event marked as typed (by a player, or the referee's correction): a typed line
    cannot pass for the board, nor can the events inside a typed correction."""
    if not isinstance(event, dict):
        raise RuleError("an event is a JSON object")
    event = {**event, "src": src}
    if event.get("type") == "correct" and isinstance(event.get("events"), list):
        event["events"] = [typed(e, "referee") for e in event["events"]]
    return event


def costs(before: Display, after: Display) -> str:
    """What an event changed on the rings, by name: ` (Ann +2, Bo mark 1)`."""
    names = after.names or tuple(str(seat) for seat in range(len(after.scores)))
    told = []
    for seat, name in enumerate(names):
        delta = _at(after.scores, seat) - _at(before.scores, seat)
        if delta:
            told.append(f"{name} {delta:+d}")
        if _at(after.marks, seat) != _at(before.marks, seat):
            told.append(f"{name} mark {_at(after.marks, seat)}")
    return f" ({', '.join(told)})" if told else ""


def _at(values: tuple[int, ...], seat: int) -> int:
    return values[seat] if seat < len(values) else 0


def standings_table(standings: Standings) -> list[str]:
    """The standings for people: winners first, aligned whatever the names' script."""
    remarks = standings.remarks()
    rows = [
        [
            name,
            standings.totals[name],
            "winner" if name in standings.winners else "",
            remarks.get(name, ""),
        ]
        for name in standings.ranking()
    ]
    return ["  " + line for line in table(["player", "total", "", ""], rows, right=(1,))]
