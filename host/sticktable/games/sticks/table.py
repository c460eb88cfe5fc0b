"""Melds on the table: new melds, laying off, and which cards could still extend a meld.

Table melds are the JSON dicts of `laydown.Meld.to_json()` plus their "owner". A wild keeps
what it stood for when it was laid down (runs are static); lay-offs place new naturals at
their own positions, wilds fill gaps and then extend the high end, then the low end.
"""

from __future__ import annotations

import itertools

from .cards import colour_of, is_wild, positions, rank_at, rank_of, suit_of
from .laydown import Meld, solve, stands_for
from .stick_lists import Part


class MeldError(ValueError):
    """Why cards do not make or extend a meld, in a player's words."""


def standard_meld(cards: list[str], need_natural: bool) -> Meld:
    """A set or a run of 3+ cards (new melds and "No Discard" groups)."""
    if len(cards) < 3:
        raise MeldError("a meld needs at least 3 cards")
    for kind in ("set", "run"):
        melds = solve([Part(kind, len(cards))], cards, need_natural)
        if melds:
            return melds[0]
    extra = " with a natural card" if need_natural else ""
    raise MeldError(f"{' '.join(cards)} is neither a set nor a run{extra}")


def _line_slot(meld: dict, position: int) -> tuple:
    """The slot at `position` of a run (suit) or alternating run (colour)."""
    if meld["kind"] == "run":
        return rank_at(position), meld["suit"], None
    other = "black" if meld["colour"] == "red" else "red"
    colour = meld["colour"] if (position - meld["low"]) % 2 == 0 else other
    return rank_at(position), None, colour


def _fits_line(meld: dict, card: str, position: int) -> bool:
    rank, suit, colour = _line_slot(meld, position)
    if rank_of(card) != rank:
        return False
    if meld["kind"] == "run":
        return suit_of(card) == suit
    return rank != "2" and colour_of(suit_of(card)) == colour


def _extend_line(meld: dict, cards: list[str]) -> dict:
    # A 2 of the run's suit may be its natural 2 or a wild: try the natural reading first.
    twos = [c for c in cards if meld["kind"] == "run" and c == "2" + meld["suit"]]
    for n_twos in range(len(twos), -1, -1):
        naturals = [c for c in cards if not is_wild(c)] + twos[:n_twos]
        wilds = list(cards)
        for c in naturals:
            wilds.remove(c)
        placed = _place_on_line(meld, naturals, wilds)
        if placed:
            return placed
    raise MeldError(f"{' '.join(cards)} does not extend the run {' '.join(meld['as'])}")


def _place_on_line(meld: dict, naturals: list[str], wilds: list[str]) -> dict | None:
    low, high = meld["low"], meld["high"]
    for choice in itertools.product(
        *[[p for p in positions(rank_of(c)) if not low <= p <= high] for c in naturals]
    ):
        if len(set(choice)) != len(choice) or not all(
            _fits_line(meld, c, p) for c, p in zip(naturals, choice, strict=True)
        ):
            continue
        new_low, new_high = min([low, *choice]), max([high, *choice])
        gaps = [p for p in range(new_low, new_high + 1) if not low <= p <= high and p not in choice]
        spare = len(wilds) - len(gaps)
        if spare < 0:
            continue
        while spare and new_high < 14 and not (new_low == 1 and new_high == 13):
            new_high, spare = new_high + 1, spare - 1
            gaps.append(new_high)
        while spare and new_low > 1 and not (new_high == 14 and new_low == 2):
            new_low, spare = new_low - 1, spare - 1
            gaps.append(new_low)
        if spare or (new_low == 1 and new_high == 14):
            continue
        placed = {p: (c, c) for c, p in zip(naturals, choice, strict=True)}
        for p, w in zip(sorted(gaps), wilds, strict=True):
            placed[p] = (w, stands_for(_line_slot(meld, p)))
        for i, p in enumerate(range(low, high + 1)):
            placed[p] = (meld["cards"][i], meld["as"][i])
        order = range(new_low, new_high + 1)
        out = dict(
            meld,
            low=new_low,
            high=new_high,
            cards=[placed[p][0] for p in order],
            **{"as": [placed[p][1] for p in order]},
        )
        if meld["kind"] == "alternating_run":
            out["colour"] = _line_slot(meld, new_low)[2]
        return out
    return None


def extend(meld: dict, cards: list[str]) -> dict:
    """The meld with `cards` added, or MeldError saying why not."""
    if not cards:
        raise MeldError("lay off at least one card")
    if meld["closed"]:
        raise MeldError(f"{meld.get('part') or 'that meld'} is closed: nothing can be added")
    if meld["kind"] == "wild":
        tame = [c for c in cards if not is_wild(c)]
        if tame:
            raise MeldError(f"a wild-card meld takes only 2s and jokers, not {' '.join(tame)}")
        return dict(meld, cards=meld["cards"] + cards, **{"as": meld["as"] + ["wild"] * len(cards)})
    if meld["kind"] == "set":
        wrong = [c for c in cards if not is_wild(c) and rank_of(c) != meld["rank"]]
        if wrong:
            raise MeldError(f"{' '.join(wrong)} does not belong in a set of {meld['rank']}s")
        as_ = [meld["rank"] if is_wild(c) else c for c in cards]
        return dict(meld, cards=meld["cards"] + cards, **{"as": meld["as"] + as_})
    return _extend_line(meld, cards)


def extends_any(melds: list[dict], card: str) -> bool:
    """Could `card` alone be laid off on some meld on the table? (the discard limit)"""
    for meld in melds:
        try:
            extend(meld, [card])
        except MeldError:
            continue
        return True
    return False
