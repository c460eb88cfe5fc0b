"""Lay-down validation: do these cards, every one of them, make exactly what a stick asks for?

Search with pruning. Natural cards are placed one at a time, most constrained first, either
into a free slot of a meld already begun or by beginning a not-yet-begun part with a shape
(suit, start, rank) that has a slot for the card. Wild cards fill whatever slots are left at
the end, so their count never branches the search. A 2 is tried as the natural 2 of a same-suit
run and as a wild. Failed states are remembered, identical parts are begun in order only.

`find=True` turns the same search into a finder (a bot or a hint asks "can I lay this stick
down from my hand?"): naturals may then be left out and not every wild need be used.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache, lru_cache

from .cards import (
    JOKER,
    RANKS,
    SUIT_NAMES,
    SUITS,
    colour_of,
    is_wild,
    positions,
    rank_at,
    rank_of,
    suit_of,
)
from .stick_lists import CLOSED_KINDS, Part, Stick

WILD_SLOT = ("*", None, None)
SET_RANKS = tuple(r for r in RANKS if r != "2")  # a set of 2s would be a set of wilds
RELAXATIONS = ("distinct", "natural", "wrap", "colours")  # rules dropped to explain a failure


@dataclass(frozen=True)
class Shape:
    """One concrete way to make a part: its slots (rank, suit, colour) and what it is."""

    kind: str
    slots: tuple
    suit: str | None = None
    low: int | None = None
    rank: str | None = None
    colour: str | None = None  # alternating run: colour of its lowest card


def _lows(size: int, wrap: bool) -> list[list[int]]:
    """Positions of every run of `size`: ace low or high, never both, no wrap (unless relaxed)."""
    if wrap:
        return [[(start + i) % 13 + 1 for i in range(size)] for start in range(13)]
    return [
        list(range(low, low + size))
        for low in range(1, 16 - size)
        if not (low == 1 and low + size - 1 == 14)
    ]


@cache
def shapes(part: Part, relax: frozenset = frozenset()) -> tuple[Shape, ...]:
    kind, size = part.kind, part.size
    if kind == "alternating_run" and "colours" in relax:
        return tuple(
            Shape(kind, tuple((rank_at(p), None, None) for p in ps), low=ps[0])
            for ps in _lows(size, "wrap" in relax)
        )
    if kind == "run":
        suits = [part.suit] if part.suit else list(SUITS)
        runs = (
            [list(range(part.low, part.low + size))]
            if part.low is not None
            else _lows(size, "wrap" in relax)
        )
        return tuple(
            Shape("run", tuple((rank_at(p), s, None) for p in ps), s, ps[0])
            for s in suits
            for ps in runs
        )
    if kind == "alternating_run":
        out = []
        for ps in _lows(size, "wrap" in relax):
            for first in ("red", "black"):
                other = "black" if first == "red" else "red"
                slots = tuple(
                    (rank_at(p), None, first if i % 2 == 0 else other) for i, p in enumerate(ps)
                )
                out.append(Shape(kind, slots, low=ps[0], colour=first))
        return tuple(out)
    if kind == "set":
        ranks = [part.rank] if part.rank else SET_RANKS
        return tuple(Shape(kind, ((r, None, None),) * size, rank=r) for r in ranks)
    if kind == "cards":
        return (Shape(kind, tuple((rank_of(c), suit_of(c), None) for c in part.cards)),)
    if kind == "one_suit":
        return tuple(Shape(kind, ((None, s, None),) * size, suit=s) for s in SUITS)
    return (Shape("wild", (WILD_SLOT,) * size),)


def fits(card: str, slot: tuple, kind: str) -> bool:
    """Can natural `card` fill `slot` of a meld of `kind`? (2s only as a same-suit run's 2.)"""
    rank, suit, colour = slot
    if card == JOKER or rank == "*":
        return False
    card_rank, card_suit = rank_of(card), suit_of(card)
    if card_rank == "2":
        return kind == "run" and rank == "2" and suit == card_suit
    return (
        (rank is None or rank == card_rank)
        and (suit is None or suit == card_suit)
        and (colour is None or colour == colour_of(card_suit))
    )


def stands_for(slot: tuple) -> str:
    rank, suit, colour = slot
    if rank == "*":
        return "wild"
    if colour:
        return f"{rank} {colour}"
    return f"{rank}{suit}" if suit else rank


@dataclass
class Meld:
    """A meld as laid down: its cards, what each card counts as, and its shape."""

    part: Part | None
    shape: Shape
    cards: list
    as_: list

    def to_json(self) -> dict:
        """JSON-safe form kept in the game state (table melds) and printed by the checker."""
        s = self.shape
        out = {
            "kind": s.kind,
            "cards": list(self.cards),
            "as": list(self.as_),
            "closed": s.kind in CLOSED_KINDS,
        }
        if s.kind in ("run", "alternating_run"):
            out["low"], out["high"] = s.low, s.low + len(self.cards) - 1
        if s.suit and s.kind != "cards":
            out["suit"] = s.suit
        if s.rank:
            out["rank"] = s.rank
        if s.colour:
            out["colour"] = s.colour
        if self.part is not None:
            out["part"] = self.part.describe()
        return out


class _Search:
    def __init__(self, parts, cards, need_natural, find, relax, budget):
        self.parts = list(parts)
        self.need_natural = need_natural and "natural" not in relax
        self.find, self.relax, self.budget = find, relax, budget
        self.shapes = [shapes(p, relax) for p in self.parts]
        self.twin = [
            next((i for i in range(j) if self.parts[i] == self.parts[j]), j)
            for j in range(len(self.parts))
        ]
        self.jokers = [c for c in cards if c == JOKER]
        naturals = [c for c in cards if not is_wild(c)]
        self.twos = [c for c in cards if c != JOKER and rank_of(c) == "2"]
        # homes[card][j]: {shape index: slot indices the card fits} for part j.
        self.homes = {
            c: [self._homes(c, j) for j in range(len(self.parts))]
            for c in set(naturals + self.twos)
        }
        count = {c: sum(len(h) for h in self.homes[c]) for c in self.homes}
        self.unplaceable = sorted(c for c in set(naturals) if count[c] == 0)
        # Most constrained first: cards with the fewest possible homes.
        self.items = sorted(naturals, key=lambda c: (count[c], c)) + sorted(self.twos)
        self.open: list = [None] * len(self.parts)  # [shape index, filled slots] once begun
        self.twos_wild: list = []
        self.failed: set = set()
        self.nodes = 0

    def _homes(self, card, j):
        out = {}
        for si, shape in enumerate(self.shapes[j]):
            ks = tuple(k for k, slot in enumerate(shape.slots) if fits(card, slot, shape.kind))
            if ks:
                out[si] = ks
        return out

    def _shape(self, j):
        return self.shapes[j][self.open[j][0]]

    def _ranks_taken(self, j):
        if "distinct" in self.relax:
            return set()
        taken = set()
        for i, part in enumerate(self.parts):
            if i == j or part.kind != "set":
                continue
            if self.open[i] is not None:
                taken.add(self._shape(i).rank)
            elif part.rank:
                taken.add(part.rank)
        return taken

    def _options(self, card):
        seen_open = set()
        homes = self.homes[card]
        for j, part in enumerate(self.parts):
            entry = self.open[j]
            if entry is not None:
                si, filled = entry
                key = (self.twin[j], si, tuple(filled))
                if key in seen_open:
                    continue
                seen_open.add(key)
                k = next((k for k in homes[j].get(si, ()) if filled[k] is None), None)
                if k is not None:
                    yield j, None, k
                continue
            if self.twin[j] != j and self.open[self.twin[j]] is None:
                continue  # begin identical parts in order: no mirrored search
            taken = self._ranks_taken(j) if part.kind == "set" else ()
            for si, ks in homes[j].items():
                if self.shapes[j][si].rank not in taken:
                    yield j, si, ks[0]

    def _hopeless(self, i):
        """True when the cards left cannot supply the naturals some parts still need, or
        cannot fill the slots still free."""
        need = free = 0
        for j, part in enumerate(self.parts):
            entry = self.open[j]
            if entry is None:
                free += part.size
                if part.kind == "one_suit":
                    need += part.size
                elif self.need_natural and part.kind != "wild":
                    need += 1
            else:
                empty = entry[1].count(None)
                free += empty
                if part.kind == "one_suit":
                    need += empty
        left = len(self.items) - i
        return need > left or free > left + len(self.jokers) + len(self.twos_wild)

    def _key(self, i):
        state = sorted(
            (self.twin[j], -1, ())
            if e is None
            else (self.twin[j], e[0], tuple(c or "" for c in e[1]))
            for j, e in enumerate(self.open)
        )
        return i, len(self.twos_wild), tuple(state)

    def run(self, i=0):
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        if i == len(self.items):
            return self._finish()
        key = self._key(i)
        if key in self.failed:
            return None
        card = self.items[i]
        for j, si, k in list(self._options(card)):
            if si is not None:
                self.open[j] = [si, [None] * self.parts[j].size]
            self.open[j][1][k] = card
            if not self._hopeless(i + 1):
                found = self.run(i + 1)
                if found:
                    return found
            self.open[j][1][k] = None
            if si is not None:
                self.open[j] = None
        if rank_of(card) == "2":
            self.twos_wild.append(card)
            found = None if self._hopeless(i + 1) else self.run(i + 1)
            self.twos_wild.pop()
            if found:
                return found
        elif self.find and not self._hopeless(i + 1):
            found = self.run(i + 1)
            if found:
                return found
        self.failed.add(key)
        return None

    def _finish(self):
        wilds = self.jokers + self.twos_wild
        chosen = []
        taken = {
            self._shape(j).rank
            for j, e in enumerate(self.open)
            if e is not None and self.parts[j].kind == "set"
        }
        for j, part in enumerate(self.parts):
            entry = self.open[j]
            if entry is not None:
                if part.kind == "one_suit" and None in entry[1]:
                    return None
                chosen.append((self._shape(j), entry[1]))
                continue
            if part.kind == "one_suit" or (self.need_natural and part.kind != "wild"):
                return None
            shape = next(
                (
                    s
                    for s in self.shapes[j]
                    if s.rank is None or "distinct" in self.relax or s.rank not in taken
                ),
                None,
            )
            if shape is None:
                return None
            taken.add(shape.rank)
            chosen.append((shape, [None] * len(shape.slots)))
        free = sum(f.count(None) for _, f in chosen)
        if free > len(wilds) or (not self.find and free != len(wilds)):
            return None
        wild_iter = iter(wilds)
        melds = []
        for j, (shape, filled) in enumerate(chosen):
            cards = [c if c is not None else next(wild_iter) for c in filled]
            as_ = [c if c is not None else stands_for(shape.slots[k]) for k, c in enumerate(filled)]
            melds.append(Meld(self.parts[j], shape, cards, as_))
        return melds


class _OutOfBudget(Exception):
    pass


def solve(parts, cards, need_natural=False, find=False, relax=frozenset(), budget=2_000_000):
    """Melds (one per part, in part order) using exactly `cards`, or None.

    With `find`, any sub-multiset of `cards` may be used; None also when the budget runs out.
    """
    search = _Search(parts, cards, need_natural, find, frozenset(relax), budget)
    if not find and search.unplaceable:
        return None
    try:
        return search.run()
    except _OutOfBudget:
        return None


@lru_cache(maxsize=4096)
def _found(parts: tuple, cards: tuple, need_natural: bool, budget: int) -> tuple | None:
    melds = solve(parts, list(cards), need_natural, find=True, budget=budget)
    return tuple(melds) if melds else None


def find(parts, cards, need_natural: bool, budget: int) -> list[Meld] | None:
    """`solve(..., find=True)` remembered: what a hand makes is asked again and again for the
    same hand (the legal moves, the checker's explanation on a hot-seat screen, the screen
    drawn again), and a search that finds nothing costs its whole budget each time."""
    melds = _found(tuple(parts), tuple(sorted(cards)), need_natural, budget)
    return list(melds) if melds else None


def _why_not(stick: Stick, cards: list[str], need_natural: bool) -> str:
    parts, what = stick.parts, stick.describe()
    if len(cards) != stick.size:
        return (
            f"stick {stick.number} ({stick.text}) needs exactly {stick.size} cards "
            f"({what}), not {len(cards)}"
        )
    wilds = [c for c in cards if is_wild(c)]
    if any(p.kind == "one_suit" for p in parts) and wilds:
        return f"{stick.text} takes natural cards only, no 2s or jokers: {' '.join(wilds)}"
    if all(p.kind == "wild" for p in parts):
        tame = [c for c in cards if not is_wild(c)]
        return f"{stick.text} takes only wild cards (2s and jokers), not {' '.join(tame)}"
    search = _Search(parts, cards, need_natural, False, frozenset(), 1)
    if search.unplaceable:
        return f"{' '.join(search.unplaceable)} fits nowhere in {what}"
    melds_needing = sum(1 for p in parts if p.kind != "wild")
    naturals = [c for c in cards if c != JOKER and not is_wild(c)]
    if need_natural and len(naturals) + len(search.twos) < melds_needing:
        return (
            f"in 'tries' every meld needs at least one natural card: {melds_needing} melds "
            f"but only {len(naturals)} natural card{'s' if len(naturals) != 1 else ''}"
        )
    reasons = {
        "distinct": "the sets of one stick must be of different ranks",
        "natural": "in 'tries' every meld needs at least one natural card (a 2 is natural only "
        "as the 2 of a same-suit run)",
        "wrap": "a run cannot go round the corner (King, Ace, 2): the ace is high or low",
        "colours": "the colours must alternate red, black, red... along the run",
    }
    for flag in RELAXATIONS:
        if flag == "natural" and not need_natural:
            continue
        if solve(parts, cards, need_natural, relax={flag}, budget=200_000):
            return reasons[flag]
    if len(parts) == 1:
        why = _why_not_one(parts[0], cards)
        if why:
            return why
    return f"these cards do not split into {what}"


def _why_not_one(part: Part, cards: list[str]) -> str | None:
    """A specific reason for a one-meld stick, when one of these plainly applies."""
    tame = [c for c in cards if not is_wild(c)]
    if part.kind == "set":
        ranks = sorted({rank_of(c) for c in tame}, key=RANKS.index)
        if len(ranks) > 1:
            return f"a set is all one rank, these are {', '.join(ranks)}"
    if part.kind not in ("run", "alternating_run"):
        return None
    suits = sorted({suit_of(c) for c in tame})
    if part.kind == "run" and len(suits) > 1:
        return f"a run is all one suit, these are {', '.join(SUIT_NAMES[s] for s in suits)}"
    ranks = [rank_of(c) for c in tame]
    twice = sorted({r for r in ranks if ranks.count(r) > 1}, key=RANKS.index)
    if twice:
        return f"a run holds each rank once, not two {twice[0]}s"
    spans = [max(ps) - min(ps) + 1 for ps in itertools.product(*(positions(r) for r in ranks))]
    if spans and min(spans) > part.size:
        return f"these cards span {min(spans)} ranks, more than a run of {part.size}"
    return None


def lay_down(stick: Stick, cards: list[str], need_natural: bool):
    """(melds, None) when `cards` are exactly a lay-down of `stick`, else (None, why)."""
    melds = solve(stick.parts, cards, need_natural) if len(cards) == stick.size else None
    if melds:
        return melds, None
    return None, _why_not(stick, cards, need_natural)


def check_stick(stick: Stick, cards: list[str], need_natural: bool) -> dict:
    """The checker's answer for a lay-down (host/docs/formats/sticks-laydown.md): ok, melds,
    wilds or why."""
    melds, why = lay_down(stick, cards, need_natural)
    if not melds:
        return {"ok": False, "stick": stick.number, "text": stick.text, "why": why}
    wilds = [
        {"card": c, "as": a, "meld": i}
        for i, m in enumerate(melds)
        for c, a in zip(m.cards, m.as_, strict=True)
        if is_wild(c) and c != a
    ]
    return {
        "ok": True,
        "stick": stick.number,
        "text": stick.text,
        "melds": [{"part": m.part.describe(), "cards": m.cards, "as": m.as_} for m in melds],
        "wilds": wilds,
    }
