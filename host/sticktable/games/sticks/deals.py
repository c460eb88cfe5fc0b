"""Between turns: seating, stick draws, dealing, restocking, the end of a deal.

Chance outcomes (seat cards, stick draws, a deal's shuffle, a restock) arrive as events; in
referee mode the physical ones are entered by the table's referee.
"""

from __future__ import annotations

from collections import Counter

from sticktable.engine import RuleError

from .cards import HIGH_ORDER, is_wild, rank_of
from .state import SEVEN, card_of, clockwise_from_dealer, digital, listed, turn_player
from .stick_lists import get_stick

# ---- seating --------------------------------------------------------------------------


def on_seat_draw(state, event):
    cards = event.get("cards")
    if not isinstance(cards, dict) or set(cards) != set(state["seat_pending"]):
        raise RuleError(f"seat cards are drawn by {', '.join(state['seat_pending'])}")
    for player, card in cards.items():
        card = card_of(card)
        if card == "JK":
            raise RuleError("seats are drawn from a deck without jokers")
        state["seat_draws"][player].append(HIGH_ORDER[rank_of(card)])
    # Players who drew equal ranks draw again, until every player's sequence is different.
    seen = Counter(tuple(state["seat_draws"][p]) for p in state["players"])
    state["seat_pending"] = [p for p in state["players"] if seen[tuple(state["seat_draws"][p])] > 1]
    if not state["seat_pending"]:
        # Seats are taken in draw order, highest first; the highest card deals first.
        order = sorted(state["players"], key=lambda p: state["seat_draws"][p], reverse=True)
        _seat(state, order)


def on_seats(state, event):
    """Players seated as they sit (seat 0 first, clockwise: the ring order), and who deals
    first (default seat 0): for tables that skip the seat draw."""
    order = listed(event.get("order"))
    if order is None or sorted(order) != sorted(state["players"]):
        raise RuleError("seats: give every player once, clockwise")
    dealer = event.get("dealer", order[0])
    if dealer not in order:
        raise RuleError(f"the first dealer {dealer!r} is not at the table")
    _seat(state, list(order), order.index(dealer))


def _seat(state, order, dealer=0):
    state["seats"], state["dealer"], state["seat_pending"] = order, dealer, []
    start_stick_draws(state, failed=[])


# ---- sticks ---------------------------------------------------------------------------


def start_stick_draws(state, failed):
    others = [
        p for p in clockwise_from_dealer(state) if state["stick"][p] is None and p not in failed
    ]
    state["queue"] = [[p, True] for p in failed] + [[p, False] for p in others]
    state["phase"] = "sticks"
    settle_sticks(state)


def drawable(state, player) -> list[int]:
    """Stick numbers the player may draw now (all of the bag, unless only Frees are left for
    a player who already has six: a Free is never the seventh)."""
    at_six = len(state["completed"][player]) >= SEVEN - 1
    preset = state["settings"]["preset"]
    if at_six and all(get_stick(preset, n).kind == "free" for n in state["bag"]):
        return []
    return list(state["bag"])


def settle_sticks(state):
    """Move the stick queue on: return held-back sticks, skip players with nothing to draw."""
    while True:
        if state["held_back"] and not (state["queue"] and state["queue"][0][1]):
            state["bag"] = sorted(state["bag"] + state["held_back"])
            state["held_back"] = []
        if not state["queue"]:
            state["phase"] = "deal"
            return
        player = state["queue"][0][0]
        if drawable(state, player):
            return
        if state["held_back"]:
            state["bag"] = sorted(state["bag"] + state["held_back"])
            state["held_back"] = []
            continue
        state["queue"].pop(0)  # bag empty even with returned sticks: a deal without a stick


def on_stick(state, event):
    player, number = event.get("player"), event.get("stick")
    if not state["queue"] or state["queue"][0][0] != player:
        raise RuleError(f"it is {state['queue'][0][0]}'s turn to draw a stick")
    if not isinstance(number, int) or isinstance(number, bool) or number not in state["bag"]:
        raise RuleError(f"stick {number!r} is not in the bag")
    stick = get_stick(state["settings"]["preset"], number)
    state["bag"].remove(number)
    if stick.kind == "free":
        if len(state["completed"][player]) < SEVEN - 1:
            state["completed"][player].append(number)  # counts as completed; draw again
        else:
            state["bag"] = sorted(state["bag"] + [number])  # never the seventh: put back
    else:
        state["stick"][player] = number
        state["tries"][player] = 0
        state["queue"].pop(0)
    settle_sticks(state)


# ---- dealing --------------------------------------------------------------------------


def on_deal(state, event):
    if digital(state):
        order = event.get("order")
        if not isinstance(order, list) or Counter(order) != Counter(state["deck"]):
            raise RuleError("a deal's order must hold every card of the decks once")
        state["deck"], state["stock"] = [], list(order)
        hand_size = state["settings"]["hand_size"]
        for _ in range(hand_size):
            for player in clockwise_from_dealer(state):
                state["hands"][player].append(state["stock"].pop())
        state["discard"] = [state["stock"].pop()]
    state["deal_no"] += 1
    state["turn"] = (state["dealer"] + 1) % len(state["seats"])
    state["turns"] = 0
    state["out"] = None
    state["sevens"] = []
    state["deal_end"] = None
    state["down"] = {p: False for p in state["players"]}
    begin_turn(state)
    flipped = state["discard"][-1] if state["discard"] else None
    if flipped and is_wild(flipped) and state["settings"]["flipped_wild"] == "starter_takes":
        # "tries": a flipped 2 or joker goes into the first player's hand as their draw.
        state["hands"][turn_player(state)].append(state["discard"].pop())
        state["took"] = None
        state["phase"] = "play"


def begin_turn(state):
    state["took"] = None
    # Referee mode does not see draws: the turn is one "play" phase ended by "done".
    state["phase"] = "draw" if digital(state) else "play"
    if digital(state) and not state["stock"]:
        if len(state["discard"]) >= 2:
            state["phase"] = "restock"
        else:
            end_deal(state, "no cards left to draw")


def on_restock(state, event):
    order = event.get("order")
    if not isinstance(order, list) or Counter(order) != Counter(state["discard"][:-1]):
        raise RuleError("a restock shuffles every discard but the top card")
    state["stock"], state["discard"] = list(order), state["discard"][-1:]
    state["phase"] = "draw"


def end_turn(state):
    state["turns"] += 1
    if digital(state) and state["turns"] >= state["settings"]["max_turns"]:
        end_deal(state, "turn limit reached")
        return
    state["turn"] = (state["turn"] + 1) % len(state["seats"])
    begin_turn(state)


# ---- end of a deal --------------------------------------------------------------------


def end_deal(state, why, out=None):
    state["out"], state["deal_end"] = out, why
    if state["sevens"]:
        # "classic": several sevens -> the one who went out, else the first to complete.
        winner = out if out in state["sevens"] else state["sevens"][0]
        state["winners"], state["phase"] = [winner], "over"
        return
    failed = []
    for player in clockwise_from_dealer(state):
        number = state["stick"][player]
        if number is None or state["down"][player] or not state["settings"]["tries"]:
            continue
        state["tries"][player] += 1
        if state["tries"][player] >= state["settings"]["tries"]:
            # Shown, set aside while the failed players redraw, then back in the bag.
            state["revealed"].append({"player": player, "stick": number, "deal": state["deal_no"]})
            state["held_back"].append(number)
            state["stick"][player] = None
            state["tries"][player] = 0
            failed.append(player)
    if digital(state):
        table = [c for m in state["melds"] for c in m["cards"]]
        hands = [c for p in state["players"] for c in state["hands"][p]]
        state["deck"] = sorted(state["stock"] + state["discard"] + table + hands)
        state["stock"], state["discard"] = [], []
        state["hands"] = {p: [] for p in state["players"]}
    state["melds"], state["turn"], state["took"] = [], None, None
    state["dealer"] = (state["dealer"] + 1) % len(state["seats"])
    start_stick_draws(state, failed)
