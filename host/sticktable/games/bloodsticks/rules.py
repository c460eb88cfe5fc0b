"""The Bloodsticks rule set on the shared engine: state, invariants and what the table shows.

The game's moves are in `flow`; this module is the engine's face of it: `check` proves the
money and the scores after every event, `legal_actions` and `view` give the dashboard and the
keyboard what can be done (as data), `display` feeds the rings, `interpret` maps seat buttons.
Bloodsticks has no hidden information, so every view shows everything.
"""

from __future__ import annotations

from sticktable.engine.core import Event, RuleError, register

from . import flow, sidebets
from .drop import BLOOD, EXTRAS
from .entry import ENTRY_HELP, parse_entry
from .ledger import POT, SIDE, balance, check_ledger, paid_in
from .settings import NAME, settings_from_header

# Per-seat ring marks (bit flags): the counter, a player who fell out, a player still to answer.
MARK_COUNTER, MARK_FELL_OUT, MARK_TO_ANSWER = 1, 2, 4
# A ring is full at this many points per planned round (a good drop is worth about that much).
SCALE_PER_ROUND = 16


class Bloodsticks:
    name = NAME
    # Typed entry at the table (`sticktable run --game bloodsticks`): the daemon asks these.
    keys_help = ENTRY_HELP

    @staticmethod
    def parse_key(line: str) -> Event:
        return parse_entry(line)

    def initial(self, header: dict) -> dict:
        players, settings = settings_from_header(header)
        return flow.new_state(players, settings)

    def apply(self, state: dict, event: Event) -> dict:
        kind = event.get("type")
        if kind not in flow.APPLY:
            raise RuleError(f"Bloodsticks has no event {kind!r}")
        if state["over"]:
            raise RuleError("the game is over")
        return flow.APPLY[kind](state, event)

    def check(self, state: dict) -> None:
        check_state(state)

    def finished(self, state: dict) -> bool:
        return state["over"]

    def standings(self, state: dict) -> dict:
        return {
            "finished": state["over"],
            "totals": dict(state["totals"]),
            "winners": list(state["winners"]),
            "end": state["end"],
            "payouts": dict(state["payouts"]),
            "pot": balance(state["ledger"], POT),
            "active": list(state["active"]),
            "fell_out": list(state["fell_out"]),
            "round": state["round"],
            "rounds": [r["points"] for r in state["rounds"]],
            "tiebreaks": [r["points"] for r in state["tiebreaks"]],
            "side_bets": [dict(b) for b in state["side_bets"]],
        }

    def legal_actions(self, state: dict, player: str | None = None) -> list[Event]:
        """Events legal now. Open fields (a layout, points, a side bet) come as templates: the
        field is None and "fill" names what to fill in. For a player: only what they do."""
        if state["over"]:
            return []
        actions = _phase_actions(state)
        actions += [(None, e) for e in _ban_templates(state)]
        if player is None:
            actions += [(None, e) for e in _side_bet_templates(state, None)]
            return [e for _, e in actions]
        own = [e for actor, e in actions if actor == player]
        return own + _side_bet_templates(state, player)

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
            "standings": self.standings(state),
            "actions": self.legal_actions(state, player),
        }

    def display(self, state: dict) -> dict:
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
        return {
            "scores": scores,
            "scale": scale,
            "turn": None if state["over"] or dropper is None else players.index(dropper),
            "mode": "over" if state["over"] else "idle" if state["phase"] == "setup" else "play",
            "win": [players.index(w) for w in state["winners"]],
            "marks": marks,
            "round": state["round"],  # the contract's display key (the daemon arms on a change)
            "pot": balance(state["ledger"], POT),  # extra key: the rings do not show it yet
        }

    def chance(self, state: dict, rng) -> Event | None:
        return None  # drops are physical: the counter enters what they show

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
        if player not in state["pending"]:
            return []
        return [{"type": "fall_out" if fact.get("long") else "match", "player": player}]


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
    if phase == "pick_counter":
        free = [p for p in state["players"] if p not in state["counted"]]
        return [(None, {"type": "pick_counter", "player": p}) for p in free]
    if phase == "bet":
        low, cap = settings["min_bet"], settings["cap"]
        if cap is None:
            template = {
                "type": "bet",
                "player": dropper,
                "amount": None,
                "min": low,
                "fill": ["amount"],
            }
            return [(dropper, template)]
        return [
            (dropper, {"type": "bet", "player": dropper, "amount": a}) for a in range(low, cap + 1)
        ]
    if phase == "answer":
        return [
            (p, {"type": kind, "player": p})
            for p in state["pending"]
            for kind in ("match", "fall_out")
        ]
    if phase == "drop":
        return [(dropper, {"type": "drop", "style": s}) for s in flow.STYLES]
    if phase == "count" and settings["entry"] == "layout":
        return [(counter, {"type": "layout", **who, "sticks": None, "fill": ["sticks"]})]
    if phase == "count":
        actions = [(counter, {"type": "totals", **who, "points": None, "fill": ["points"]})]
        if not (state["stage"] == "round" and state["attempt"] == 2):
            actions.append((counter, {"type": "redo", **who}))
        return actions
    if phase == "confirm":
        return [
            (counter, {"type": "confirm", **who}),
            (
                counter,
                {"type": "override", **who, "points": None, "why": "", "fill": ["points", "why"]},
            ),
        ]
    return []


def _ban_templates(state: dict) -> list[Event]:
    if state["drops_thrown"]:
        return []
    voted = {b["owner"] for b in state["bans"]}
    return [
        {"type": "ban_vote", "owner": p, "votes": None, "fill": ["votes"]}
        for p in state["players"]
        if p not in voted
    ]


def _side_bet_templates(state: dict, bettor: str | None) -> list[Event]:
    settings = state["settings"]
    if not settings.get("side_pots") or state["over"]:
        return []
    thrown, rounds = state["thrown_rounds"], settings["rounds"]
    fill = ["guess", "stake"] if bettor else ["bettor", "guess", "stake"]
    base = {"type": "side_bet", "bettor": bettor, "guess": None, "stake": None, "fill": fill}
    templates = [
        {**base, "kind": k, "round": r}
        for k in sidebets.DROP_KINDS
        for r in range(1, rounds + 1)
        if r not in thrown
    ]
    if rounds not in thrown:
        templates += [{**base, "kind": k} for k in sidebets.SCORE_KINDS]
    return templates


def check_state(state: dict) -> None:
    """The invariants: money balances, stakes match the bets, totals are the drops' sum."""
    check_ledger(state["ledger"], state["over"])
    players = state["players"]
    assert sorted(state["active"] + state["fell_out"]) == sorted(players), "players lost"
    assert set(state["pending"]) <= set(state["active"]), "a player out of the game must answer"
    for p in players:
        assert state["stakes"][p] == paid_in(state["ledger"], p), f"{p}'s stake is off"
    staked = sum(r["bet"] * len(r["matched"]) for r in state["rounds"])
    if state["bet"] is not None:  # the round being played
        staked += state["bet"] * len(state["matched"])
    assert staked == sum(state["stakes"].values()), "the stakes differ from the bets matched"
    records = state["rounds"] + state["tiebreaks"]
    for p in players:
        total = sum(r["points"].get(p, 0) for r in records)
        assert state["totals"][p] == total, f"{p}'s total is not the sum of the drops"
    for record in records + state["openings"]:
        if record["layout"] is not None and record["override"] is None:
            assert record["points"] == _rescored(state, record), "points differ from the layout"
    assert state["over"] == bool(state["winners"]), "a finished game needs winners"
    if state["over"]:
        assert sum(state["payouts"].values()) <= sum(state["stakes"].values())


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
