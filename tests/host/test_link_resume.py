"""Exactly once across daemon restarts and board reboots: the four loss paths of issue 16.

Each test runs `sticktable run --port` (a real daemon process, killed with SIGKILL or stopped
with Ctrl-C, restarted with `--resume`) against a protocol-correct board on a pty
(tests/host/pty_board.py: the real tablefw.link), and checks the journal: every board event
journaled exactly once, or a gap with the exact count and a pause.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from pty_board import PtyBoard

TIMEOUT = 30.0
PLAYERS = "Ann,Bo"


class Daemon:
    """`sticktable run` as its own process, its output in a file, keys through a pipe."""

    def __init__(self, board: PtyBoard, journal, log, *args: str):
        self.log = log
        cmd = [sys.executable, "-m", "sticktable", "run", "--port", board.path]
        cmd += ["--journal", str(journal), *args]
        self._out = open(log, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=self._out, stderr=subprocess.STDOUT, text=True
        )

    def key(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self, sig=signal.SIGKILL) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            code = self.proc.wait(TIMEOUT)
        finally:
            self.proc.stdin.close()
            self._out.close()
        return code

    def output(self) -> str:
        return self.log.read_text()


def facts(journal) -> list[dict]:
    try:
        with sqlite3.connect(journal) as db:
            rows = db.execute("SELECT boot, seq, message, decision FROM facts ORDER BY id")
            return [
                {"boot": b, "seq": s, "message": json.loads(m), "decision": d}
                for b, s, m, d in rows
            ]
    except sqlite3.OperationalError:
        return []  # not created yet


def board_events(journal) -> list[tuple[str, int]]:
    """(boot, seq) of every board event journaled, in journal order."""
    return [
        (f["boot"], f["seq"])
        for f in facts(journal)
        if f["message"].get("src") is None and f["message"]["k"] not in ("hello", "hb", "raw")
    ]


def wait_for(condition, what: str, daemon: Daemon | None = None, timeout: float = TIMEOUT):
    deadline = time.monotonic() + timeout
    while not condition():
        if daemon is not None and not daemon.alive():
            raise AssertionError(f"the daemon exited while waiting for {what}: {daemon.output()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {timeout:g} s")
        time.sleep(0.01)


@pytest.fixture
def board():
    b = PtyBoard("b0000001")
    yield b
    b.close()


@pytest.fixture
def journal(tmp_path):
    return tmp_path / "journal.sqlite"


def test_loss_path_4_nothing_is_acknowledged_before_it_is_journaled(board, journal, tmp_path):
    # Ten events wait on the board; the daemon's ping brings the hello and the ten resends in
    # one write (its backlog). The daemon is killed the moment the board takes an ack.
    for _ in range(10):
        board.event()
    acked: list[int] = []
    first = Daemon(board, journal, tmp_path / "a.log", "--players", PLAYERS)

    def kill_on_ack(a: int) -> None:
        if a > 0 and not acked:
            first.proc.send_signal(signal.SIGKILL)
        acked.append(a)

    board.on_ack = kill_on_ack
    wait_for(lambda: acked and max(acked) > 0 or not first.alive(), "an ack")
    first.stop()
    board.on_ack = None
    journaled = board_events(journal)
    # Whatever the board was told is journaled is journaled.
    assert {("b0000001", s) for s in range(1, max(acked, default=0) + 1)} <= set(journaled)

    # The next daemon journals the rest, each event once.
    board.discard_wire()
    second = Daemon(board, journal, tmp_path / "b.log", "--resume")
    want = [("b0000001", s) for s in range(1, 11)]
    wait_for(lambda: set(want) <= set(board_events(journal)), "all ten events", second)
    wait_for(lambda: board.pending == 0, "the board's buffer emptied", second)
    second.stop(signal.SIGINT)
    assert sorted(board_events(journal)) == want
