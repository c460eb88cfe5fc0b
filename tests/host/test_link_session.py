"""Both ends of the link in one process (board: tablefw.link under CPython; host: HostSession),
joined by an in-memory wire that can lose, corrupt, duplicate and reorder frames."""

import random

import pytest

from sticktable.link import HostSession, ProtocolMismatch
from sticktable.link.codec import Decoder, encode
from tablefw.link import Link

INFO = {"fw": "0.1.0", "board": "t1", "boot": "aaaa0001", "reset": "power", "seats": 4, "cells": 4}


class Pair:
    """A board Link and a HostSession; frames pass through `damage` in both directions."""

    def __init__(self, size=64, damage=None, boot="aaaa0001", resume=None, handler=None):
        self.ms = 0
        self.to_host: list[bytes] = []
        self.to_board: list[bytes] = []
        self.damage = damage or (lambda frame: [frame])
        self.commands: list[dict] = []
        self.host = HostSession(self.to_board.append, lambda: self.ms / 1000, resume=resume)
        self.handler = handler or self._run
        self.boot(boot, size)
        self.got: list[dict] = []

    def _run(self, msg):
        self.commands.append(msg)

    def boot(self, boot, size=64):
        info = dict(INFO, boot=boot)
        self.board = Link(self.to_host.append, lambda m: self.handler(m), info, size=size)
        self.board.tick(self.ms)
        self.board.hello()

    def step(self, ms=10):
        """Move time on and pass everything on the wire; the host commits what it got."""
        self.ms += ms
        self.board.tick(self.ms)
        frames, self.to_host[:] = self.to_host[:], []
        for frame in frames:
            for piece in self.damage(frame):
                self.got += self.host.feed(piece)
        self.host.commit()
        self.got += self.host.tick()
        frames, self.to_board[:] = self.to_board[:], []
        for frame in frames:
            for piece in self.damage(frame):
                self.board.feed(piece)

    def run(self, steps, ms=10):
        for _ in range(steps):
            self.step(ms)

    def events(self, kind="fell"):
        return [m for m in self.got if m["k"] == kind]


def lossy(seed, p_lose=0.1, p_corrupt=0.1, p_dup=0.05):
    rng = random.Random(seed)

    def damage(frame):
        r = rng.random()
        if r < p_lose:
            return []
        if r < p_lose + p_corrupt:
            pos = rng.randrange(len(frame))
            return [frame[:pos] + bytes([frame[pos] ^ 0x20]) + frame[pos + 1 :]]
        if r < p_lose + p_corrupt + p_dup:
            return [frame, frame]
        return [frame]

    return damage


def test_every_event_once_in_order_over_a_bad_wire():
    pair = Pair(damage=lossy(1))
    pair.run(5)
    for i in range(300):
        assert pair.board.event("fell", t=i, n=1, i=i)
        pair.step()
    pair.run(300)
    assert [m["i"] for m in pair.events()] == list(range(300))
    assert pair.board.pending == 0
    stats = pair.host.stats()
    assert stats["duplicates"] > 0 and stats["dropped"] > 0 and stats["lost"] == 0


def test_commands_answered_once_over_a_bad_wire():
    pair = Pair(damage=lossy(2, p_lose=0.2))
    pair.run(5)
    ids = [pair.host.send("arm") for _ in range(20)]
    pair.run(400)
    assert all(pair.host.results[i] == "ok" for i in ids)
    assert sorted(m["id"] for m in pair.commands) == ids  # none run twice


def test_duplicates_and_reordering_delivered_once_in_order():
    pair = Pair()
    pair.run(3)
    frames = [encode({"k": "fell", "s": s, "n": 1}) for s in (1, 2, 3)]
    for frame in (frames[1], frames[0], frames[0], frames[2], frames[1]):
        pair.got += pair.host.feed(frame)
    assert [m["s"] for m in pair.events()] == [1, 2, 3]
    assert pair.host.counts["duplicates"] == 2 and pair.host.counts["reordered"] == 1


def test_host_acks_only_what_was_committed():
    pair = Pair()
    pair.run(3)
    pair.board.event("fell", n=1)
    pair.host.feed(b"".join(pair.to_host))
    pair.to_host.clear()
    acks = [Decoder().feed(f)[0] for f in pair.to_board]
    assert all(a["a"] == 0 for a in acks if a["k"] == "ack")
    pair.host.commit()
    assert Decoder().feed(pair.to_board[-1])[0]["a"] == 1


def test_board_overflow_is_reported_as_a_gap_event():
    pair = Pair(size=4)
    pair.run(3)
    kept = [pair.board.event("fell", n=1, i=i) for i in range(10)]
    assert kept == [True] * 4 + [False] * 6
    pair.run(20)
    assert [m["k"] for m in pair.got if m["k"] in ("fell", "gap")] == ["fell"] * 4 + ["gap"]
    assert pair.events("gap")[0]["n"] == 6
    assert pair.host.counts["lost"] == 6


def test_reboot_reports_a_gap_and_restores_the_display():
    pair = Pair()
    pair.run(3)
    show = pair.host.send("show", sc=[1, 2], mode="play")
    pair.run(3)
    assert pair.host.results[show] == "ok"
    pair.damage = lambda frame: [frame] if b'"hb"' in frame else []  # only heartbeats pass
    pair.board.event("fell", n=1)
    pair.board.event("fell", n=1)
    pair.run(300)  # the events are lost (resent in vain), a heartbeat says s=2
    pair.damage = lambda frame: [frame]
    pair.commands.clear()
    pair.boot("bbbb0002")  # reboot: the two events are gone
    pair.run(10)
    gap = pair.events("gap")[0]
    assert gap["why"] == "reboot" and gap["n"] == 2 and gap["boot"] == "bbbb0002"
    assert pair.events("hello")[-1]["boot"] == "bbbb0002"
    assert [c["k"] for c in pair.commands] == ["show"]  # display restored on the new boot
    pair.board.event("fell", n=1, i=99)
    pair.run(3)
    assert pair.events()[-1]["i"] == 99


def test_a_command_run_but_unanswered_before_a_reboot_runs_again_on_the_new_boot():
    # At-least-once across a reboot: the host cannot tell "never got it" from "answer lost",
    # and the new boot's reply cache is empty. Right for show/stream (the new boot shows and
    # streams nothing); why the fake board's test-only commands name the boot they are for.
    pair = Pair()
    pair.run(3)
    pair.damage = lambda frame: [] if b'"k":"ack"' in frame and b'"id"' in frame else [frame]
    show = pair.host.send("show", sc=[3, 1], mode="play")
    pair.run(100)  # resent for a second: run once, answered from the reply cache, never heard
    assert [c["id"] for c in pair.commands] == [show] and pair.host.results.get(show) is None
    pair.damage = lambda frame: [frame]
    pair.boot("bbbb0002")
    pair.run(10)
    assert [c["id"] for c in pair.commands] == [show, show]  # the same id, once per boot
    assert pair.host.results[show] == "ok"
    assert pair.events() == [] and pair.events("gap")[0]["n"] == 0


def test_stale_acks_from_an_earlier_boot_are_ignored():
    board_out = []
    link = Link(board_out.append, lambda m: None, dict(INFO, boot="cccc0003"))
    link.tick(0)
    link.event("fell", n=1)
    link.feed(encode({"k": "ack", "s": 0, "a": 1, "b": "aaaa0001"}))  # other boot
    link.feed(encode({"k": "ack", "s": 0, "a": 7, "b": "cccc0003"}))  # beyond what it sent
    assert link.pending == 1
    link.feed(encode({"k": "ack", "s": 0, "a": 1, "b": "cccc0003"}))
    assert link.pending == 0


def test_resume_skips_journaled_events_and_reports_unjournaled_acked_ones():
    pair = Pair(resume=("aaaa0001", 2))
    for i in range(5):
        pair.board.event("fell", n=1, i=i)
    pair.run(10)
    assert [m["s"] for m in pair.events()] == [3, 4, 5]
    later = Pair(resume=("aaaa0001", 2))  # its hello (u=1) is stale by the time it is read:
    later.board.seq = 6  # 3..6 were acked by an earlier host run that did not journal them
    later.board.event("fell", n=1)
    later.host.ping()  # the fresh hello says u=7
    later.run(10)
    gap = later.events("gap")[0]
    assert gap["n"] == 4 and [m["s"] for m in later.events()] == [7]


def test_hello_repeated_until_acked_and_ping_answered():
    out = []
    link = Link(out.append, lambda m: None, INFO)
    link.tick(0)
    link.hello()
    for t in range(0, 3000, 50):
        link.tick(t)
    hellos = [m for f in out for m in Decoder().feed(f) if m["k"] == "hello"]
    assert len(hellos) >= 3
    out.clear()
    link.feed(encode({"k": "ack", "s": 0, "a": 0, "b": INFO["boot"]}))
    for t in range(3000, 8000, 50):
        link.tick(t)
    assert not [f for f in out if b'"hello"' in f]
    link.feed(encode({"k": "ping", "s": 0}))
    assert b'"hello"' in out[-1]


def test_repeated_command_runs_once_and_errors_are_answered():
    calls = []

    def handler(msg):
        calls.append(msg["k"])
        if msg["k"] == "arm":
            raise OSError("i2c timeout")
        return "no such seat" if msg.get("seat") == 9 else None

    out = []
    link = Link(out.append, handler, INFO)
    link.tick(0)
    replies = []
    for msg in (
        {"k": "show", "s": 1, "id": 5},
        {"k": "show", "s": 1, "id": 5},
        {"k": "arm", "s": 2, "id": 6},
        {"k": "show", "s": 3, "id": 7, "seat": 9},
        {"k": "launch", "s": 4, "id": 8},
        {"k": "show", "s": 5},
    ):
        out.clear()
        link.feed(encode(msg))
        replies.append([m for f in out for m in Decoder().feed(f)])
    assert calls == ["show", "arm", "show"]
    assert [r[0]["k"] for r in replies[:5]] == ["ack", "ack", "err", "err", "err"]
    assert replies[2][0]["why"] == "OSError: i2c timeout"
    assert replies[3][0]["why"] == "no such seat"
    assert "unknown command" in replies[4][0]["why"]
    assert replies[5] == []  # a command without an id cannot be answered


def test_protocol_versions():
    out = []
    host = HostSession(out.append, lambda: 0.0)
    host.feed(encode(dict(INFO, k="hello", s=0, u=1, proto=[1, 4])))
    assert host.hello and "1.4" in host.warnings[0]
    other = HostSession(out.append, lambda: 0.0)
    with pytest.raises(ProtocolMismatch, match="protocol 2.0"):
        other.feed(encode(dict(INFO, k="hello", s=0, u=1, proto=[2, 0])))


def test_newer_show_supersedes_an_unanswered_one():
    pair = Pair(damage=lambda frame: [])  # nothing gets through
    first = pair.host.send("show", sc=[1])
    second = pair.host.send("show", sc=[2])
    assert pair.host.results[first] == "superseded" and list(pair.host.pending) == [second]


def test_board_silence_reported_and_recovered():
    pair = Pair()
    pair.run(5)
    quiet = Pair.step.__get__(pair)
    for _ in range(30):  # 3 s with the board not ticking (stuck loop)
        pair.ms += 100
        pair.got += pair.host.tick()
    links = [m for m in pair.got if m["k"] == "link"]
    assert links == [{"k": "link", "up": False, "src": "host", "why": "board silent for 2 s"}]
    quiet()
    assert [m["up"] for m in pair.got if m["k"] == "link"] == [False, True]


def test_new_boot_events_never_taken_for_the_old_boots():
    pair = Pair()
    pair.run(3)
    for i in range(3):
        pair.board.event("fell", n=1, i=i)
    pair.run(3)
    pair.damage = lambda frame: [] if b'"hello"' in frame else [frame]  # hellos lost...
    pair.boot("bbbb0002")
    for i in range(10, 16):  # s = 1..6: s 4..6 must not pass for events of the old boot
        pair.board.event("fell", n=1, i=i)
    pair.run(1)
    assert [m["i"] for m in pair.events()] == [0, 1, 2]
    pair.damage = lambda frame: [frame]  # ...until now
    pair.run(100)
    assert [m["i"] for m in pair.events()] == [0, 1, 2, 10, 11, 12, 13, 14, 15]
    assert pair.events("gap")[0]["n"] == 0


def test_reboot_gap_is_exact_when_the_board_kept_its_last_seq():
    pair = Pair()
    pair.run(3)
    pair.board.event("fell", n=1)
    pair.run(3)
    pair.damage = lambda frame: []  # the next three events never make it out, nor any hb
    for _ in range(3):
        pair.board.event("fell", n=1)
    pair.run(3)
    pair.damage = lambda frame: [frame]
    pair.board = Link(
        pair.to_host.append, pair._run, dict(INFO, boot="bbbb0002", prev=["aaaa0001", 4])
    )
    pair.board.tick(pair.ms)
    pair.board.hello()
    pair.run(3)
    assert pair.events("gap")[0]["n"] == 3


def test_resend_request_gets_exactly_the_hole():
    out = []
    link = Link(out.append, lambda m: None, INFO)
    link.tick(0)
    link.feed(encode({"k": "ack", "s": 0, "a": 0, "b": INFO["boot"]}))
    for i in range(6):
        link.event("fell", n=1, i=i)
    out.clear()
    link.feed(encode({"k": "ack", "s": 0, "a": 1, "b": INFO["boot"], "m": 3, "r": 2}))
    link.tick(5)
    assert [Decoder().feed(f)[0]["s"] for f in out] == [3, 4]


def test_a_lost_last_event_is_recovered_long_before_the_resend_timeout():
    lost = [True]

    def lose_it_once(frame):
        if b'"i":7' in frame and lost[0]:
            lost[0] = False
            return []
        return [frame]

    pair = Pair(damage=lose_it_once)
    pair.run(3)
    pair.board.event("fell", n=1, i=7)  # the last event for a while, and it is lost
    for _ in range(5):  # 50 ms: the tail heartbeat (20 ms) tells the host, which asks again
        pair.step(10)
    assert [m["i"] for m in pair.events()] == [7]
    assert pair.board.counts["resent"] == 1


@pytest.mark.parametrize("prev", [["aaaa0001", 7, 4, ["fell"]], None], ids=["prev", "no-prev"])
def test_resume_against_a_board_that_rebooted_meanwhile_reports_the_gap(prev):
    # The journal has aaaa0001 up to 5; the board restarted while no host listened.
    pair = Pair(resume=("aaaa0001", 5), boot="bbbb0002")
    if prev is not None:
        pair.to_host.clear()  # the hello again, with what the board kept across the reset
        pair.board._info["prev"] = prev
        pair.board.hello()
    pair.board.event("fell", n=1)
    pair.run(10)
    (gap,) = pair.events("gap")
    assert (gap["old_boot"], gap["boot"]) == ("aaaa0001", "bbbb0002")
    assert (gap["n"], gap["exact"]) == ((2, True) if prev else (0, False))
    assert gap.get("kinds") == (["fell"] if prev else None)
    assert [m["s"] for m in pair.events()] == [1]


def test_another_board_on_the_port_is_refused_never_acked():
    pair = Pair()
    pair.run(5)
    pair.board = Link(pair.to_host.append, lambda m: None, dict(INFO, board="t2", boot="cccc0003"))
    pair.board.event("fell", n=1)
    pair.board.hello()
    with pytest.raises(ProtocolMismatch, match="another board"):
        pair.run(5)
    assert pair.board.pending == 1  # nothing of it was acknowledged
