"""Cards as short codes: rank then suit (`10H`, `AS`, `2C`), jokers `JK`.

2s and jokers are wild; a 2 is a natural card only as the 2 of a same-suit run (ruling 1).
Rank positions run 1..14 so an ace can sit low (1) or high (14) in a run.
"""

from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
JOKER = "JK"
RED_SUITS = ("D", "H")
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
# Seat draws and "highest card" compare with the ace on top.
HIGH_ORDER = {rank: (14 if rank == "A" else i + 1) for i, rank in enumerate(RANKS)}


class CardError(ValueError):
    """A card code that names no card."""


def parse_card(text: str) -> str:
    """The canonical code of a card (case-insensitive), or CardError."""
    if not isinstance(text, str):
        raise CardError(f"unknown card {text!r}")
    code = text.strip().upper()
    if code == JOKER:
        return code
    if len(code) >= 2 and code[:-1] in RANKS and code[-1] in SUITS:
        return code
    raise CardError(f"unknown card {text!r} (cards look like 10H, AS, 2C or JK)")


def rank_of(card: str) -> str | None:
    return None if card == JOKER else card[:-1]


def suit_of(card: str) -> str | None:
    return None if card == JOKER else card[-1]


def is_wild(card: str) -> bool:
    return card == JOKER or card[:-1] == "2"


def colour_of(suit: str) -> str:
    return "red" if suit in RED_SUITS else "black"


def positions(rank: str) -> tuple[int, ...]:
    """Where a rank may sit in a run: an ace low (1) or high (14)."""
    index = RANKS.index(rank) + 1
    return (1, 14) if index == 1 else (index,)


def rank_at(position: int) -> str:
    return RANKS[(position - 1) % 13]


def full_deck(decks: int) -> list[str]:
    """Every card of `decks` 54-card decks (52 plus two jokers each), in a fixed order."""
    one = [rank + suit for suit in SUITS for rank in RANKS] + [JOKER, JOKER]
    return one * decks
