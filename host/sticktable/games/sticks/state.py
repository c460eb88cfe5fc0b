"""The game state of Sticks as a JSON-safe dict, and the small helpers every phase uses."""

from __future__ import annotations

from collections import Counter

from sticktable.engine import RuleError

from .cards import CardError, full_deck, parse_card
from .settings import SettingsError, resolve
from .stick_lists import bag_contents

SEVEN = 7


def initial(header: dict) -> dict:
    try:
        settings = resolve(header)
    except SettingsError as err:
        raise RuleError(str(err)) from None
    players = list(header["players"])
    digital = settings["mode"] == "digital"
    return {
        "settings": settings,
        "players": players,
        "phase": "seating",
        "seat_pending": players,
        "seat_draws": {p: [] for p in players},
        "seats": None,
        "dealer": None,
        "deal_no": 0,
        "bag": sorted(bag_contents(settings["preset"])),
        "held_back": [],
        "stick": {p: None for p in players},
        "completed": {p: [] for p in players},
        "tries": {p: 0 for p in players},
        "down": {p: False for p in players},
        "queue": [],
        "revealed": [],
        "deck": full_deck(settings["decks"]) if digital else None,
        "stock": [],
        "discard": [],
        "hands": {p: [] for p in players} if digital else None,
        "melds": [],
        "turn": None,
        "turns": 0,
        "took": None,
        "out": None,
        "sevens": [],
        "winners": [],
        "deal_end": None,
    }


def digital(state) -> bool:
    return state["settings"]["mode"] == "digital"


def turn_player(state):
    return None if state["turn"] is None else state["seats"][state["turn"]]


def need_natural(state) -> bool:
    return state["settings"]["natural_per_meld"]


def require_turn(state, event, phases):
    player = event.get("player")
    if state["phase"] not in phases:
        raise RuleError(f"not now: the game is in its {state['phase']} phase")
    if player != turn_player(state):
        raise RuleError(f"it is {turn_player(state)}'s turn")
    return player


def listed(value) -> list | None:
    """A list as given, or typed at the keyboard: "3C,4C,5C" (see daemon.parse_key_value)."""
    if isinstance(value, str):
        return value.replace(",", " ").split()
    return value if isinstance(value, list) else None


def cards_of(event, key="cards") -> list[str]:
    cards = listed(event.get(key))
    if cards is None:
        raise RuleError(f"{key} must be a list of cards")
    return [card_of(c) for c in cards]


def card_of(text) -> str:
    try:
        return parse_card(text)
    except CardError as err:
        raise RuleError(str(err)) from None


def take(state, player, cards):
    """Remove cards from a hand (digital mode; referee mode cannot see hands)."""
    if not digital(state):
        return
    hand = state["hands"][player]
    missing = Counter(cards) - Counter(hand)
    if missing:
        raise RuleError(f"{player} does not hold {' '.join(sorted(missing.elements()))}")
    for card in cards:
        hand.remove(card)


def clockwise_from_dealer(state):
    n = len(state["seats"])
    return [state["seats"][(state["dealer"] + 1 + i) % n] for i in range(n)]
