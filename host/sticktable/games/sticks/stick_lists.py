"""The stick lists of both presets, loaded from the hand-reviewed data files beside this module.

A stick is a number in its preset's list (host/docs/formats/sticks-laydown.md). A lay-down
stick has parts (melds of exact sizes); "No Discard" and Free sticks keep their numbers but have
no parts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .cards import RANKS, SUIT_NAMES, SUITS, positions, rank_at

PART_KINDS = ("run", "set", "alternating_run", "cards", "one_suit", "wild")
# Melds nobody may add to afterwards (ruling 3); wild-only melds take only more wilds.
CLOSED_KINDS = ("cards", "one_suit")
RANK_PLURALS = {"A": "Aces", "J": "Jacks", "Q": "Queens", "K": "Kings"}
NUMBER_WORDS = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
}


@dataclass(frozen=True)
class Part:
    """One meld a stick asks for, of exactly `size` cards."""

    kind: str
    size: int
    suit: str | None = None  # run: the suit it must be in
    low: int | None = None  # run with named ranks: position of its lowest card (ace high = 14)
    rank: str | None = None  # set: the rank it must be
    cards: tuple[str, ...] = ()  # cards: the exact cards

    def describe(self) -> str:
        n = NUMBER_WORDS.get(self.size, str(self.size))
        if self.kind == "run":
            suit = f" in {SUIT_NAMES[self.suit]}" if self.suit else ""
            if self.low is not None:
                ranks = "-".join(rank_at(p) for p in range(self.low, self.low + self.size))
                return f"the run {ranks}{suit or ' in one suit'}"
            return f"a run of {n}{suit}"
        if self.kind == "set":
            return (
                f"a set of {n} {RANK_PLURALS.get(self.rank, f'{self.rank}s')}"
                if self.rank
                else f"a set of {n}"
            )
        if self.kind == "alternating_run":
            return f"a run of {n} in alternating colours"
        if self.kind == "cards":
            return "exactly " + " ".join(self.cards)
        if self.kind == "one_suit":
            return f"{self.size} cards of one suit, no wild cards"
        return f"{n} wild cards"


@dataclass(frozen=True)
class Stick:
    number: int
    text: str
    kind: str  # "laydown", "no_discard" or "free"
    parts: tuple[Part, ...] = ()
    copies: int = 1
    min_cards: int = 0
    example: tuple = ()

    @property
    def size(self) -> int:
        return sum(p.size for p in self.parts)

    def describe(self) -> str:
        """The parts in words, identical ones counted ("four runs of three")."""
        words = []
        for part in self.parts:
            if words and words[-1][0] == part:
                words[-1][1] += 1
            else:
                words.append([part, 1])
        return " and ".join(_counted(part.describe(), n) for part, n in words)


def _counted(text: str, n: int) -> str:
    if n == 1:
        return text
    for noun in ("run", "set"):
        if text.startswith(f"a {noun} "):
            return f"{NUMBER_WORDS.get(n, n)} {noun}s {text[len(noun) + 3 :]}"
    return f"{n} x {text}"


def _part(raw: dict) -> Part:
    kind, size = raw["kind"], int(raw["size"])
    if kind not in PART_KINDS or size < 1:
        raise ValueError(f"bad part {raw!r}")
    suit = raw.get("suit")
    if suit is not None and suit not in SUITS:
        raise ValueError(f"bad suit in {raw!r}")
    low = None
    if "ranks" in raw:
        ranks = raw["ranks"]
        # Named ranks must be consecutive; an ace after a king sits high.
        low = positions(ranks[0])[0]
        want = [low + i for i in range(len(ranks))]
        if len(ranks) != size or any(want[i] not in positions(r) for i, r in enumerate(ranks)):
            raise ValueError(f"named ranks are not a run of {size}: {raw!r}")
    rank = raw.get("rank")
    if rank is not None and (rank not in RANKS or rank == "2"):
        raise ValueError(f"bad set rank in {raw!r}")
    cards = tuple(raw.get("cards", ()))
    if kind == "cards" and len(cards) != size:
        raise ValueError(f"card list does not match size: {raw!r}")
    return Part(kind, size, suit, low, rank, cards)


def _stick(raw: dict) -> Stick:
    kind = raw["kind"]
    parts = tuple(_part(p) for p in raw.get("parts", ()))
    if (kind == "laydown") != bool(parts):
        raise ValueError(f"stick {raw['number']}: only lay-down sticks have parts")
    example = raw.get("example", ())
    example = tuple(tuple(m) if isinstance(m, list) else m for m in example)
    return Stick(
        int(raw["number"]),
        raw["text"],
        kind,
        parts,
        int(raw.get("copies", 1)),
        int(raw.get("min_cards", 0)),
        example,
    )


@cache
def stick_list(preset: str) -> tuple[Stick, ...]:
    """The sticks of a preset, index n-1 holding stick n."""
    try:
        text = resources.files(__package__).joinpath(f"{preset}.json").read_text("utf-8")
    except FileNotFoundError:
        raise KeyError(preset) from None
    sticks = tuple(_stick(raw) for raw in json.loads(text)["sticks"])
    if [s.number for s in sticks] != list(range(1, len(sticks) + 1)):
        raise ValueError(f"{preset}.json: sticks are not numbered 1..{len(sticks)}")
    return sticks


def get_stick(preset: str, number: int) -> Stick:
    sticks = stick_list(preset)
    if not 1 <= number <= len(sticks):
        raise KeyError(number)
    return sticks[number - 1]


def bag_contents(preset: str) -> list[int]:
    """The stick numbers in a full bag (a Free stick appears once per copy)."""
    return [s.number for s in stick_list(preset) for _ in range(s.copies)]
