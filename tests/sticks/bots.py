"""A rule-abiding random player for digital playthroughs: it only ever picks among
`legal_actions` (the finder's lay-down, new melds and lay-offs, the legal discards)."""

from __future__ import annotations

import random

from sticktable.engine import Game


def next_event(game: Game, rng: random.Random) -> dict | None:
    """The chance outcome if the game waits on one, else a random legal action."""
    event = game.rules.chance(game.state, rng)
    if event is not None:
        return event
    by_type: dict[str, list] = {}
    for action in game.rules.legal_actions(game.state):
        by_type.setdefault(action["type"], []).append(action)
    if not by_type:
        return None
    if "draw" in by_type:
        return rng.choice(by_type["draw"])
    if "laydown" in by_type:
        return by_type["laydown"][0]
    for kind in ("meld", "layoff"):
        if kind in by_type and rng.random() < 0.9:
            return rng.choice(by_type[kind])
    return rng.choice(by_type["discard"])


def play(header: dict, seed: int, max_events: int = 20000) -> Game:
    game = Game(header)
    rng = random.Random(seed)
    while not game.finished and len(game.events) < max_events:
        event = next_event(game, rng)
        assert event is not None, f"stuck in phase {game.state['phase']}"
        game.apply(event)
    return game
