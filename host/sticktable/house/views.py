"""What the house shows and publishes of a game, as JSON-safe values."""

from __future__ import annotations

import dataclasses
import json


def plain(value):
    """A JSON-safe copy of `value` (dicts, lists, numbers, strings; dataclasses as dicts)."""

    def fallback(item):
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            return dataclasses.asdict(item)
        if isinstance(item, (set, frozenset, tuple)):
            return list(item)
        return str(item)

    return json.loads(json.dumps(value, default=fallback))


def standings_payload(game) -> dict:
    """The game's standings as published and stored (empty when the game has no engine)."""
    return plain(game.standings()) if game is not None else {}
