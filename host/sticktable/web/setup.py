"""The setup screen: which games the table offers, and the hand-off of a browser's choice to
`sticktable run`.

`sticktable run --web` without `--players` or `--resume` waits for the setup screen: the page
posts a choice (a new game: game, players in seat order, house rules; or a game to resume or
abandon), and `run`'s own thread takes it (`SetupDesk.take`), tries it exactly as the same
command-line arguments would be tried, and answers the page. A refused choice changes nothing
and the table keeps waiting; an accepted one starts the game through `run`'s code path.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import queue
from collections.abc import Callable

from sticktable.engine import registered

ACTIONS = ("start", "resume", "abandon")
REPLY_TIMEOUT_S = 60.0  # opening a (simulated) board may take a while


def games_offered() -> list[dict]:
    """Each game the table hosts with its house rules (default, valid values, what it does)."""
    return [
        {
            "name": rules.name,
            "title": rules.title,
            "house_rules": [
                {"key": r.key, "default": r.default, "values": r.values, "about": r.about}
                for r in rules.house_rules
            ],
        }
        for rules in registered()
    ]


def check_choice(body) -> dict:
    """A setup request as posted, checked for shape only (the rules judge the rest); ValueError
    saying what is wrong."""
    if not isinstance(body, dict) or body.get("action") not in ACTIONS:
        raise ValueError(f"send an action: {', '.join(ACTIONS)}")
    if body["action"] != "start":
        if not isinstance(body.get("game"), int) or isinstance(body.get("game"), bool):
            raise ValueError("name the game by its number")
        return {"action": body["action"], "game": body["game"]}
    players, house = body.get("players"), body.get("house", {})
    if not isinstance(body.get("rules"), str):
        raise ValueError("pick a game")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ValueError("players: a list of names in seat order")
    if not isinstance(house, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in house.items()
    ):
        raise ValueError("house rules: names and values as typed")
    return {"action": "start", "rules": body["rules"], "players": players, "house": house}


class SetupDesk:
    """Requests from the setup screen, waiting for `run` to take them (one at a time)."""

    def __init__(self):
        self._requests: queue.SimpleQueue = queue.SimpleQueue()
        self.waiting = False  # run is waiting for a game to be chosen
        self.offers = False  # run takes its games from here (and comes back after each)

    def take(self) -> tuple[dict, Callable[[dict], None]]:
        """The next choice and the callback for its answer ({"ok": ...} or {"error": ...})."""
        self.waiting = self.offers = True
        return self._requests.get()

    def started(self) -> None:
        self.waiting = False

    async def ask(self, choice: dict) -> dict:
        if not self.waiting:
            return {"error": "a game is already being played at this table"}
        reply: concurrent.futures.Future = concurrent.futures.Future()
        self._requests.put((choice, reply.set_result))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(reply), REPLY_TIMEOUT_S)
        except TimeoutError:
            return {"error": "the table did not answer (is it still running?)"}
