"""Checking a journal and copying every intact game out of a damaged one.

Both read the old file read-only and game by game, through the tables' keys, so one damaged
page costs the games stored on it and never the rest."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sticktable.engine import Game, RuleError
from sticktable.errors import UserError
from sticktable.journal import Journal
from sticktable.journal_db import JournalError, connect

PROBE_MISSES = 100  # ids tried past the last game found when the games table cannot be scanned
GAME_COLUMNS = "id, game, header, source, created, finished"


@dataclass
class StoredGame:
    """One game's rows as they are in the file."""

    row: tuple
    events: list[tuple]  # (idx, event, at)
    facts: list[tuple] | None  # (boot, seq, message, decision, at); None: unreadable
    abandoned: float | None
    traces: list[tuple] | None = (
        None  # (boot, seq, kind, t, columns, samples, at); None: unreadable
    )

    @property
    def id(self) -> int:
        return self.row[0]


def open_old(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise UserError(f"no journal at {path}")
    return connect(path, read_only=True)


def game_ids(db: sqlite3.Connection) -> list[int]:
    """Every game id the file still knows, from any table that names games."""
    found = set()
    for query in (
        "SELECT id FROM games",
        "SELECT id FROM games_copy",
        "SELECT DISTINCT game_id FROM events",
    ):
        try:
            found.update(gid for (gid,) in db.execute(query))
        except JournalError:
            continue
        if query == "SELECT id FROM games":
            return sorted(found)
    return sorted(found.union(_probe(db)))


def _probe(db: sqlite3.Connection) -> list[int]:
    """Game ids found by looking each one up, when the games table cannot be scanned."""
    try:
        top = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'games'").fetchone()
    except JournalError:
        top = None
    ids, key, last = [], 1, 0
    while (key <= top[0]) if top else (key - last <= PROBE_MISSES):
        try:
            if db.execute("SELECT id FROM games WHERE id = ?", (key,)).fetchone():
                ids.append(key)
                last = key
        except JournalError:
            if top:  # below the last id ever given: a game whose row is unreadable, so lost
                ids.append(key)
        key += 1
    return ids


def _rows(db, query: str, key: int) -> list[tuple]:
    """The rows by the table's index; if the index is damaged, by a scan of the table."""
    try:
        return db.execute(query, (key,)).fetchall()
    except JournalError:
        return db.execute(query.replace(" WHERE", " NOT INDEXED WHERE"), (key,)).fetchall()


def read_game(db: sqlite3.Connection, game_id: int) -> StoredGame:
    """The game's rows, checked: JournalError or ValueError when any is damaged."""
    row = None
    for table in ("games", "games_copy"):  # a copy on other pages (journals since issue 12)
        try:
            query = f"SELECT {GAME_COLUMNS} FROM {table} WHERE id = ?"
            row = db.execute(query, (game_id,)).fetchone()
        except JournalError:
            continue
        if row:
            break
    if row is None:
        raise ValueError("its header is lost")
    json.loads(row[2])
    events = _rows(db, "SELECT idx, event, at FROM events WHERE game_id = ? ORDER BY idx", game_id)
    for expected, (idx, text, _) in enumerate(events):
        if idx != expected:
            raise ValueError(f"event {expected} is missing")
        json.loads(text)
    try:
        facts = _rows(
            db,
            "SELECT boot, seq, message, decision, at FROM facts WHERE game_id = ? ORDER BY id",
            game_id,
        )
    except JournalError:
        facts = None
    try:
        found = db.execute("SELECT at FROM abandoned WHERE game_id = ?", (game_id,)).fetchone()
    except JournalError:
        found = None  # an older journal has no such table
    return StoredGame(row, events, facts, found[0] if found else None, _traces(db, game_id))


def _traces(db: sqlite3.Connection, game_id: int) -> list[tuple] | None:
    """The game's sensor traces; [] in a journal from before traces, None if unreadable."""
    try:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'traces'").fetchone():
            return []
        traces = _rows(
            db,
            "SELECT boot, seq, kind, t, columns, samples, at FROM traces WHERE game_id = ?"
            " ORDER BY id",
            game_id,
        )
        for trace in traces:
            json.loads(trace[4])
            json.loads(trace[5])
    except (JournalError, ValueError):
        return None
    return traces


def check_game(db: sqlite3.Connection, game_id: int) -> str:
    """'ok', or what is wrong with the game."""
    try:
        stored = read_game(db, game_id)
    except (JournalError, ValueError) as err:
        return f"damaged: {str(err).split(' (')[0] if isinstance(err, JournalError) else err}"
    if stored.facts is None:
        return "damaged: its board messages are unreadable"
    try:
        Game(json.loads(stored.row[2]), [json.loads(e) for _, e, _ in stored.events])
    except (RuleError, ValueError, KeyError, TypeError) as err:
        return f"does not replay: {err}"
    return "ok"


def file_verdict(db: sqlite3.Connection) -> str:
    try:
        (verdict,) = db.execute("PRAGMA quick_check(1)").fetchone()
    except JournalError as err:
        return str(err)
    return verdict.splitlines()[-1]


def recover(old: Path, new: Path) -> tuple[list[str], list[int]]:
    """Copy every intact game of `old` into the new journal `new`: (what was done, lost ids)."""
    if new.exists():
        raise UserError(f"{new} exists: give the name of a new file")
    if new.resolve() == old.resolve():
        raise UserError("the new journal must be another file")
    db = open_old(old)
    notes, lost = [], []
    try:
        ids = game_ids(db)
        with Journal(new) as target:
            for game_id in ids:
                try:
                    stored = read_game(db, game_id)
                except (JournalError, ValueError):
                    lost.append(game_id)
                    continue
                _write(target, stored)
                if stored.facts is None:
                    notes.append(
                        f"game {game_id}: saved without its board messages, so abandoned "
                        "(it cannot be resumed)"
                    )
                if stored.traces is None:
                    notes.append(f"game {game_id}: saved without its sensor traces (damaged)")
    finally:
        db.close()
    saved = len(ids) - len(lost)
    notes.insert(0, f"saved {saved} of {len(ids)} games from {old} into {new}")
    if lost:
        notes.append("lost (damaged): " + ", ".join(f"game {g}" for g in lost))
    return notes, lost


def _write(target: Journal, stored: StoredGame) -> None:
    db = target.db
    with target.transaction():
        for table in ("games", "games_copy"):
            db.execute(f"INSERT INTO {table} ({GAME_COLUMNS}) VALUES (?,?,?,?,?,?)", stored.row)
        db.executemany(
            "INSERT INTO events (game_id, idx, event, at) VALUES (?,?,?,?)",
            [(stored.id, *event) for event in stored.events],
        )
        db.executemany(
            "INSERT INTO facts (game_id, boot, seq, message, decision, at) VALUES (?,?,?,?,?,?)",
            [(stored.id, *fact) for fact in stored.facts or []],
        )
        db.executemany(
            "INSERT INTO traces (game_id, boot, seq, kind, t, columns, samples, at)"
            " VALUES (?,?,?,?,?,?,?,?)",
            [(stored.id, *trace) for trace in stored.traces or []],
        )
        if stored.abandoned is not None:
            db.execute("INSERT INTO abandoned VALUES (?, ?)", (stored.id, stored.abandoned))
        elif stored.facts is None:
            target.abandon(stored.id)
