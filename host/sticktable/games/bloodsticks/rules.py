"""The Bloodsticks rule set on the shared engine: state, invariants and what the table shows.

The game's moves are in `flow`; this module is the engine's face of it: `check` proves the
money and the scores after every event, `legal_actions` and `view` give the dashboard and the
keyboard what can be done (as concrete events), `display` feeds the rings, `interpret` maps
seat buttons. Bloodsticks has no hidden information, so every view shows everything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sticktable.engine import (
    Display,
    RoundResult,
    RuleSet,
    Standings,
    Turn,
    register,
    require,
)
from sticktable.engine.contract import Event

from . import flow, sidebets
from .drop import BLOOD, EXTRAS, POSTURE_POINTS
from .entry import ENTRY_HELP, parse_entry
from .ledger import POT, SIDE, balance, check_ledger, paid_in
from .settings import NAME, settings_from_header
from .settings import house_rules as listed_house_rules

# Per-seat ring marks (bit flags): the counter, a player who fell out, a player still to answer.
MARK_COUNTER, MARK_FELL_OUT, MARK_TO_ANSWER = 1, 2, 4
# A ring is full at this many points per planned round (a good drop is worth about that much).
SCALE_PER_ROUND = 16
# Open amounts are listed as a few concrete values (any other legal value is accepted too):
LISTED_BETS = 10  # an uncapped bet: the minimum and the next amounts up to this many
LISTED_POINTS = (0, 1, 3)  # totals entry: everyone scores this; plus one ranked by seat
LISTED_GUESSES = (0, 10)  # a side bet's guess (staking 1 coin)
WORD = "the counter's word"  # the reason an override listed by `legal_actions` gives


@dataclass(frozen=True)
class BloodsticksStandings(Standings):
    end: str | None = None  # how the game ended: highest, split, last_standing
    payouts: Mapping[str, int] = field(default_factory=dict)
    pot: int = 0
    active: list[str] = field(default_factory=list)
    fell_out: list[str] = field(default_factory=list)
    round: int = 0
    tiebreaks: list[Mapping[str, int]] = field(default_factory=list)
    side_bets: list[Mapping] = field(default_factory=list)

    def remarks(self) -> dict[str, str]:
        paid = {p: f"paid {n}" for p, n in self.payouts.items()}
        return {**paid, **{p: "fell out" for p in self.fell_out}}


class Bloodsticks(RuleSet):
    name = NAME
    title = "Bloodsticks"
    phases = (
        "setup",
        "collect",
        "pick_counter",
        "bet",
        "answer",
        "drop",
        "count",
        "confirm",
        "over",
    )
    handlers = flow.APPLY
    variants = (
        {},
        {"entry": "totals", "first_dropper": "host"},
        {"variant": "challenge", "players": ["Ann", "Bo"], "counter": "Ref"},
        {"variant": "house", "side_pots": True, "house_cut_pct": 10},
    )
    house_rules = listed_house_rules()
    keys_help = ENTRY_HELP  # typed entry at the table (`sticktable run --game bloodsticks`)

    def parse_key(self, line: str, state: dict | None = None) -> Event:
        return parse_entry(line)

    def status(self, state: dict) -> str:
        """The round, the phase, the dropper and the counter, the pot; a proposal to confirm."""
        parts = [f"round {state['round']}, {state['phase']}"]
        if state["dropper"]:
            parts.append(f"dropper {state['dropper']}")
        if state["counter"]:
            parts.append(f"counter {state['counter']}")
        if state["pending"]:
            parts.append("to answer: " + ", ".join(state["pending"]))
        parts.append(f"pot {balance(state['ledger'], POT)}")
        if state["phase"] == "count" and state["pool"]:
            ids = [sid for sticks in flow.owners_of(state).values() for sid in sticks]
            parts.append("sticks " + " ".join([*ids, *_extras(state)]))
        if state["phase"] == "confirm":
            proposal = ", ".join(f"{p} {n}" for p, n in state["proposal"].items())
            parts.append(f"proposed: {proposal} (confirm, or override NAME=N...)")
        return "; ".join(parts)

    def initial(self, header: dict) -> dict:
        players, settings = settings_from_header(header)
        return flow.new_state(players, settings)

    def check(self, state: dict) -> None:
        check_state(state)

    def finished(self, state: dict) -> bool:
        return state["over"]

    def turn(self, state: dict) -> Turn:
        phase = state["phase"]
        actor = {
            "collect": state["dropper"],
            "bet": state["dropper"],
            "answer": state["pending"][0] if state["pending"] else None,
            "drop": state["dropper"],
            "count": state["counter"],
            "confirm": state["counter"],
        }.get(phase)
        return Turn(phase, actor)

    def standings(self, state: dict) -> BloodsticksStandings:
        return BloodsticksStandings(
            finished=state["over"],
            totals=dict(state["totals"]),
            winners=list(state["winners"]),
            rounds=[
                RoundResult(number, dict(r["points"]), _how(r))
                for number, r in enumerate(state["rounds"], start=1)
            ],
            end=state["end"],
            payouts=dict(state["payouts"]),
            pot=balance(state["ledger"], POT),
            active=list(state["active"]),
            fell_out=list(state["fell_out"]),
            round=state["round"],
            tiebreaks=[dict(r["points"]) for r in state["tiebreaks"]],
            side_bets=[dict(b) for b in state["side_bets"]],
        )

    def legal_actions(self, state: dict, player: str | None = None) -> list[Event]:
        """Concrete events legal now; where a field is open (an amount, a layout, points, a
        side bet) a few representative values are listed. For a player: only what they do."""
        if state["over"]:
            return []
        actions = _phase_actions(state)
        actions += [(None, e) for e in _ban_votes(state)]
        if player is None:
            actions += [(None, e) for e in _side_bets(state, None)]
            return [e for _, e in actions]
        own = [e for actor, e in actions if actor == player]
        return own + _side_bets(state, player)

    def view(self, state: dict, player: str | None = None) -> dict:
        """Everything is public: the table, the money, the history; plus `player`'s actions."""
        ledger = state["ledger"]
        return {
            "game": NAME,
            "players": list(state["players"]),
            "you": player,
            "settings": dict(state["settings"]),
            "phase": state["phase"],
            "stage": state["stage"],
            "round": state["round"],
            "dropper": state["dropper"],
            "counter": state["counter"],
            "bet": state["bet"],
            "to_answer": list(state["pending"]),
            "attempt": state["attempt"],
            "sticks": flow.owners_of(state) if state["pool"] else {},
            "extras": list(_extras(state)) if state["pool"] else [],
            "proposal": state["proposal"],
            "pot": balance(ledger, POT),
            "side_pot": balance(ledger, SIDE),
            "stakes": dict(state["stakes"]),
            "bans": [dict(b) for b in state["bans"]],
            "openings": [r["points"] for r in state["openings"]],
            "history": [dict(r) for r in state["rounds"] + state["tiebreaks"]],
            "ledger": [dict(e) for e in ledger["entries"]],
            "standings": self.standings(state).to_json(),
            "actions": self.legal_actions(state, player),
        }

    def display(self, state: dict) -> Display:
        players = state["players"]
        marks = []
        for p in players:
            mark = MARK_COUNTER if p == state["counter"] and not state["over"] else 0
            mark |= MARK_FELL_OUT if p in state["fell_out"] else 0
            mark |= MARK_TO_ANSWER if p in state["pending"] else 0
            marks.append(mark)
        scores = [state["totals"][p] for p in players]
        scale = max([SCALE_PER_ROUND * state["settings"]["rounds"]] + [abs(s) for s in scores])
        dropper = state["dropper"]
        return Display(
            scores=tuple(scores),
            scale=scale,
            turn=None if state["over"] or dropper is None else players.index(dropper),
            mode="over" if state["over"] else "idle" if state["phase"] == "setup" else "play",
            win=tuple(players.index(w) for w in state["winners"]),
            marks=tuple(marks),
            names=tuple(players),
        )

    # chance: none (drops are physical: the counter enters what they show)

    def summary_of_log(self, header: dict, events: list[Event], state: dict) -> dict:
        """`replay` prints what `score-game` prints for the game's record (the same object,
        side bets named by their line in the record: hence the log, not the state)."""
        from .record import summary  # record drives this rule set: imported when needed

        return summary(header, events)

    def export(self, header: dict, events: list[Event], player: str | None = None) -> list[str]:
        """The game record (host/docs/formats/bloodsticks-game.md); nothing is hidden, so
        every player's view is the whole record."""
        from .record import write_record

        return write_record(header, events)[0]

    def reimport(self, lines: list[str]) -> tuple[dict, list[Event]]:
        from .record import read_record

        game, _ = read_record(lines)
        return game.header, game.events

    def interpret(self, state: dict, fact: dict) -> list[Event]:
        """A seat button while a bet waits on that seat: short press matches, long falls out."""
        if not isinstance(fact, dict) or fact.get("k") != "button" or state["over"]:
            return []
        seat = fact.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            return []
        if not 0 <= seat < len(state["players"]) or state["phase"] != "answer":
            return []
        player = state["players"][seat]
        if player != state["pending"][0]:
            return []  # G3: answers go clockwise; an early press is not an answer
        return [{"type": "fall_out" if fact.get("long") else "match", "player": player}]


def _how(record: dict) -> str:
    done = f"dropped by {record['dropper']}" if record["dropper"] else "house drop"
    return done + (", careless" if record["careless"] else "")


def _extras(state: dict) -> tuple:
    return (BLOOD,) if state["stage"] == "opening" else EXTRAS


def _phase_actions(state: dict) -> list[tuple]:
    """(actor, event) pairs for the current phase; actor None = the host or the table."""
    phase, settings = state["phase"], state["settings"]
    dropper, counter = state["dropper"], state["counter"]
    who = {"player": counter} if counter is not None else {}
    if phase == "setup":
        return [(None, {"type": "first_dropper", "player": p}) for p in state["players"]]
    if phase == "collect":
        return [(dropper, {"type": "collect"})]
    if phase == "pick_counter":  # G5: any player, again or not
        return [(None, {"type": "pick_counter", "player": p}) for p in state["players"]]
    if phase == "bet":
        low, cap = settings["min_bet"], settings["cap"]
        high = cap if cap is not None else low + LISTED_BETS - 1
        return [
            (dropper, {"type": "bet", "player": dropper, "amount": a}) for a in range(low, high + 1)
        ]
    if phase == "answer":  # G3: the next player clockwise answers
        first = state["pending"][0]
        return [(first, {"type": kind, "player": first}) for kind in ("match", "fall_out")]
    if phase == "drop":
        return [(dropper, {"type": "drop", "style": s}) for s in flow.STYLES]
    if phase == "count":
        entry, actions = settings["entry"], []
        if entry in ("layout", "any"):
            actions += [(counter, {"type": "layout", **who, "sticks": s}) for s in _layouts(state)]
        if entry in ("totals", "any"):
            actions += [(counter, {"type": "totals", **who, "points": p}) for p in _points(state)]
            if state["attempt"] == 1:  # the drop done over is never redone again
                actions.append((counter, {"type": "redo", **who}))
        return actions
    if phase == "confirm":
        override = {"type": "override", **who, "points": _points(state)[0], "why": WORD}
        return [(counter, {"type": "confirm", **who}), (counter, override)]
    return []


def _layouts(state: dict) -> list[dict]:
    """Layouts to list: every stick in one posture (extras lying free), for each posture;
    each player's sticks standing on end while the others lie flat (one leads); the first
    stick off the surface (a drop done over, or a careless one)."""
    owners = flow.owners_of(state)
    extras = {extra: {} for extra in _extras(state)}

    def lying(posture_of) -> dict:
        postures = {sid: {"posture": posture_of(p)} for p, ids in owners.items() for sid in ids}
        return {**postures, **extras}

    layouts = [lying(lambda p, posture=posture: posture) for posture in POSTURE_POINTS]
    layouts += [lying(lambda p, lead=lead: "center" if p == lead else "flat") for lead in owners]
    first = next(iter(layouts[0]))
    return [*layouts, {**layouts[0], first: {"posture": "flat", "off": True}}]


def _points(state: dict) -> list[dict]:
    pool = state["pool"]
    return [{p: v for p in pool} for v in LISTED_POINTS] + [
        {p: seat for seat, p in enumerate(pool)}
    ]


def _ban_votes(state: dict) -> list[Event]:
    if state["drops_thrown"]:
        return []
    voted = {b["owner"] for b in state["bans"]}
    return [
        {"type": "ban_vote", "owner": p, "votes": {v: vote for v in state["players"]}}
        for p in state["players"]
        if p not in voted
        for vote in flow.VOTES
    ]


def _side_bets(state: dict, bettor: str | None) -> list[Event]:
    settings = state["settings"]
    if not settings.get("side_pots") or state["over"]:
        return []
    bettors = [bettor] if bettor is not None else state["players"]
    return [  # G7: any time before the end; a drop bet is on the next drop that counts
        {"type": "side_bet", "bettor": b, "kind": k, "guess": g, "stake": 1}
        for b in bettors
        for k in sidebets.KINDS
        for g in LISTED_GUESSES
    ]


def check_state(state: dict) -> None:
    """The invariants: money balances, stakes match the bets, totals are the drops' sum."""
    check_ledger(state["ledger"], state["over"])
    players = state["players"]
    require(sorted(state["active"] + state["fell_out"]) == sorted(players), "players lost")
    require(set(state["pending"]) <= set(state["active"]), "a player out of the game must answer")
    for p in players:
        require(state["stakes"][p] == paid_in(state["ledger"], p), f"{p}'s stake is off")
    staked = sum(r["bet"] * len(r["matched"]) for r in state["rounds"])
    if state["bet"] is not None:  # the round being played
        staked += state["bet"] * len(state["matched"])
    require(staked == sum(state["stakes"].values()), "the stakes differ from the bets matched")
    records = state["rounds"] + state["tiebreaks"]
    for p in players:
        total = sum(r["points"].get(p, 0) for r in records)
        require(state["totals"][p] == total, f"{p}'s total is not the sum of the drops")
    for record in records + state["openings"]:
        if record["layout"] is not None and record["override"] is None:
            require(record["points"] == _rescored(state, record), "points differ from the layout")
    require(state["over"] == bool(state["winners"]), "a finished game needs winners")
    if state["over"]:
        paid = sum(state["payouts"].values())
        require(paid <= sum(state["stakes"].values()), "more was paid out than staked")


def _rescored(state: dict, record: dict) -> dict:
    """A recorded layout scored again, to prove the proposal was the scorer's."""
    pool = list(record["points"])
    result = flow.score_drop(
        state["settings"],
        record["stage"],
        pool,
        record["layout"],
        record["careless"],
        record["dropper"],
    )
    return result.points


RULES = register(Bloodsticks())
