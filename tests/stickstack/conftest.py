"""Helpers for the rules tests: a short notation for Stick Stack events.

Steps: "Ann bag" / "Ann front" (a take), "placed", "unplaceable", "fell 2", "topple",
"touch", "end_round".
"""

from types import SimpleNamespace

import pytest

from sticktable.engine import Game

PLAYERS = ("Ann", "Bo", "Cy")


def header(players=PLAYERS, **house) -> dict:
    return {"game": "stick-stack", "players": list(players), **house}


def event(step: str) -> dict:
    words = step.split()
    if words[0] == "fell":
        return {"type": "fell", "count": int(words[1])}
    if len(words) == 1:
        return {"type": words[0]}
    return {"type": "take", "player": words[0], "from": words[1]}


def play(steps=(), players=PLAYERS, **house) -> Game:
    """A game after the given steps (each must be legal)."""
    game = Game(header(players, **house))
    for step in steps:
        game.apply(event(step))
    return game


@pytest.fixture
def ss():
    """The notation helpers, as one namespace: ss.play, ss.event, ss.header."""
    return SimpleNamespace(play=play, event=event, header=header)
