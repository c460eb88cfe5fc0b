"""Tables and a house as the user runs them (`sticktable run --mqtt`, `sticktable house`), and
the comparison of their journals."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from sticktable.engine import Game
from sticktable.house.views import plain

REPO = Path(__file__).resolve().parents[2]
STICKTABLE = [sys.executable, "-m", "sticktable"]


def start_table(name: str, journal: Path, broker_url: str, credentials: Path, seed: int,
                speed: float = 0, players: str = "Ann,Bo") -> subprocess.Popen:  # fmt: skip
    return subprocess.Popen(
        [*STICKTABLE, "run", "--sim", "--speed", str(speed), "--seed", str(seed),
         "--players", players, "--journal", str(journal), "--mqtt", broker_url,
         "--mqtt-credentials", str(credentials), "--table", name],
        cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip


def start_house(journal: Path, broker_url: str, credentials: Path, *more: str) -> subprocess.Popen:
    return subprocess.Popen(
        [*STICKTABLE, "house", "--mqtt", broker_url, "--mqtt-credentials", str(credentials),
         "--journal", str(journal), *more],
        cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip


def wait_for_line(process: subprocess.Popen, start: str) -> str:
    """Read what a started command prints until a line that begins with `start`."""
    for line in process.stdout:
        if line.startswith(start):
            return line
    raise AssertionError(f"the command ended without printing {start!r}")


def stop(process: subprocess.Popen, sig=signal.SIGINT, timeout: float = 20) -> str:
    """Stop a command as Ctrl-C does (or with `sig`); returns what it printed. One that does
    not stop in time is killed: a test never leaves a process behind."""
    if process.poll() is None:
        process.send_signal(sig)
    try:
        out, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
    return out


def read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)


def table_games(journal: Path) -> dict[int, tuple[dict, list[dict]]]:
    """Every game of a table's journal: id -> (header, events)."""
    with read_only(journal) as db:
        games = db.execute("SELECT id, header FROM games ORDER BY id").fetchall()
        return {gid: (json.loads(header), _events(db, gid)) for gid, header in games}


def house_games(journal: Path) -> dict[tuple[str, int], tuple[dict, list[dict], bool]]:
    """Every game of the house journal: (table, the table's game id) -> (header, events,
    finished)."""
    if not journal.exists():
        return {}
    with read_only(journal) as db:
        try:
            rows = db.execute(
                "SELECT h.table_name, h.table_game, g.id, g.header, g.finished"
                " FROM house_games h JOIN games g ON g.id = h.game_id"
            ).fetchall()
        except sqlite3.OperationalError:
            return {}  # the house has not made its tables yet
        return {
            (table, tgame): (json.loads(header), _events(db, gid), finished is not None)
            for table, tgame, gid, header, finished in rows
        }


def _events(db: sqlite3.Connection, game_id: int) -> list[dict]:
    rows = db.execute(
        "SELECT idx, event FROM events WHERE game_id = ? ORDER BY idx", (game_id,)
    ).fetchall()
    assert [idx for idx, _ in rows] == list(range(len(rows))), "events stored out of order"
    return [json.loads(event) for _, event in rows]


def differences(tables: dict[str, Path], house: Path) -> list[str]:
    """What the house journal lacks or holds wrongly, compared with every table's journal."""
    stored = house_games(house)
    wrong = []
    expected_keys = set()
    for name, journal in tables.items():
        for gid, (header, events) in table_games(journal).items():
            expected_keys.add((name, gid))
            got = stored.get((name, gid))
            if got is None:
                wrong.append(f"{name} game {gid}: missing in the house")
            elif got[0] != header:
                wrong.append(f"{name} game {gid}: header differs")
            elif got[1] != events:
                wrong.append(f"{name} game {gid}: house has {len(got[1])} of {len(events)} events"
                             " or different ones")  # fmt: skip
    wrong += [f"{key}: in the house but at no table" for key in set(stored) - expected_keys]
    return wrong


def wait_until_equal(tables: dict[str, Path], house: Path, timeout: float = 60) -> list[str]:
    deadline = time.monotonic() + timeout
    while (wrong := differences(tables, house)) and time.monotonic() < deadline:
        time.sleep(0.5)
    return wrong


def get_json(url: str) -> object:
    """A JSON answer of the web console (what its pages are filled from)."""
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:
                return json.loads(answer.read())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def standings(header: dict, events: list[dict]) -> dict:
    return plain(Game(header, events).standings())
