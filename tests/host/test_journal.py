"""The journal on real SQLite: what is written survives a reopen, corrupt files are one error."""

import json
import sqlite3
import subprocess
import sys

import pytest

from sticktable.errors import UserError
from sticktable.journal import Journal

HEADER = {"game": "stick-stack", "players": ["Ann", "Bo"]}


def test_events_and_facts_survive_a_reopen(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        game_id = journal.new_game(HEADER, source="test")
        journal.append_event(game_id, 0, {"type": "take", "player": "Ann", "from": "bag"})
        journal.record_fact(game_id, {"k": "fell", "s": 4, "n": 1}, "applied 1", boot="ab")
    with Journal(path) as journal:
        (row,) = journal.games()
        assert (row.id, row.game, row.header, row.events) == (game_id, "stick-stack", HEADER, 1)
        assert row.finished is None
        assert journal.events(game_id) == [{"type": "take", "player": "Ann", "from": "bag"}]
        fact = journal.facts(game_id)[0]
        assert (fact["seq"], fact["boot"], fact["decision"]) == (4, "ab", "applied 1")
        journal.finish(game_id)
        assert journal.last_unfinished() is None


def test_an_event_index_is_written_once(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        game_id = journal.new_game(HEADER, source="test")
        journal.append_event(game_id, 0, {"type": "placed"})
        with pytest.raises(sqlite3.IntegrityError):
            journal.append_event(game_id, 0, {"type": "placed"})


def test_wal_mode_is_on(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        assert journal.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_unknown_game_is_a_user_error(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        with pytest.raises(UserError, match="no game 3"):
            journal.game("3")
        with pytest.raises(UserError, match="must be a number"):
            journal.game("abc")


@pytest.mark.parametrize("command", [["games"], ["replay", "1"], ["export", "1"]])
def test_corrupt_journal_is_one_line_and_nonzero(tmp_path, command):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    proc = subprocess.run(
        [sys.executable, "-m", "sticktable", *command, "--journal", str(bad)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "not a sticktable journal" in proc.stderr


def test_games_lists_as_json(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        journal.new_game(HEADER, source="sim")
    proc = subprocess.run(
        [sys.executable, "-m", "sticktable", "games", "--json", "--journal", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    listed = json.loads(proc.stdout)
    assert listed["players"] == ["Ann", "Bo"] and listed["finished"] is False


def test_reading_commands_never_create_a_journal(tmp_path):
    missing = tmp_path / "not-here" / "j.sqlite"
    listed = subprocess.run(
        [sys.executable, "-m", "sticktable", "games", "--journal", str(missing)],
        capture_output=True,
        text=True,
    )
    assert listed.returncode == 0 and listed.stdout == "no games yet\n"
    replayed = subprocess.run(
        [sys.executable, "-m", "sticktable", "replay", "1", "--journal", str(missing)],
        capture_output=True,
        text=True,
    )
    assert replayed.returncode == 1 and "no journal at" in replayed.stderr
    assert not missing.parent.exists()


def test_a_reader_never_sees_a_journal_half_created(tmp_path):
    """The web console's history reads the journal while `run` creates it: the schema is
    made in one transaction, so a reader sees no games, never "not a sticktable journal"."""
    import threading

    from sticktable.web.history import History

    failures: list[str] = []
    for i in range(30):
        path = tmp_path / f"j{i}.sqlite"
        history, done = History(path), threading.Event()

        def read(history=history, done=done) -> None:
            while not done.is_set():
                try:
                    history.games()
                except Exception as err:  # noqa: BLE001 - any failure is the finding
                    failures.append(f"{type(err).__name__}: {err}")

        reader = threading.Thread(target=read)
        reader.start()
        with Journal(path) as journal:
            journal.new_game({"game": "stick-stack", "players": ["Ann", "Bo"]}, source="sim")
        done.set()
        reader.join()
    assert not failures, failures[:3]


def test_an_empty_journal_file_has_no_games_for_the_console(tmp_path):
    from sticktable.web.history import History

    path = tmp_path / "j.sqlite"
    path.touch()
    assert History(path).games() == []
