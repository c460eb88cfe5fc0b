"""The Sticks game as a fold: `initial(header)` and `apply(state, event)`.

Phases: seating -> sticks (stick draws) -> deal -> draw/play turns (restock when the stock
runs out) -> end of deal -> sticks ... -> over. Digital mode tracks every card; referee mode
(physical cards) tracks seats, sticks, tries, completed sticks, turns and checks lay-downs.
Modules: state (the dict and helpers), deals (between turns), turns (a player's actions).
"""

from __future__ import annotations

from sticktable.engine import RuleError

from .deals import drawable, on_deal, on_restock, on_seat_draw, on_seats, on_stick
from .state import SEVEN, digital, initial, need_natural, turn_player
from .turns import (
    legal_discards,
    on_discard,
    on_done,
    on_draw,
    on_laydown,
    on_layoff,
    on_meld,
    on_out,
    on_steal,
)

__all__ = [
    "SEVEN",
    "apply",
    "digital",
    "drawable",
    "initial",
    "legal_discards",
    "need_natural",
    "turn_player",
]


HANDLERS = {
    "seat_draw": (on_seat_draw, ("seating",)),
    "seats": (on_seats, ("seating",)),
    "stick": (on_stick, ("sticks",)),
    "deal": (on_deal, ("deal",)),
    "restock": (on_restock, ("restock",)),
    "draw": (on_draw, None),
    "laydown": (on_laydown, None),
    "meld": (on_meld, None),
    "layoff": (on_layoff, None),
    "steal": (on_steal, None),
    "discard": (on_discard, None),
    "done": (on_done, None),
    "out": (on_out, None),
}
DIGITAL_ONLY = ("restock", "draw", "discard")


def apply(state: dict, event: dict) -> dict:
    kind = event.get("type")
    if kind not in HANDLERS:
        raise RuleError(f"unknown event type {kind!r}")
    if state["phase"] == "over":
        raise RuleError("the game is over")
    handler, phases = HANDLERS[kind]
    if kind in DIGITAL_ONLY and not digital(state):
        raise RuleError(f"{kind!r} is tracked in digital mode only")
    if phases and state["phase"] not in phases:
        raise RuleError(f"not now: the game is in its {state['phase']} phase")
    handler(state, event)
    return state
