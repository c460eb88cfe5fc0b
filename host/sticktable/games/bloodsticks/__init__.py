"""Bloodsticks (host/docs/sources/bloodsticks-rules.txt, host/docs/rulings-bloodsticks.md).

`drop` scores one drop (also `sticktable bloodsticks score-drop`), `flow` moves the game on,
`rules` is the rule set registered on the engine as "bloodsticks", `settings` reads the header,
`ledger` keeps the money, `sidebets` the secondary pots.
"""

from .drop import DropError, DropRules, score_drop_document, score_layout
from .rules import RULES, Bloodsticks

__all__ = ["RULES", "Bloodsticks", "DropError", "DropRules", "score_drop_document", "score_layout"]
