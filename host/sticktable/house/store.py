"""The house journal: every table's games, each stored once by (table, game, index).

It is an ordinary journal (so `games`, `replay`, `export` and the web console read it as they
read a table's), plus the tables below. A table's game becomes a house game of its own; its
events are stored in order, each applied by the game's rules first: an event the rules refuse
is counted and logged as rejected, never stored. An event that arrives ahead of a missing one
waits in memory until the gap is filled (the service asks the table to publish it again).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from sticktable.engine import Game, RuleError
from sticktable.house.topics import Message
from sticktable.journal import Journal

HOUSE_SCHEMA = """
CREATE TABLE IF NOT EXISTS house_games (
    table_name TEXT NOT NULL,
    table_game INTEGER NOT NULL,
    game_id INTEGER NOT NULL UNIQUE REFERENCES games(id),
    PRIMARY KEY (table_name, table_game)
);
CREATE TABLE IF NOT EXISTS house_tables (
    name TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS house_rejects (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,
    topic TEXT NOT NULL,
    why TEXT NOT NULL
);
"""


def where(message: Message) -> str:
    """`table T1 game 4`: where a message belongs, for the log."""
    game = f" game {message.game}" if message.game is not None else ""
    return f"table {message.table}{game}"


# Events held back behind a missing one, per game, at most (the rest are asked for again).
AHEAD_LIMIT = 1000


@dataclass
class _HouseGame:
    game_id: int
    game: Game
    ahead: dict[int, dict] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.game.events)


class HouseStore:
    """The house journal with every table's games in it."""

    def __init__(self, journal: Journal):
        self.journal = journal
        self.db = journal.db
        self.db.executescript(HOUSE_SCHEMA)
        self._games: dict[tuple[str, int], _HouseGame] = {}
        self.rejected = 0
        self.repeats = 0
        # Events of a game whose header has not come yet: MQTT orders messages per topic only,
        # so a game's first events may overtake its header. Held until it comes.
        self._early: dict[tuple[str, int], dict[int, dict]] = {}

    # -- what the service asks ---------------------------------------------------------------

    def count(self, table: str, game: int) -> int | None:
        """Events stored for the table's game; None when the house has never seen it."""
        held = self._game(table, game)
        return held.count if held else None

    def live_game(self, table: str, game: int) -> Game | None:
        """The engine's state of the table's game as the house has stored it."""
        held = self._game(table, game)
        return held.game if held else None

    def tables(self) -> dict[str, dict]:
        rows = self.db.execute("SELECT name, status FROM house_tables ORDER BY name").fetchall()
        return {name: json.loads(status) for name, status in rows}

    def table_games(self) -> list[tuple[str, int, int]]:
        """(table, the table's game id, the house's game id) for every stored game."""
        return self.db.execute(
            "SELECT table_name, table_game, game_id FROM house_games ORDER BY game_id"
        ).fetchall()

    # -- what the tables say ---------------------------------------------------------------

    def on_status(self, message: Message) -> None:
        with self.journal.transaction():
            self.db.execute(
                "INSERT INTO house_tables (name, status, seen) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET status = excluded.status, seen = excluded.seen",
                (message.table, json.dumps(message.payload), time.time()),
            )

    def on_header(self, message: Message) -> None:
        """A game's header: the house makes the game when it is new."""
        if not message.payload:
            return  # a retained header deleted on the broker
        assert message.game is not None
        if self._game(message.table, message.game) is not None:
            return
        header = message.payload["header"]
        try:
            game = Game(header)
        except RuleError as err:
            self.reject(where(message), f"header refused: {err}")
            return
        with self.journal.transaction():
            game_id = self.journal.new_game(header, source=f"table {message.table}")
            self.db.execute(
                "INSERT INTO house_games (table_name, table_game, game_id) VALUES (?, ?, ?)",
                (message.table, message.game, game_id),
            )
        held = self._games[(message.table, message.game)] = _HouseGame(game_id, game)
        held.ahead.update(self._early.pop((message.table, message.game), {}))
        while held.count in held.ahead:
            if not self._store(message, held, held.ahead.pop(held.count)):
                break

    def on_event(self, message: Message) -> str:
        """Store the event if it is the next one. Returns what happened: "stored",
        "repeat", "ahead" (a gap before it), "unknown" (no header yet) or "rejected"."""
        assert message.game is not None
        held = self._game(message.table, message.game)
        if held is None:
            early = self._early.setdefault((message.table, message.game), {})
            if len(early) < AHEAD_LIMIT:
                early[message.payload["index"]] = message.payload["event"]
            return "unknown"
        index, event = message.payload["index"], message.payload["event"]
        if index < held.count:
            self.repeats += 1
            return "repeat"
        if index > held.count:
            if len(held.ahead) < AHEAD_LIMIT:
                held.ahead[index] = event
            return "ahead"
        if not self._store(message, held, event):
            return "rejected"
        while held.count in held.ahead:
            if not self._store(message, held, held.ahead.pop(held.count)):
                break
        return "stored"

    def _store(self, message: Message, held: _HouseGame, event: dict) -> bool:
        index = held.count
        try:
            held.game.apply(event)
        except RuleError as err:
            self.reject(where(message), f"event {index} refused by the rules: {err}")
            held.ahead.clear()
            return False
        with self.journal.transaction():
            self.journal.append_event(held.game_id, index, event)
            if held.game.finished:
                self.journal.finish(held.game_id)
        return True

    def reject(self, topic: str, why: str) -> None:
        """Count and log something the house will not apply."""
        self.rejected += 1
        with self.journal.transaction():
            self.db.execute(
                "INSERT INTO house_rejects (at, topic, why) VALUES (?, ?, ?)",
                (time.time(), topic, why),
            )

    def _game(self, table: str, game: int) -> _HouseGame | None:
        held = self._games.get((table, game))
        if held is not None:
            return held
        row = self.db.execute(
            "SELECT game_id FROM house_games WHERE table_name = ? AND table_game = ?",
            (table, game),
        ).fetchone()
        if row is None:
            return None
        stored = self.journal.game(row[0])
        held = _HouseGame(row[0], Game(stored.header, self.journal.events(row[0])))
        self._games[(table, game)] = held
        return held
