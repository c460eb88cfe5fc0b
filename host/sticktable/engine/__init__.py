"""The event-sourced rules engine every game runs on: core.py (the game as a header plus a
log), contract.py (what a game's rules provide, in typed values)."""

from sticktable.engine.contract import (
    ArmBoard,
    Display,
    Effect,
    HouseRule,
    InvariantError,
    RoundResult,
    RuleError,
    RuleSet,
    Standings,
    Turn,
    require,
)
from sticktable.engine.core import Game, effective_log, get_rules, register, registered

__all__ = [
    "ArmBoard",
    "Display",
    "Effect",
    "Game",
    "HouseRule",
    "InvariantError",
    "RoundResult",
    "RuleError",
    "RuleSet",
    "Standings",
    "Turn",
    "effective_log",
    "get_rules",
    "register",
    "registered",
    "require",
]
