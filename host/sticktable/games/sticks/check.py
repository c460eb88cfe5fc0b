"""One lay-down check request as the spec words it: preset, stick number, cards."""

from __future__ import annotations

from .cards import CardError, parse_card
from .laydown import check_stick
from .settings import PRESETS
from .stick_lists import get_stick


class RequestError(ValueError):
    """A malformed request: unknown preset, stick, card, or a stick that is no lay-down."""


def check_request(preset, number, cards) -> dict:
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RequestError(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
    if isinstance(number, bool) or not isinstance(number, int):
        raise RequestError(f"the stick must be a number, not {number!r}")
    try:
        stick = get_stick(preset, number)
    except KeyError:
        raise RequestError(f"preset {preset!r} has no stick {number}") from None
    if stick.kind != "laydown":
        raise RequestError(f"stick {number} ({stick.text}) is not a lay-down to check")
    if not isinstance(cards, list):
        raise RequestError("cards must be a list of card codes")
    try:
        parsed = [parse_card(c) for c in cards]
    except CardError as err:
        raise RequestError(str(err)) from None
    return check_stick(stick, parsed, PRESETS[preset]["natural_per_meld"])


def check_players_stick(state: dict, player, cards) -> dict:
    """The checker's verdict on `cards` as `player`'s lay-down of the stick they hold, without
    changing the game: the referee's screen asks before entering it. Only in referee mode, where
    the referee entered the sticks (in a digital game a stick is face down: nobody else asks)."""
    if state["settings"]["mode"] != "referee":
        raise RequestError("the lay-down checker screen is for referee mode")
    if player not in state["players"]:
        raise RequestError(f"no player {player!r}")
    number = state["stick"][player]
    if number is None:
        raise RequestError(f"{player} holds no stick now")
    return check_request(state["settings"]["preset"], number, cards)
