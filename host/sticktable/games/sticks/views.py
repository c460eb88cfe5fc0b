"""What each party may see and do: views, legal actions, ring display, chance, exports.

Hidden information (ruling 10): hands, face-down sticks and the stock order. A player's view
and a player's export of the log show only their own hand and stick; nobody's view shows the
stock order, which lives only in the raw log's deal/restock events.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from sticktable.engine import Display, Standings, effective_log, get_rules, require

from . import game
from .cards import RANKS, SUITS, full_deck, is_wild, rank_of
from .laydown import find
from .stick_lists import Part, bag_contents, get_stick
from .table import MeldError, extend

HINT_BUDGET = 20_000  # search nodes for a suggested lay-down: a hint, never a verdict


def seats(state) -> list[str]:
    return state["seats"] or state["players"]


def view(state, player=None) -> dict:
    preset = state["settings"]["preset"]
    digital = game.digital(state)
    out = {
        "game": "sticks",
        "preset": preset,
        "mode": state["settings"]["mode"],
        "phase": state["phase"],
        "deal": state["deal_no"],
        "seats": list(seats(state)),
        "dealer": None if state["dealer"] is None else state["seats"][state["dealer"]],
        "turn": game.turn_player(state),
        "you": player,
        "players": {
            p: {
                "cards": len(state["hands"][p]) if digital else None,
                "has_stick": state["stick"][p] is not None,
                "completed": list(state["completed"][p]),
                "tries": state["tries"][p],
                "down": state["down"][p],
            }
            for p in state["players"]
        },
        "seat_draws": copy.deepcopy(state["seat_draws"]),
        "melds": copy.deepcopy(state["melds"]),
        "discard": list(state["discard"]),
        "stock": len(state["stock"]),
        "bag": len(state["bag"]),
        "took": state["took"],
        "revealed": copy.deepcopy(state["revealed"]),
        "out": state["out"],
        "deal_end": state["deal_end"],
        "winners": list(state["winners"]),
    }
    if player in state["players"]:
        number = state["stick"][player]
        out["stick"] = (
            None if number is None else {"number": number, "text": get_stick(preset, number).text}
        )
        out["hand"] = sorted(state["hands"][player]) if digital else None
        out["legal"] = legal_actions(state, player)
    return out


def legal_actions(state, player=None) -> list[dict]:
    """Events `player` may add now. Lay-downs, new melds and steals are what the finder found
    (any other correct one is accepted too)."""
    phase = state["phase"]
    digital = game.digital(state)
    if phase == "over":
        return []
    if phase == "seating" and not digital:
        order = state["players"]
        return [{"type": "seats", "order": list(order), "dealer": d} for d in order]
    if phase == "sticks" and not digital:
        head = state["queue"][0][0]
        if player in (None, head):
            return [
                {"type": "stick", "player": head, "stick": n}
                for n in sorted(set(game.drawable(state, head)))
            ]
        return []
    if phase == "deal" and not digital:
        return [{"type": "deal"}]
    if phase not in ("draw", "play"):
        return []
    current = game.turn_player(state)
    if player not in (None, current):
        return []
    if phase == "draw":
        sources = (["stock"] if state["stock"] else []) + (["discard"] if state["discard"] else [])
        return [{"type": "draw", "player": current, "from": s} for s in sources]
    if not digital:
        return [{"type": "done", "player": current}, {"type": "out", "player": current}]
    actions = []
    hand = state["hands"][current]
    need = game.need_natural(state)
    if not state["down"][current]:
        number = state["stick"][current]
        stick = None if number is None else get_stick(state["settings"]["preset"], number)
        if stick is not None and stick.kind == "laydown":
            melds = find(stick.parts, hand, need, HINT_BUDGET)
            if melds:
                actions.append(
                    {
                        "type": "laydown",
                        "player": current,
                        "cards": [c for m in melds for c in m.cards],
                    }
                )
        elif stick is not None and stick.kind == "no_discard":
            groups = _no_discard_hint(hand, need)
            if sum(map(len, groups)) >= stick.min_cards:
                actions.append({"type": "laydown", "player": current, "melds": groups})
    else:
        for kind in ("set", "run"):
            melds = find([Part(kind, 3)], hand, need, HINT_BUDGET)
            if melds:
                actions.append({"type": "meld", "player": current, "cards": melds[0].cards})
        for index, meld in enumerate(state["melds"]):
            for card in sorted(set(hand)):
                if is_wild(card) and meld["owner"] != current:
                    continue
                try:
                    extend(meld, [card])
                except MeldError:
                    continue
                actions.append(
                    {"type": "layoff", "player": current, "meld": index, "cards": [card]}
                )
        if state["settings"]["steal_wilds"]:
            actions += _steals(state, current)
    actions += [
        {"type": "discard", "player": current, "card": c}
        for c in game.legal_discards(state, current)
    ]
    return actions


def _steals(state, player) -> list[dict]:
    """Wild steals ("tries"): a natural for a set's wild, the wild laid off on one of the
    player's melds or in a new meld with cards from the hand."""
    hand, need = state["hands"][player], game.need_natural(state)
    found = []
    for index, meld in enumerate(state["melds"]):
        if meld["kind"] != "set":
            continue
        gives = sorted({c for c in hand if not is_wild(c) and rank_of(c) == meld["rank"]})
        wilds = sorted({c for c in meld["cards"] if is_wild(c)})
        for give, wild in ((g, w) for g in gives for w in wilds):
            steal = {"type": "steal", "player": player, "meld": index, "give": give, "wild": wild}
            rest = list(hand)
            rest.remove(give)
            thens = [
                {"type": "layoff", "player": player, "meld": j, "cards": [wild]}
                for j, other in enumerate(state["melds"])
                if other["owner"] == player
            ]
            for kind in ("set", "run"):
                melds = find([Part(kind, 3)], [*rest, wild], need, HINT_BUDGET)
                if melds and wild in melds[0].cards:
                    thens.append({"type": "meld", "player": player, "cards": melds[0].cards})
            found += [{**steal, "then": then} for then in thens]
    rules = get_rules("sticks")
    return [event for event in found if rules.is_legal(state, event)]


def _no_discard_hint(hand: list[str], need_natural: bool) -> list[list[str]]:
    """Greedy: peel 3-card sets and runs off the hand, then lay the rest off on them
    (a hint: it may miss a split that exists)."""
    hand, melds = list(hand), []
    while True:
        found = None
        for kind in ("set", "run"):
            found = find([Part(kind, 3)], hand, need_natural, 5000)
            if found:
                break
        if not found:
            break
        melds.append(found[0].to_json())
        for card in found[0].cards:
            hand.remove(card)
    grown = True
    while grown:
        grown = False
        for card in sorted(set(hand)):
            for i, meld in enumerate(melds):
                try:
                    melds[i] = extend(meld, [card])
                except MeldError:
                    continue
                hand.remove(card)
                grown = True
                break
    return [m["cards"] for m in melds]


def display(state) -> Display:
    order = seats(state)
    phase = state["phase"]
    mode = "over" if phase == "over" else "play" if phase in ("draw", "play", "restock") else "idle"
    return Display(
        scores=tuple(len(state["completed"][p]) for p in order),
        scale=game.SEVEN,
        turn=state["turn"] if mode == "play" else None,
        mode=mode,
        win=tuple(order.index(p) for p in state["winners"]),
        marks=tuple(int(state["down"][p]) for p in order),
        names=tuple(order),
    )


def chance(state, rng: random.Random):
    """The pending chance outcome as an event (digital mode; the referee enters physical ones)."""
    if not game.digital(state):
        return None
    phase = state["phase"]
    if phase == "seating":
        one_deck = [r + s for s in SUITS for r in RANKS]
        drawn = rng.sample(one_deck, len(state["seat_pending"]))
        return {"type": "seat_draw", "cards": dict(zip(state["seat_pending"], drawn, strict=True))}
    if phase == "sticks":
        head = state["queue"][0][0]
        return {"type": "stick", "player": head, "stick": rng.choice(game.drawable(state, head))}
    if phase == "deal":
        order = list(state["deck"])
        rng.shuffle(order)
        return {"type": "deal", "order": order}
    if phase == "restock":
        order = state["discard"][:-1]
        rng.shuffle(order)
        return {"type": "restock", "order": order}
    return None


def interpret(state, fact: dict) -> list[dict]:
    """No sensor means anything in Sticks, except in referee mode the turn player's seat
    button (short press): "my turn is done"."""
    if (
        isinstance(fact, dict)
        and fact.get("k") == "button"
        and not fact.get("long")
        and state["phase"] == "play"
        and not game.digital(state)
        and fact.get("seat") == state["turn"]
    ):
        return [{"type": "done", "player": game.turn_player(state)}]
    return []


@dataclass(frozen=True)
class SticksStandings(Standings):
    deal: int = 0  # the deal being played (or the last one)
    completed: Mapping[str, list[int]] = field(default_factory=dict)  # each player's sticks


def standings(state) -> SticksStandings:
    """A player's total is how many sticks they completed (seven wins)."""
    return SticksStandings(
        finished=state["phase"] == "over",
        totals={p: len(state["completed"][p]) for p in state["players"]},
        winners=list(state["winners"]),
        deal=state["deal_no"],
        completed={p: list(state["completed"][p]) for p in state["players"]},
    )


def check(state) -> None:
    """Conservation: every card and every stick is in exactly one place."""
    sticks = (
        state["bag"]
        + state["held_back"]
        + [n for p in state["players"] for n in state["completed"][p]]
        + [n for n in state["stick"].values() if n is not None]
    )
    require(Counter(sticks) == Counter(bag_contents(state["settings"]["preset"])), "sticks lost")
    if game.digital(state):
        cards = (
            state["deck"]
            + state["stock"]
            + state["discard"]
            + [c for m in state["melds"] for c in m["cards"]]
            + [c for p in state["players"] for c in state["hands"][p]]
        )
        require(Counter(cards) == Counter(full_deck(state["settings"]["decks"])), "cards lost")
    require(len(state["winners"]) <= 1, "more than one winner")


# Keys an event of a hidden kind may show anyone (any other key might carry a secret a client
# wrote into the event, such as a drawn card: the rules ignore it, the export drops it).
METADATA = ("type", "player", "src", "seq", "t")
PUBLIC_KEYS = {"deal": METADATA, "draw": (*METADATA, "from"), "stick": METADATA}


def export_log(header: dict, events: list[dict], player: str | None) -> list[dict]:
    """The effective log as `player` (None: a spectator) may see it: no stock order, no other
    player's cards or face-down stick; a player's own dealt and drawn cards are added."""
    rules = get_rules("sticks")
    state = rules.initial(header)
    out = []
    for event in effective_log(events):
        before = state
        state = rules.apply(copy.deepcopy(state), event)
        kind = event.get("type")
        if kind == "restock":
            out.append({"type": "restock", "count": len(event.get("order", []))})
            continue
        keys = PUBLIC_KEYS.get(kind)
        seen = dict(event) if keys is None else {k: v for k, v in event.items() if k in keys}
        if kind == "deal" and player in state["players"] and game.digital(state):
            seen["hand"] = sorted(state["hands"][player])
        elif kind == "draw" and event.get("player") == player and event.get("from") == "stock":
            seen["card"] = state["hands"][player][-1]
        elif kind == "stick":
            free = get_stick(before["settings"]["preset"], event["stick"]).kind == "free"
            if free or event.get("player") == player:
                seen["stick"] = event["stick"]
        out.append(seen)
    return out
