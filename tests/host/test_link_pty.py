"""The link over a real pty: the host's BoardLink (pyserial) against a fake board running the
real tablefw.link under MicroPython (tests/host/fake_board.py)."""

import logging
import os
import threading
import time

import pytest
from link_harness import FakeBoard, collect, events, run_link

from sticktable.errors import UserError
from sticktable.link import PROTO, BoardLink
from sticktable.link.codec import encode


@pytest.fixture
def board():
    fake = FakeBoard()
    yield fake
    err = fake.close()
    assert "Traceback" not in err, err


@pytest.fixture
def link(board):
    link = BoardLink.open(board.path)
    yield link
    link.close()


def indices(messages):
    return [m["i"] for m in events(messages)]


def test_hello_and_events_in_order(board, link):
    assert link.hello["proto"] == [1, 3] and link.hello["boot"] == "b0070001"
    link.send("emit", n=40)
    got = collect(link, lambda g: len(events(g)) >= 40)
    assert indices(got) == list(range(40))
    assert [m["s"] for m in events(got)] == list(range(1, 41))


def test_a_repeated_hello_is_not_delivered_again(board):
    time.sleep(0.6)  # the board repeats its hello until acknowledged: several wait in the pty
    link = BoardLink.open(board.path)
    try:
        got = collect(link, lambda g: False, timeout=0.6)
    finally:
        link.close()
    assert link.hello["boot"] == "b0070001"
    assert [m for m in got if m["k"] == "hello"] == []  # the daemon has it as link.hello


def test_commands_acked_and_refused(board, link):
    ok = link.send("show", sc=[1, 2, 3], scale=11, turn=0, mode="play", win=[], mk=[0, 0, 0])
    bad = link.send("fail")
    got = collect(link, lambda g: link.result(ok) and link.result(bad))
    assert link.result(ok) == "ok"
    assert link.result(bad) == "err: cannot do that"
    assert [m for m in got if m["k"] == "err"][0]["cmd"] == "fail"


def test_garbage_both_ways_crashes_nobody(board, link):
    link.send("noise")  # the board writes banners, tracebacks, half and bad frames
    board.to_host(b'\x00\xffjunk~{"k":"fell"*\n' + b"z" * 2000 + b"\n")
    board.to_board(b'~{"k":"show","s":1,"id":1}*00000000\n' + b"\xff" * 3000 + b"~~~\n")
    board.to_board(encode({"k": "ack", "s": 0, "a": 10**9, "b": "b0070001"}))  # impossible ack
    half = encode({"k": "arm", "s": 9, "id": 99})
    board.to_board(half[:10])  # half a command, then the rest of the line is garbage
    link.send("emit", n=25)
    got = collect(link, lambda g: len(events(g)) >= 25)
    assert indices(got) == list(range(25))
    # The board's own noise may be lost to a full pty (its writes never block, like a UART's),
    # so count only the two junk lines this test wrote itself.
    assert link.stats()["dropped"] >= 2
    cid = link.send("arm")
    collect(link, lambda g: link.result(cid), 5)
    assert link.result(cid) == "ok"


def test_duplicated_frames_on_the_wire_delivered_once(board, link):
    link.send("emit", n=5)
    got = collect(link, lambda g: len(events(g)) >= 5)
    replay = b"".join(encode(m) for m in events(got))
    board.to_host(replay + replay)  # every event again, twice
    link.send("emit", n=5)
    collect(link, lambda g: len(events(g)) >= 10, into=got)
    assert indices(got) == list(range(10))
    assert link.stats()["duplicates"] >= 10


def test_port_closed_and_reopened_mid_stream(board, link):
    link.send("emit", n=150)
    got = collect(link, lambda g: len(events(g)) >= 20)
    link.reconnect()  # the cable is pulled and plugged back in while events flow
    collect(link, lambda g: len(events(g)) >= 60, into=got)
    link.close()
    time.sleep(0.3)  # the board keeps producing into its buffer with nobody listening
    collect(link, lambda g: len(events(g)) >= 150, into=got)
    assert indices(got) == list(range(150))
    assert link.reconnects == 2


def test_board_reboot_reports_a_gap_and_restores_display(board, link):
    show = link.send("show", sc=[4, 0], scale=11, turn=1, mode="play", win=[], mk=[])
    link.send("emit", n=3)
    got = collect(link, lambda g: len(events(g)) >= 3 and link.result(show))
    link.send("reboot")
    assert board.wait_exit() == 3
    board.start("b0070002", first_i=100)
    collect(link, lambda g: any(m["k"] == "gap" for m in g), into=got)
    gap = [m for m in got if m["k"] == "gap"][0]
    assert gap["why"] == "reboot" and gap["boot"] == "b0070002" and gap["old_boot"] == "b0070001"
    assert link.hello["boot"] == "b0070002"
    link.send("emit", n=3)
    collect(link, lambda g: len(events(g)) >= 6, into=got)
    assert indices(got) == [0, 1, 2, 100, 101, 102]
    assert link.stats()["reboots"] == 1


def test_board_overflow_reported_as_gap(board, link):
    link.send("emit", n=100, now=1)  # more than its 64-event buffer at once
    got = collect(link, lambda g: any(m["k"] == "gap" for m in g))
    assert indices(got) == list(range(64))
    assert [m["n"] for m in got if m["k"] == "gap"] == [36]


def test_stuck_board_reported_then_recovered(board, link):
    link.send("hang", ms=2600)
    got = collect(link, lambda g: [m.get("up") for m in g if m["k"] == "link"] == [False, True])
    assert [m.get("up") for m in got if m["k"] == "link"] == [False, True]
    link.send("emit", n=3)
    assert indices(collect(link, lambda g: len(events(g)) >= 3)) == [0, 1, 2]


def later(fd: int, data: bytes, delay: float = 0.15) -> None:
    """Write once the host has opened the port (opening flushes what was there before)."""
    threading.Timer(delay, os.write, (fd, data)).start()


def test_no_hello_is_a_one_line_error():
    master, slave = os.openpty()
    try:
        path = os.ttyname(slave)
        with pytest.raises(UserError, match=r"no hello from the board on .* within 0.3 s: nothing"):
            BoardLink.open(path, hello_timeout=0.3)
        later(master, b"MicroPython v1.29.0\r\n>>> " * 10)
        with pytest.raises(UserError, match="none of them a protocol frame") as err:
            BoardLink.open(path, hello_timeout=0.3)
        assert "\n" not in str(err.value)
    finally:
        os.close(master)
        os.close(slave)


def test_protocol_major_refused_minor_warned(caplog):
    master, slave = os.openpty()
    hello = {
        "k": "hello",
        "s": 0,
        "u": 1,
        "fw": "9",
        "board": "x",
        "boot": "00000001",
        "reset": "power",
        "seats": 4,
        "cells": 4,
    }
    try:
        path = os.ttyname(slave)
        later(master, encode(dict(hello, proto=[2, 0])))
        with pytest.raises(
            UserError, match=f"protocol 2.0, this host speaks {PROTO[0]}.{PROTO[1]}"
        ):
            BoardLink.open(path, hello_timeout=1)
        later(master, encode(dict(hello, proto=[1, 7])))
        with caplog.at_level(logging.WARNING):
            BoardLink.open(path, hello_timeout=1).close()
        assert "1.7" in caplog.text
    finally:
        os.close(master)
        os.close(slave)


def test_missing_and_busy_ports(board, link):
    with pytest.raises(UserError, match="cannot open /dev/nonexistent-board: no such port"):
        BoardLink.open("/dev/nonexistent-board")
    with pytest.raises(UserError, match="busy"):
        BoardLink.open(board.path)


def test_damaged_wire_cable_pull_and_reboot_lose_and_double_nothing_unreported():
    # The link benchmark in small: every event arrives once, or is counted in a reboot's gap.
    r = run_link(600, byte_error=0.002, rate=2000, disconnects=1, reboots=1, seed=5, timeout=60)
    assert r["sent"] == 600 and not r["timed_out"]
    assert r["duplicated"] == 0
    assert r["lost"] == r["reported_lost"] and r["delivered"] + r["lost"] == 600
    assert r["gaps"] == r["reboots"] == 1 and r["reconnects"] == 1
    assert r["bad_crc"] > 0  # the wire really was damaged


def test_restarted_daemon_resumes_without_applying_an_event_twice(board):
    first = BoardLink.open(board.path)
    first.send("emit", n=5)
    got: list[dict] = []
    deadline = time.monotonic() + 10
    while len(events(got)) < 5 and time.monotonic() < deadline:
        got += first.poll(0.02)
    # The daemon journaled all 5, then died before it could commit() (acknowledge) them.
    first.close()
    resume = (first.hello["boot"], events(got)[-1]["s"])
    second = BoardLink.open(board.path, resume=resume)
    try:
        second.send("emit", n=2)
        again = collect(second, lambda g: len(events(g)) >= 2)
        assert indices(again) == [5, 6]
        assert second.stats()["duplicates"] >= 1  # the unacked batch came again, was dropped
        assert not [m for m in again if m["k"] == "gap"]
    finally:
        second.close()


def test_vanished_port_reported_and_retried_without_crashing():
    fake = FakeBoard()
    link = BoardLink.open(fake.path)
    try:
        fake.close()  # the board and its port are gone (USB unplugged)
        got = collect(link, lambda g: any(m["k"] == "link" for m in g), timeout=5)
        down = [m for m in got if m["k"] == "link"][0]
        assert down["up"] is False and "lost" in down["why"]
        collect(link, lambda g: False, timeout=0.5)  # keeps retrying, with back-off, quietly
        assert not link.connected and link.reconnects == 0
    finally:
        link.close()


def test_board_found_by_usb_id(monkeypatch):
    from types import SimpleNamespace

    from sticktable.link import port

    ports = [
        SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001, serial_number="x"),
        SimpleNamespace(device="/dev/ttyACM3", vid=0x2E8A, pid=0x0005, serial_number="E6"),
    ]
    monkeypatch.setattr(port.list_ports, "comports", lambda: ports)
    assert port.find_board() == "/dev/ttyACM3"
    assert port.find_board("E6") == "/dev/ttyACM3"
    with pytest.raises(UserError, match="no board with serial number F7 found"):
        port.find_board("F7")
    ports.append(SimpleNamespace(device="/dev/ttyACM4", vid=0x2E8A, pid=0x0005, serial_number="F7"))
    with pytest.raises(UserError, match="several boards"):
        port.find_board()
