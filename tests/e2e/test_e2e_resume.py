"""The daemon killed mid-game and restarted with --resume: nothing lost, nothing applied twice.

The firmware runs under MicroPython on the simulated table (it waits for the host's acks, as
a board whose daemon died keeps its unacknowledged events); `sticktable run --port` talks to
it like to a real board and is killed with SIGKILL halfway through the game.
"""

import signal
import sqlite3
import subprocess
import sys
import time

from journal_checks import assert_no_board_event_twice, assert_scored_as_scripted

from sticktable.sim.game import SimGame
from sticktable.sim.runner import SimTable

PLAYERS = ["Ann", "Bo", "Cy"]


def journaled_events(journal) -> int:
    try:
        with sqlite3.connect(journal) as db:
            return db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    except sqlite3.OperationalError:
        return 0  # not created yet


def test_killed_daemon_resumes_from_its_journal(tmp_path):
    journal = str(tmp_path / "journal.sqlite")
    script = SimGame(PLAYERS, seed=5)
    run = [sys.executable, "-m", "sticktable", "run", "--journal", journal]
    with SimTable(script.samples(), script.meta) as table:
        first = subprocess.Popen(
            [*run, "--port", table.port, "--players", ",".join(PLAYERS)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 120
        while journaled_events(journal) < 12 and time.monotonic() < deadline:
            assert first.poll() is None, first.stderr.read().decode()
            time.sleep(0.01)
        first.send_signal(signal.SIGKILL)  # a crash: no clean-up of any kind
        first.wait(10)
        first.stderr.close()
        killed_at = journaled_events(journal)
        assert killed_at >= 12

        second = subprocess.run(
            [*run, "--port", table.port, "--resume"], capture_output=True, text=True, timeout=300
        )
        assert second.returncode == 0, second.stdout[-2000:] + second.stderr[-2000:]

    assert_scored_as_scripted(journal, script)
    assert_no_board_event_twice(journal)
