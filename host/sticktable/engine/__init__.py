"""The event-sourced rules engine every game runs on; see core.py."""

from sticktable.engine.core import Game, RuleError, RuleSet, effective_log, get_rules, register

__all__ = ["Game", "RuleError", "RuleSet", "effective_log", "get_rules", "register"]
