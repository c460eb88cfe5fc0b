"""The journal: every game, every board message and every rule decision, in SQLite.

One file (WAL mode, synchronous=FULL) in the user's data directory. Each write is its own
transaction, or one `transaction()` holds the writes that belong together (a board fact and the
rule events it meant), so whatever the daemon has acknowledged to the board is on disk before
the ack goes out, whole or not at all: Ctrl-C or a crash loses nothing acknowledged and never
leaves an event journaled without the fact that resuming starts after.

Tables:
  games  - one row per game: its header (the rule set, players, house rules) and status.
  events - the game's append-only rule log; the game state is the fold of these.
  facts  - every message the board sent during the game, with what the rules made of it.
  abandoned - games given up by hand (`sticktable games --abandon`): finished, never resumed.
  traces - the board's raw samples around each sensed event, when the table streamed them
           (`sticktable run --web`; host/docs/formats/event-traces.md).
  games_copy - a second copy of each games row, stored on other pages of the file, so that
           `sticktable journal recover` still knows a game's header when its games row is lost.

Opening and SQLite errors: journal_db.py (one line naming the file and what to do).
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

from sticktable.errors import UserError
from sticktable.journal_db import EmptyJournal, JournalError, connect
from sticktable.link.session import is_event
from sticktable.paths import data_dir

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    source TEXT NOT NULL,
    created REAL NOT NULL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    event TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, idx)
);
CREATE TABLE IF NOT EXISTS facts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    boot TEXT,
    seq INTEGER,
    message TEXT NOT NULL,
    decision TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS facts_by_game ON facts (game_id, id);
CREATE TABLE IF NOT EXISTS abandoned (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS traces (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    boot TEXT,
    seq INTEGER,
    kind TEXT NOT NULL,
    t INTEGER NOT NULL,
    columns TEXT NOT NULL,
    samples TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS traces_by_game ON traces (game_id, id);
CREATE TABLE IF NOT EXISTS games_copy (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    source TEXT NOT NULL,
    created REAL NOT NULL,
    finished REAL
);
"""


def default_path() -> Path:
    return data_dir() / "journal.sqlite"


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    header: dict
    source: str
    created: float
    finished: float | None
    events: int
    abandoned: float | None = None

    @property
    def status(self) -> str:
        if self.abandoned is not None:
            return "abandoned"
        return "in progress" if self.finished is None else "finished"


class Journal:
    """A journal file; open it with `Journal(path)` or as a context manager."""

    def __init__(
        self, path: Path | str | None = None, create: bool = True, read_only: bool = False
    ):
        """`create=False` (the commands that only read) refuses a journal that is not there,
        instead of leaving an empty one behind; `read_only` never writes to the file. Only the
        default data directory is created: a --journal in a missing directory is refused."""
        self.path = Path(path) if path else default_path()
        self._abandoned = True  # journals written before games could be abandoned have no table
        if (not create or read_only) and not self.path.exists():
            raise UserError(f"no journal at {self.path} (no game has been played with it)")
        if not self.path.parent.is_dir():
            raise UserError(f"no directory {self.path.parent} for journal {self.path}")
        self.db = connect(self.path, read_only)
        try:
            if read_only:
                self._check_readable()
            else:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
                self._migrate()
                self._check_intact()
        except BaseException:
            self.db.close()
            raise

    def _migrate(self) -> None:
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise UserError(
                f"journal {self.path} is from a newer sticktable (schema {version}); upgrade"
            )
        # One transaction: a reader sees no tables or all of them, never a schema half made.
        self.db.executescript(f"BEGIN; {SCHEMA}; PRAGMA user_version={SCHEMA_VERSION}; COMMIT;")

    def _check_intact(self) -> None:
        """A damaged journal is refused before a game is written into it, not half-way."""
        (verdict,) = self.db.execute("PRAGMA quick_check(1)").fetchone()
        if verdict != "ok":
            verdict = verdict.splitlines()[-1]  # the first line only says "in database main"
            raise JournalError(
                f"journal {self.path} is damaged ({verdict}): `sticktable journal recover "
                f"{self.path} NEW.sqlite` copies every intact game into a new journal"
            )

    def _check_readable(self) -> None:
        (version,) = self.db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise UserError(
                f"journal {self.path} is from a newer sticktable (schema {version}); upgrade"
            )
        tables = {name for (name,) in self.db.execute("SELECT name FROM sqlite_master")}
        if not tables:
            raise EmptyJournal(f"no games in {self.path} yet (it holds nothing)")
        if not {"games", "events", "facts"} <= tables:
            raise UserError(f"{self.path} is not a sticktable journal")
        self._abandoned = "abandoned" in tables

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    # -- writing ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self):
        """Everything written inside is committed together, or not at all."""
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def new_game(self, header: dict, source: str) -> int:
        row = (header["game"], json.dumps(header), source, time.time())
        with self.transaction():
            cur = self.db.execute(
                "INSERT INTO games (game, header, source, created) VALUES (?, ?, ?, ?)", row
            )
            game_id = int(cur.lastrowid)
            self.db.execute(
                "INSERT INTO games_copy (id, game, header, source, created) VALUES (?,?,?,?,?)",
                (game_id, *row),
            )
        return game_id

    def append_event(self, game_id: int, idx: int, event: dict) -> None:
        """Store rule-log entry `idx`; the primary key refuses a second write of one index."""
        self.db.execute(
            "INSERT INTO events (game_id, idx, event, at) VALUES (?, ?, ?, ?)",
            (game_id, idx, json.dumps(event), time.time()),
        )

    def record_fact(
        self, game_id: int, message: dict, decision: str, boot: str | None = None
    ) -> None:
        """Store a board message and what the rules decided about it."""
        self.db.execute(
            "INSERT INTO facts (game_id, boot, seq, message, decision, at) VALUES (?,?,?,?,?,?)",
            (game_id, boot, message.get("s"), json.dumps(message), decision, time.time()),
        )

    def record_trace(
        self, game_id: int, fact: dict, boot: str | None, columns: list[str], samples: list
    ) -> None:
        """Store the raw samples around one sensed board event (samples.py)."""
        self.db.execute(
            "INSERT INTO traces (game_id, boot, seq, kind, t, columns, samples, at)"
            " VALUES (?,?,?,?,?,?,?,?)",
            (
                game_id, boot, fact.get("s"), fact["k"], fact["t"], json.dumps(columns),
                json.dumps(samples, separators=(",", ":")), time.time(),
            ),
        )  # fmt: skip

    def finish(self, game_id: int) -> None:
        now = time.time()
        with self.transaction():
            for table in ("games", "games_copy"):
                self.db.execute(f"UPDATE {table} SET finished = ? WHERE id = ?", (now, game_id))

    def abandon(self, game_id: int) -> None:
        """Give up an unfinished game: it counts as finished and is never resumed."""
        with self.transaction():
            self.finish(game_id)
            self.db.execute(
                "INSERT OR REPLACE INTO abandoned (game_id, at) VALUES (?, ?)",
                (game_id, time.time()),
            )

    def delete(self, game_id: int) -> None:
        """Remove a game with everything journaled about it."""
        with self.transaction():
            for table in ("facts", "events", "abandoned", "traces"):
                self.db.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            self.db.execute("DELETE FROM games WHERE id = ?", (game_id,))
            self.db.execute("DELETE FROM games_copy WHERE id = ?", (game_id,))

    # -- reading ---------------------------------------------------------------------------

    def games(self) -> list[GameRow]:
        abandoned = "(SELECT at FROM abandoned a WHERE a.game_id = g.id)"
        rows = self.db.execute(
            "SELECT g.id, g.game, g.header, g.source, g.created, g.finished,"
            " (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id),"
            f" {abandoned if self._abandoned else 'NULL'}"
            " FROM games g ORDER BY g.id"
        ).fetchall()
        return [self._row(r) for r in rows]

    def game(self, game_id: int | str) -> GameRow:
        try:
            key = int(game_id)
        except ValueError:
            raise UserError(f"game id must be a number, not {game_id!r}") from None
        for row in self.games():
            if row.id == key:
                return row
        raise UserError(f"no game {key} in {self.path} (see `sticktable games`)")

    def traces(self, game_id: int) -> list[dict]:
        """The game's event traces, without their samples: id, boot, seq, kind, t."""
        if not self._has_table("traces"):
            return []  # a journal from before traces
        rows = self.db.execute(
            "SELECT id, boot, seq, kind, t FROM traces WHERE game_id = ? ORDER BY id", (game_id,)
        ).fetchall()
        return [dict(zip(("id", "boot", "seq", "kind", "t"), row, strict=True)) for row in rows]

    def trace(self, game_id: int, trace_id: int) -> dict:
        """One trace with its samples (UserError if the game has no such trace)."""
        row = None
        if self._has_table("traces"):
            row = self.db.execute(
                "SELECT id, boot, seq, kind, t, columns, samples FROM traces"
                " WHERE game_id = ? AND id = ?",
                (game_id, trace_id),
            ).fetchone()
        if row is None:
            raise UserError(f"no trace {trace_id} in game {game_id}")
        keys = ("id", "boot", "seq", "kind", "t")
        return {
            **dict(zip(keys, row[:5], strict=True)),
            "columns": json.loads(row[5]),
            "samples": json.loads(row[6]),
        }

    def _has_table(self, name: str) -> bool:
        found = self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
        ).fetchone()
        return found is not None

    def events(self, game_id: int) -> list[dict]:
        rows = self.db.execute(
            "SELECT idx, event FROM events WHERE game_id = ? ORDER BY idx", (game_id,)
        ).fetchall()
        for expected, (idx, _) in enumerate(rows):
            if idx != expected:
                raise UserError(f"journal {self.path}: game {game_id} misses event {expected}")
        return [json.loads(text) for _, text in rows]

    def facts(self, game_id: int) -> list[dict]:
        rows = self.db.execute(
            "SELECT boot, seq, message, decision, at FROM facts WHERE game_id = ? ORDER BY id",
            (game_id,),
        ).fetchall()
        return [
            {"boot": b, "seq": s, "message": json.loads(m), "decision": d, "at": a}
            for b, s, m, d, a in rows
        ]

    def board_position(self, game_id: int) -> tuple[str, int] | None:
        """(boot, seq) where a resumed link starts, so that no board event is applied twice or
        skipped: the last sequenced board event journaled for the game. A hello, heartbeat or
        link message never moves it (a hello's `s` counts events the journal may not have).
        A reboot's gap closes the old boot, its losses counted: (new boot, 0). Before any of
        these, the game's first hello says which boot the game began with: (that boot, 0)."""
        position = None
        for fact in self.facts(game_id):
            message = fact["message"]
            if position is None and message.get("k") == "hello" and message.get("src") is None:
                if isinstance(message.get("boot"), str):
                    position = (message["boot"], 0)
            elif is_event(message) and fact["boot"]:
                position = (fact["boot"], message["s"])
            elif message.get("k") == "gap" and message.get("why") == "reboot":
                if message.get("src") == "host" and isinstance(message.get("boot"), str):
                    position = (message["boot"], 0)
        return position

    def board(self, game_id: int) -> str | None:
        """The board the game is played on: its first hello's `board` (a resumed game refuses
        another board: its events are no part of the game), or None before any hello."""
        for fact in self.facts(game_id):
            message = fact["message"]
            if message.get("k") == "hello" and message.get("src") is None:
                board = message.get("board")
                return board if isinstance(board, str) else None
        return None

    def holds(self, game_id: int) -> dict[str, str]:
        """Why play is paused at the end of the journal (see `apply_hold`): what a resumed
        daemon starts from."""
        holds: dict[str, str] = {}
        for fact in self.facts(game_id):
            apply_hold(holds, fact["message"])
        return holds

    def last_unfinished(self) -> GameRow | None:
        unfinished = [row for row in self.games() if row.finished is None]
        return unfinished[-1] if unfinished else None

    @staticmethod
    def _row(r: tuple) -> GameRow:
        return GameRow(r[0], r[1], json.loads(r[2]), r[3], r[4], r[5], r[6], r[7])


REFEREE_OK = {"k": "ok", "src": "referee"}  # the fact journaled when the referee types `ok`


def apply_hold(holds: dict[str, str], message: dict) -> str | None:
    """What one journaled message does to the pause (`holds`: why -> what to tell): events
    lost (a gap) pause until the referee's `ok`; a failing sensor pauses until it works again
    or the referee's `ok`. Returns the change to tell, or None. The daemon applies it live,
    `Journal.holds` replays it on --resume."""
    kind = message.get("k")
    if kind == "ok" and message.get("src") == "referee":
        said = "; ".join(holds) or "no pause"
        holds.clear()
        return f"referee: play goes on ({said})"
    if kind == "gap":
        holds["gap"] = describe_gap(message)
        return holds["gap"]
    if kind == "fault":
        what = str(message.get("what"))
        if message.get("ok"):
            holds.pop(f"fault:{what}", None)
            return f"sensor {what} works again"
        holds[f"fault:{what}"] = f"sensor fault: {what}"
        return holds[f"fault:{what}"]
    return None


def describe_gap(message: dict) -> str:
    """`3 board event(s) lost (reboot; placed, fell among them)`, as exact as the board knew."""
    n, why = message.get("n"), message.get("why")
    kinds = message.get("kinds")
    among = f"; {', '.join(kinds)} among them" if n and kinds else ""
    if message.get("exact") is False:
        return f"board restarted ({why}): {n or 'no'} event(s) known lost, maybe more"
    if n:
        return f"{n} board event(s) lost ({why}{among})"
    return f"board restarted ({why}), no event lost"


def add_journal_option(parser) -> None:
    parser.add_argument(
        "--journal",
        metavar="FILE",
        help="journal file (default: journal.sqlite in the user's data directory, "
        "or $STICKTABLE_HOME)",
    )
