"""The Sticks game as a fold: `initial(header)`, then each event's handler (`HANDLERS`),
taken only when `admit` lets it in.

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
    "HANDLERS",
    "SEVEN",
    "admit",
    "digital",
    "drawable",
    "initial",
    "legal_discards",
    "need_natural",
    "turn_player",
]


HANDLERS = {
    "seat_draw": on_seat_draw,
    "seats": on_seats,
    "stick": on_stick,
    "deal": on_deal,
    "restock": on_restock,
    "draw": on_draw,
    "laydown": on_laydown,
    "meld": on_meld,
    "layoff": on_layoff,
    "steal": on_steal,
    "discard": on_discard,
    "done": on_done,
    "out": on_out,
}
# The phase an event kind is taken in (the turn events check their own phase).
PHASE_OF = {
    "seat_draw": "seating",
    "seats": "seating",
    "stick": "sticks",
    "deal": "deal",
    "restock": "restock",
}
DIGITAL_ONLY = ("restock", "draw", "discard")


def admit(state: dict, kind: str) -> None:
    """RuleError if events of `kind` are not taken now (the phase, the mode)."""
    if kind in DIGITAL_ONLY and not digital(state):
        raise RuleError(f"{kind!r} is tracked in digital mode only")
    phase = PHASE_OF.get(kind)
    if phase is not None and state["phase"] != phase:
        raise RuleError(f"not now: the game is in its {state['phase']} phase")
