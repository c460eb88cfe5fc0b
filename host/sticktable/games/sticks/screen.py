"""Sticks at a shared screen (hot-seat play from `sticktable run`): what lies on the table for
everyone, and what only the player whose turn it is may see when they ask: their hand, their
stick, the lay-down checker's explanation and their legal moves, each as the command to type
(see keys.py).
"""

from __future__ import annotations

from .cards import JOKER, RANKS, SUITS, is_wild, rank_of, suit_of
from .laydown import find
from .state import digital, need_natural, turn_player
from .stick_lists import get_stick
from .views import HINT_BUDGET, legal_actions

EXPLAIN_BUDGET = 5000  # search nodes for each step of "what the hand holds": an explanation

KIND_WORDS = {
    "set": "set",
    "run": "run",
    "alternating_run": "alternating run",
    "cards": "exact cards",
    "one_suit": "one suit",
    "wild": "wilds",
}


def hot_seat(state) -> tuple[str, object] | None:
    """Whose hand the screen may show now, and which turn this is (digital mode only: in
    referee mode the cards are real and in the players' hands)."""
    if not digital(state) or state["phase"] not in ("draw", "play"):
        return None
    return turn_player(state), (state["deal_no"], state["turns"])


def public_lines(state) -> list[str]:
    """The table: stock, discard pile, melds, and each player's cards and sticks."""
    if state["phase"] in ("seating", "over") or state["deal_no"] == 0:
        return []
    lines = []
    if digital(state):
        top = state["discard"][-1] if state["discard"] else "empty"
        under = max(len(state["discard"]) - 1, 0)
        lines.append(f"table: stock {len(state['stock'])}, discard {top} ({under} under it)")
    preset = state["settings"]["preset"]
    for shown in state["revealed"]:  # "tries": sticks given up at the end of the last deal
        if shown["deal"] == state["deal_no"] - 1:
            text = get_stick(preset, shown["stick"]).text
            lines.append(
                f"  {shown['player']} failed stick {shown['stick']} ({text}) too often: "
                "shown, and back in the bag"
            )
    for index, meld in enumerate(state["melds"]):
        lines.append(f"  meld {index} ({meld['owner']}, {_meld_kind(meld)}): {_meld_cards(meld)}")
    for player in state["seats"] or state["players"]:
        parts = [f"{len(state['hands'][player])} cards"] if digital(state) else []
        done = len(state["completed"][player])
        parts.append(f"{done} stick{'' if done == 1 else 's'} done")
        if state["down"][player]:
            parts.append("stick down this deal")
        lines.append(f"  {player}: {', '.join(parts)}")
    return lines


def private_lines(state, player: str) -> list[str]:
    """What only `player` may see: hand, stick, the checker's explanation, legal moves."""
    hand = state["hands"][player] if digital(state) else []
    lines = [f"{player}'s hand ({len(hand)}): {' '.join(sort_hand(hand))}"]
    lines += _stick_lines(state, player)
    moves = legal_actions(state, player)
    if moves:
        lines.append("your moves (type one):")
        lines += [f"  {move}" for move in _commands(state, moves)]
    lines.append("Enter hides your hand")
    return lines


def sort_hand(cards: list[str]) -> list[str]:
    """By suit, then rank (ace low); wilds last, as a player fans them."""
    order = {rank: i for i, rank in enumerate(RANKS)}
    return sorted(
        cards,
        key=lambda c: (is_wild(c), c == JOKER, SUITS.index(suit_of(c)) if c != JOKER else 0,
                       order.get(rank_of(c) or "", 0)),
    )  # fmt: skip


def _stick_lines(state, player) -> list[str]:
    number = state["stick"][player]
    if state["down"][player]:
        return ["your stick is down this deal: meld, lay off, then discard"]
    if number is None:
        return ["no stick this deal (the bag had none left for you)"]
    preset = state["settings"]["preset"]
    stick = get_stick(preset, number)
    lines = [f"your stick {number}: {stick.text}"]
    limit = state["settings"]["tries"]
    if limit:
        lines.append(
            f"  tries: {state['tries'][player]} of {limit} deals failed with it "
            f"(after {limit} it is shown and goes back to the bag)"
        )
    if stick.kind == "no_discard":
        lines.append(f"  lay down at least {stick.min_cards} cards in sets and runs at once")
        return lines
    lines.append(f"  it asks for {stick.describe()}")
    hand, natural = state["hands"][player], need_natural(state)
    when = "now" if state["phase"] == "play" else "after your draw"
    melds = find(stick.parts, hand, natural, HINT_BUDGET)
    if melds:
        lines.append(f"  checker: your hand makes it, you can lay it down {when}:")
        lines += [f"    {m.part.describe()}: {_meld_cards(m.to_json())}" for m in melds]
        return lines
    lines.append("  checker: not in your hand yet")
    made, melds = [], []  # the parts the hand makes together, from different cards
    for part in stick.parts:
        budget = HINT_BUDGET if len(made) + 1 == len(stick.parts) else EXPLAIN_BUDGET
        found = find([*made, part], hand, natural, budget)
        if found:
            made, melds = [*made, part], found
    lines += [f"    you hold {m.part.describe()}: {_meld_cards(m.to_json())}" for m in melds]
    missing = list(stick.parts)
    for part in made:
        missing.remove(part)
    lines += [f"    missing: {part.describe()}" for part in missing]
    return lines


def _commands(state, moves: list[dict]) -> list[str]:
    """Each legal move as the short command that plays it; discards on one line."""
    out, discards = [], []
    for move in moves:
        kind = move["type"]
        if kind == "discard":
            discards.append(move["card"])
        elif kind == "draw":
            top = state["discard"][-1] if state["discard"] else ""
            took = "" if move["from"] == "stock" else f"   (takes {top}, the top of the pile)"
            out.append(f"draw {move['from']}{took}")
        elif kind == "laydown" and "melds" in move:
            out.append("laydown " + "/".join(",".join(group) for group in move["melds"]))
        elif kind in ("laydown", "meld"):
            out.append(f"{kind} {','.join(move['cards'])}")
        elif kind == "layoff":
            out.append(f"layoff {move['meld']} {','.join(move['cards'])}")
        elif kind == "steal":
            then = move["then"]
            play = (
                f"meld {','.join(then['cards'])}"
                if then["type"] == "meld"
                else f"layoff {then['meld']} {','.join(then['cards'])}"
            )
            out.append(f"steal {move['meld']} {move['give']} {move['wild']} {play}")
        else:
            out.append(kind)
    if discards:
        cards = " ".join(sort_hand(discards))
        out.append(f"discard CARD   (the turn ends), CARD one of: {cards}")
    return out


def _meld_kind(meld: dict) -> str:
    kind = KIND_WORDS.get(meld["kind"], meld["kind"])
    if meld.get("rank"):
        return f"{kind} of {meld['rank']}s"
    return kind


def _meld_cards(meld: dict) -> str:
    """`5C 5D JK=5`: each card, a wild with what it stands for."""
    return " ".join(
        card if card == stands or not is_wild(card) else f"{card}={stands}"
        for card, stands in zip(meld["cards"], meld["as"], strict=True)
    )
