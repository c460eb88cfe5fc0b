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
import time

import pytest
from daemon_process import Daemon
from pty_board import PtyBoard

from sticktable.journal import REFEREE_OK, Journal

TIMEOUT = 30.0
PLAYERS = "Ann,Bo"


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
        if daemon is not None and not daemon.alive:
            raise AssertionError(f"the daemon exited while waiting for {what}: {daemon.output()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {timeout:g} s")
        time.sleep(0.01)


@pytest.fixture
def board():
    b = PtyBoard("b0000001")
    try:
        yield b
    finally:
        Daemon.stop_all()
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
    first = Daemon(board.path, journal, tmp_path / "a.log", "--players", PLAYERS)

    def kill_on_ack(a: int) -> None:
        if a > 0 and not acked:
            first.proc.send_signal(signal.SIGKILL)
        acked.append(a)

    board.on_ack = kill_on_ack
    wait_for(lambda: acked and max(acked) > 0 or not first.alive, "an ack")
    first.stop()
    board.on_ack = None
    journaled = board_events(journal)
    # Whatever the board was told is journaled is journaled.
    assert {("b0000001", s) for s in range(1, max(acked, default=0) + 1)} <= set(journaled)

    # The next daemon journals the rest, each event once.
    board.discard_wire()
    second = Daemon(board.path, journal, tmp_path / "b.log", "--resume")
    want = [("b0000001", s) for s in range(1, 11)]
    wait_for(lambda: set(want) <= set(board_events(journal)), "all ten events", second)
    wait_for(lambda: board.pending == 0, "the board's buffer emptied", second)
    second.stop(signal.SIGINT)
    assert sorted(board_events(journal)) == want


def start_game(board: PtyBoard, journal, log, events: int = 3) -> Daemon:
    """Daemon A: a new game, the board's first `events` events journaled and acknowledged."""
    first = Daemon(board.path, journal, log, "--players", PLAYERS)
    for _ in range(events):
        board.event()
    boot = board.link._boot
    want = {(boot, s) for s in range(1, events + 1)}
    wait_for(lambda: want <= set(board_events(journal)), f"events 1..{events}", first)
    wait_for(lambda: board.pending == 0, "the acks", first)
    return first


def hellos(journal) -> list[dict]:
    return [f["message"] for f in facts(journal) if f["message"]["k"] == "hello"]


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGINT], ids=["sigkill", "ctrl-c"])
def test_loss_path_1_a_journaled_hello_does_not_move_the_resume_position(
    board, journal, tmp_path, stop
):
    start_game(board, journal, tmp_path / "a.log").stop()  # daemon A: 1..3, then killed
    for _ in range(3):
        board.event()  # 4..6 sensed while no daemon listens
    board.mute = True  # their resends do not get through to daemon B
    board.discard_wire()
    second = Daemon(board.path, journal, tmp_path / "b.log", "--resume")
    wait_for(lambda: len(hellos(journal)) == 2, "daemon B's hello fact", second)
    assert hellos(journal)[-1]["s"] == 6  # the hello says 6: the journal has only 1..3
    second.stop(stop)

    board.mute = False
    board.discard_wire()
    third = Daemon(board.path, journal, tmp_path / "c.log", "--resume")
    want = [("b0000001", s) for s in range(1, 7)]
    wait_for(lambda: set(want) <= set(board_events(journal)), "events 4..6", third, timeout=15)
    wait_for(lambda: board.pending == 0, "the acks", third)
    third.stop(signal.SIGINT)
    assert sorted(board_events(journal)) == want
    assert not [f for f in facts(journal) if f["message"]["k"] == "gap"]


@pytest.mark.parametrize("kept", [True, False], ids=["prev", "no-prev"])
def test_loss_path_2_a_board_rebooted_while_the_daemon_was_down(board, journal, tmp_path, kept):
    start_game(board, journal, tmp_path / "a.log").stop()  # daemon A: 1..3, then killed
    board.event("fell")
    board.event("placed", t=board.ms(), g=81)  # 4, 5: never acknowledged
    # The board resets; what it kept in its watchdog scratch registers, if anything: the old
    # boot, its last event number, the last one acknowledged, the kinds not acknowledged.
    board.boot("b0000002", prev=["b0000001", 5, 3, ["placed", "fell"]] if kept else None)
    board.discard_wire()
    second = Daemon(board.path, journal, tmp_path / "b.log", "--resume")
    wait_for(lambda: any(f["message"]["k"] == "gap" for f in facts(journal)), "a gap", second)
    board.event()  # the new boot's first event: play is paused
    wait_for(lambda: ("b0000002", 1) in board_events(journal), "the new boot's event", second)
    second.stop(signal.SIGINT)

    (gap,) = [f["message"] for f in facts(journal) if f["message"]["k"] == "gap"]
    assert (gap["old_boot"], gap["boot"], gap["why"]) == ("b0000001", "b0000002", "reboot")
    if kept:
        assert gap["n"] == 2 and gap["exact"] is True
        assert gap["kinds"] == ["placed", "fell"]
    else:
        assert gap["exact"] is False  # the count is unknown: the referee checks the tower
    (new,) = [f for f in facts(journal) if f["boot"] == "b0000002" and f["seq"] == 1]
    assert new["decision"].startswith("held")
    assert "referee, check the tower" in second.output()


def test_the_resume_position_and_the_pause_come_from_the_journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        game = j.new_game({"game": "stick-stack", "players": ["A", "B"]}, "board")
        hello = {"k": "hello", "s": 9, "u": 3, "boot": "b1", "proto": [1, 1]}
        assert j.board_position(game) is None
        j.record_fact(game, hello, "link: board", "b1")
        assert j.board_position(game) == ("b1", 0)  # the game's first boot, not the hello's s
        j.record_fact(game, dict(hello, boot="b0"), "link: board", "b0")
        assert j.board_position(game) == ("b1", 0)  # a later hello moves nothing
        j.record_fact(game, {"k": "fell", "s": 2, "n": 1}, "no rule event", "b1")
        j.record_fact(game, {"k": "hb", "s": 9}, "link", "b1")
        j.record_fact(game, {"k": "link", "up": False, "src": "host"}, "link: down", "b1")
        assert j.board_position(game) == ("b1", 2)
        assert j.holds(game) == {}
        gap = {"k": "gap", "src": "host", "why": "reboot", "n": 3, "boot": "b2", "exact": True}
        j.record_fact(game, dict(gap, old_boot="b1", kinds=["fell"]), "link: gap", "b1")
        assert j.board_position(game) == ("b2", 0)  # the old boot is closed, its loss counted
        assert j.holds(game) == {"gap": "3 board event(s) lost (reboot; fell among them)"}
        j.record_fact(game, {"k": "fault", "s": 1, "what": "cells", "ok": False}, "link", "b2")
        assert j.board_position(game) == ("b2", 1) and set(j.holds(game)) == {"gap", "fault:cells"}
        j.record_fact(game, REFEREE_OK, "referee: play goes on", "b2")
        assert j.holds(game) == {}
        j.record_fact(game, {"k": "fault", "s": 2, "what": "cells", "ok": False}, "link", "b2")
        j.record_fact(game, {"k": "fault", "s": 3, "what": "cells", "ok": True}, "link", "b2")
        assert j.holds(game) == {} and j.board_position(game) == ("b2", 3)


def decision(journal, boot: str, seq: int) -> str:
    (fact,) = [
        f
        for f in facts(journal)
        if (f["boot"], f["seq"]) == (boot, seq) and f["message"]["k"] not in ("hello", "hb")
    ]
    return fact["decision"]


def test_loss_path_3_a_pause_survives_a_daemon_restart(board, journal, tmp_path):
    first = start_game(board, journal, tmp_path / "a.log")
    board.boot("b0000002", prev=["b0000001", 3, 3, []])  # a reboot mid-game: play pauses
    wait_for(lambda: any(f["message"]["k"] == "gap" for f in facts(journal)), "the gap", first)
    first.stop()  # killed while paused

    second = Daemon(board.path, journal, tmp_path / "b.log", "--resume")
    board.event()
    wait_for(lambda: ("b0000002", 1) in board_events(journal), "an event", second)
    assert decision(journal, "b0000002", 1).startswith("held")  # still paused
    second.key("ok")  # the referee has checked the tower
    wait_for(lambda: any(f["message"]["k"] == "ok" for f in facts(journal)), "the ok", second)
    board.event()
    wait_for(lambda: ("b0000002", 2) in board_events(journal), "an event", second)
    assert not decision(journal, "b0000002", 2).startswith("held")
    second.stop(signal.SIGINT)

    third = Daemon(board.path, journal, tmp_path / "c.log", "--resume")  # the ok is journaled too
    board.event()
    wait_for(lambda: ("b0000002", 3) in board_events(journal), "an event", third)
    assert not decision(journal, "b0000002", 3).startswith("held")
    third.stop(signal.SIGINT)
    assert "play is paused" in second.output() and "play is paused" not in third.output()


def test_resuming_on_another_board_is_refused(board, journal, tmp_path):
    # The game was played on `pty-board`; another table's board now answers on the port.
    start_game(board, journal, tmp_path / "a.log").stop()
    before = facts(journal)
    other = PtyBoard("c0000001", board="other-board")
    try:
        acked: list[int] = []
        other.on_ack = acked.append
        other.event()
        other.event()  # its events are no part of this game
        second = Daemon(other.path, journal, tmp_path / "b.log", "--resume")
        wait_for(lambda: not second.alive, "the daemon to refuse the board")
        assert second.stop() == 1
        said = second.output().strip().splitlines()
        refused = f"sticktable: board on {other.path}: another board (other-board)"
        assert said[-1].startswith(refused)
        assert "instead of pty-board, the board this game is played on" in said[-1]
        assert not any("Traceback" in line for line in said)
        assert facts(journal) == before  # nothing journaled ...
        assert acked == [] and other.pending == 2  # ... nor acknowledged to the other board
    finally:
        other.close()
