"""Link benchmark: events from the real tablefw.link under MicroPython to the host's BoardLink
through a pty, with damaged bytes, cable pulls and board reboots on the way. Prints events sent,
delivered, lost, duplicated, gaps, board-to-host latency, and the host's decode throughput.
Then board-to-rules latency: events over a clean pty into the daemon's TableSession, each
interpreted by a rule set, applied to the game and written to a journal on disk (SQLite,
synchronous=FULL) before it is acknowledged, as in `sticktable run`.

    .venv/bin/python tests/bench/bench_link.py [--events 10000] [--byte-error 0.001]
        [--rate 2000] [--disconnects 3] [--reboots 3] [--rules-events 500] [--rules-rate 50]

`--byte-error` is the chance that any one byte is damaged (a flipped bit, a lost byte or an
inserted one), both ways. The default 0.001 damages about 5 % of the ~50-byte frames; the
literal "5 % of all bytes" is `--byte-error 0.05` (most frames then arrive broken).
"""

from __future__ import annotations

import argparse
import os
import select
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "host")]

from link_harness import FakeBoard, now_us, percentile, run_link, write_all  # noqa: E402

from sticktable.daemon import TableSession  # noqa: E402
from sticktable.engine import Display, Game, RuleSet, Standings, Turn, register  # noqa: E402
from sticktable.journal import Journal  # noqa: E402
from sticktable.link import PROTO, BoardLink, HostSession  # noqa: E402
from sticktable.link.codec import encode  # noqa: E402

HELLO = {
    "k": "hello",
    "s": 0,
    "u": 1,
    "proto": list(PROTO),
    "fw": "0",
    "board": "b",
    "boot": "12345678",
    "reset": "power",
    "seats": 4,
    "cells": 4,
}


def event_stream(n: int) -> bytes:
    return b"".join(
        encode({"k": "fell", "s": s, "t": 1000 + s, "n": 1, "g": 143}) for s in range(1, n + 1)
    )


def host_throughput(n: int = 200_000, chunk: int = 4096) -> float:
    """Messages/s through the host's decoder and session (one core, no I/O)."""
    frames = event_stream(n)
    session = HostSession(lambda frame: None, time.monotonic)
    session.feed(encode(HELLO))
    got = 0
    t0 = time.perf_counter()
    for i in range(0, len(frames), chunk):
        got += len(session.feed(frames[i : i + chunk]))
        session.commit()
    elapsed = time.perf_counter() - t0
    assert got == n, got
    return n / elapsed


def pty_throughput(n: int = 100_000) -> float:
    """Messages/s a BoardLink takes from a pty that a writer keeps full (poll() in a loop)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    frames = event_stream(n)
    stop = threading.Event()

    def board() -> None:  # answers the ping with the hello, then streams, draining host frames
        os.set_blocking(master, False)
        sent = -1
        while not stop.is_set():
            r, w, _ = select.select([master], [master] if sent >= 0 else [], [], 0.05)
            if r:
                try:
                    got = os.read(master, 65536)
                except OSError:
                    return
                if sent < 0 and b'"ping"' in got:
                    write_all(master, encode(HELLO), "the host")
                    sent = 0
            if w and sent < len(frames):
                sent += os.write(master, frames[sent : sent + 16384])

    thread = threading.Thread(target=board, daemon=True)
    thread.start()
    link = BoardLink.open(os.ttyname(slave), hello_timeout=5)
    got = 0
    t0 = time.perf_counter()
    try:
        while got < n and time.perf_counter() - t0 < 60:
            got += sum(1 for m in link.poll(0.01) if m["k"] == "fell")
        elapsed = time.perf_counter() - t0
    finally:
        stop.set()
        link.close()
        thread.join(2)
        os.close(master)
        os.close(slave)
    assert got == n, got
    return n / elapsed


def _tally_fall(state, event):
    state["fell"] += event["count"]


class Tally(RuleSet):
    """The smallest rule set: every `fell` fact is one applied event (the latency figure is the
    daemon's path, not a game's rule logic)."""

    name = "bench-tally"
    title = "Tally"
    phases = ("play",)
    handlers = {"fell": _tally_fall}

    def initial(self, header):
        return {"fell": 0}

    def check(self, state):
        pass

    def finished(self, state):
        return False

    def turn(self, state):
        return Turn("play")

    def standings(self, state):
        return Standings(finished=False, totals={"bench": state["fell"]}, winners=[])

    def legal_actions(self, state, player=None):
        return [{"type": "fell", "count": 1}]

    def view(self, state, player=None):
        return dict(state)

    def display(self, state):
        return Display(scores=(0,), scale=11, mode="play")

    def interpret(self, state, fact):
        return [{"type": "fell", "count": fact.get("n", 1)}] if fact.get("k") == "fell" else []


def rules_latency(n: int, rate: int, timeout: float = 120.0) -> dict:
    """Board event born -> delivered by BoardLink.poll() -> applied by TableSession and
    journaled (fsync'd) before the next poll acknowledges it; microseconds per event."""
    register(Tally())
    header = {"game": Tally.name, "players": ["bench"]}
    # The journal on the same disk as the real one (not a tmpfs /tmp): fsync cost included.
    # build/ is not in git: a fresh clone has none yet.
    (ROOT / "build").mkdir(exist_ok=True)
    with (
        tempfile.TemporaryDirectory(dir=ROOT / "build") as tmp,
        Journal(Path(tmp) / "j.sqlite") as journal,
    ):
        board = link = None
        try:
            board = FakeBoard(boot="bench001")
            link = BoardLink.open(board.path, hello_timeout=5)
            game_id = journal.new_game(header, "bench")
            session = TableSession(
                journal, game_id, Game(header), send=link.send, say=lambda _: None
            )
            session.on_board(link.hello)
            link.send("emit", n=n, rate=rate, stamp=1)
            to_host: list[float] = []
            to_rules: list[float] = []
            deadline = time.monotonic() + timeout
            while len(to_rules) < n and time.monotonic() < deadline:
                for msg in link.poll(0.005):
                    delivered = now_us()
                    if session.on_board(msg) and msg["k"] == "fell":
                        to_host.append(delivered - msg["w"])
                        to_rules.append(now_us() - msg["w"])
                    link.commit(msg)  # journaled: acknowledge it
        finally:
            if link is not None:
                link.close()
            if board is not None:
                board.close()  # the MicroPython process too: nothing left running
        applied = session.game.state["fell"]
        journaled = len(journal.events(game_id))
    return {
        "n": len(to_rules),
        "applied": applied,
        "journaled": journaled,
        "host_p50_ms": percentile(to_host, 50) / 1000,
        "host_p99_ms": percentile(to_host, 99) / 1000,
        "p50_ms": percentile(to_rules, 50) / 1000,
        "p99_ms": percentile(to_rules, 99) / 1000,
        "max_ms": max(to_rules, default=float("nan")) / 1000,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--byte-error", type=float, default=0.001)
    parser.add_argument("--rate", type=int, default=2000, help="board events/s")
    parser.add_argument("--disconnects", type=int, default=3)
    parser.add_argument("--reboots", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules-events", type=int, default=500)
    parser.add_argument("--rules-rate", type=int, default=50, help="board events/s")
    args = parser.parse_args()

    r = run_link(args.events, args.byte_error, args.rate, args.disconnects, args.reboots, args.seed)
    print(
        f"link over a pty: {args.events} events at {args.rate}/s, byte error "
        f"{args.byte_error:g} ({r['damaged_bytes']} of {r['wire_bytes']} bytes damaged), "
        f"{r['reconnects']} disconnects, {r['reboots']} reboots, {r['elapsed_s']:.1f} s"
    )
    print(
        f"  sent {r['sent']}  delivered {r['delivered']}  lost {r['lost']}  "
        f"duplicated {r['duplicated']}"
    )
    print(
        f"  gaps reported {r['gaps']} ({r['reboots']} reboots); events they report lost "
        f"{r['reported_lost']} (lost without a report: {r['lost'] - r['reported_lost']})"
    )
    print(
        f"  latency board->host p50 {r['p50_ms']:.1f} ms  p99 {r['p99_ms']:.1f} ms (all); "
        f"p50 {r['calm_p50_ms']:.1f} ms  p99 {r['calm_p99_ms']:.1f} ms over the "
        f"{r['calm_n']} events not caught in a cable pull or reboot"
    )
    print(
        f"  lines dropped {r['dropped_lines']}  bad CRC {r['bad_crc']}  resend requests "
        f"{r['naks']}  duplicates dropped by the host {r['host_dups']}"
    )
    print(
        f"host decode throughput: {host_throughput():,.0f} msgs/s (decoder + session, in "
        f"memory); {pty_throughput():,.0f} msgs/s through a pty into BoardLink.poll()"
    )
    q = rules_latency(args.rules_events, args.rules_rate)
    print(
        f"board-to-rules over a clean pty: {q['n']} events at {args.rules_rate}/s, each "
        f"interpreted, applied and journaled (fsync) by TableSession: applied {q['applied']}, "
        f"journaled {q['journaled']}"
    )
    print(
        f"  latency board->rules p50 {q['p50_ms']:.1f} ms  p99 {q['p99_ms']:.1f} ms  max "
        f"{q['max_ms']:.1f} ms (board->host alone: p50 {q['host_p50_ms']:.1f} ms  p99 "
        f"{q['host_p99_ms']:.1f} ms)"
    )
    ok = (
        r["duplicated"] == 0
        and r["gaps"] >= r["reboots"]
        and r["lost"] == r["reported_lost"]
        and not r["timed_out"]
        and q["n"] == q["applied"] == q["journaled"] == args.rules_events
    )
    print("result: " + ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
