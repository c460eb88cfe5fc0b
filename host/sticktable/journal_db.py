"""Opening the journal's SQLite file, and every SQLite failure as one line that names the file
and says what to do (a damaged, read-only or busy journal must never show a traceback)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from sticktable.errors import UserError

# Programming mistakes and a second write of one event index keep their own exception types.
PASS_THROUGH = (sqlite3.IntegrityError, sqlite3.ProgrammingError, sqlite3.InterfaceError)


class JournalError(UserError):
    """The journal file cannot be used as it is."""


class EmptyJournal(UserError):
    """The journal file holds nothing yet: it is being created (a reader may come between
    SQLite making the file and the first game's commit), or was left empty."""


def explain(path: Path, err: sqlite3.Error) -> str:
    text = str(err)
    if "not a database" in text:
        return f"{path} is not a sticktable journal ({text})"
    if "malformed" in text:
        return (
            f"journal {path} is damaged ({text}): `sticktable journal recover {path} NEW.sqlite` "
            "copies every intact game into a new journal"
        )
    if "readonly" in text or ("unable to open" in text and _read_only(path)):
        return (
            f"journal {path} is read-only ({text}): reading commands work; to play or change "
            "games, use a writable journal (--journal FILE)"
        )
    if "locked" in text or "busy" in text:
        return f"journal {path} is in use by another sticktable ({text}): try again when it stops"
    if "unable to open" in text:
        return f"cannot open journal {path} ({text}): check the file and its directory"
    return f"journal {path} is not usable ({text})"


def _read_only(path: Path) -> bool:
    """The journal exists but it, or its directory (where SQLite keeps the WAL), is read-only."""
    return path.exists() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))


def _guard(connection, call, *args):
    try:
        return call(*args)
    except PASS_THROUGH:
        raise
    except sqlite3.DatabaseError as err:
        raise JournalError(explain(connection.journal_path, err)) from None


class _Cursor(sqlite3.Cursor):
    """A cursor whose SQLite failures (reading rows included) become one JournalError."""

    def execute(self, *args):
        _guard(self.connection, super().execute, *args)
        return self

    def fetchone(self):
        return _guard(self.connection, super().fetchone)

    def fetchall(self):
        return _guard(self.connection, super().fetchall)

    def __next__(self):
        return _guard(self.connection, super().__next__)


class _Connection(sqlite3.Connection):
    journal_path = Path("journal")

    def cursor(self, factory=_Cursor):
        return super().cursor(factory)

    def execute(self, *args):
        return self.cursor().execute(*args)

    def executescript(self, script):
        return _guard(self, super().executescript, script)


def connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    """A connection to the journal at `path`. Read-only opens never write (not even the WAL's
    shared-memory file): a journal on a read-only disk or directory can still be read."""
    if not read_only:
        return _open(path, str(path), uri=False)
    uri = "file:" + quote(str(path.resolve()))
    try:
        db = _open(path, uri + "?mode=ro", uri=True)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except JournalError as err:
        if "damaged" in str(err):
            raise
    # A WAL journal in a directory we may not write: read the file as it stands.
    db = _open(path, uri + "?immutable=1", uri=True)
    db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    return db


def _open(path: Path, target: str, uri: bool) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(target, isolation_level=None, timeout=5, uri=uri, factory=_Connection)
    except sqlite3.DatabaseError as err:
        raise JournalError(explain(path, err)) from None
    db.journal_path = path
    return db
