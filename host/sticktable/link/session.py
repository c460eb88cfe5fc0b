"""Host side of the protocol (firmware/PROTOCOL.md) without any I/O: frames in, messages out.

`HostSession` turns decoded board frames into the messages the daemon sees (board events once
each, in seq order; a new boot's hello; gaps; command errors) and produces the host's frames
(cumulative acks that double as heartbeats, commands with ids, resends, pings). `BoardLink`
wraps it around a serial port; tests and the benchmark drive it directly too.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from tablefw.schema import HOST_ONLY, LINK_KINDS

from . import codec
from .codec import PROTO

# Kinds only the host sends (not "cal": the board reports with it too): a tty echoes them back
# to us, and they are ignored.
HOST_KINDS = frozenset(HOST_ONLY)
# Board kinds that are not events: never numbered on their own, never resent, never acked.
UNSEQUENCED = frozenset(LINK_KINDS)


def is_event(msg: dict) -> bool:
    """A sequenced board event: what the board numbers, resends until acked, and what a resumed
    daemon counts from (not a hello, heartbeat or reply, nor a message the host link made)."""
    return (
        msg.get("src") is None
        and isinstance(msg.get("s"), int)
        and not isinstance(msg.get("s"), bool)
        and msg.get("k") not in UNSEQUENCED
    )


HB_S = 0.5  # host heartbeat (an ack frame) when nothing else was sent for this long
BOARD_TIMEOUT_S = 2.0  # board heartbeats every 0.5 s; silent this long = link down
RESEND_S = 0.25  # first resend of an unanswered command; doubles up to RESEND_MAX_S
RESEND_MAX_S = 2.0
# A repeated "resend now" request for the same hole waits twice the measured round trip,
# within these bounds (a pty answers in < 1 ms; a board polling its link at 80 Hz in ~12 ms).
NAK_MIN_S = 0.003
NAK_MAX_S = 0.05
RESEND_MAX_EVENTS = 64  # most events one resend request asks for
PING_EVERY_S = 0.5  # while no hello of the current boot has been seen
AHEAD_MAX = 1024  # out-of-order events held while waiting for a hole to fill
RESULTS_KEPT = 4096


class ProtocolMismatch(Exception):
    """The board speaks another protocol major version."""


class HostSession:
    """Protocol state of one host talking to one board (across its reboots).

    `resume=(boot, seq)`: the journal's last applied event of that boot; events up to it are
    treated as already delivered if the board still runs that boot. `board`: the board the
    journal's game is played on (its hello's `board`); another board's hello is refused.
    """

    def __init__(
        self,
        write: Callable[[bytes], object],
        clock: Callable[[], float],
        resume: tuple[str, int] | None = None,
        board: str | None = None,
    ):
        self._write = write
        self._clock = clock
        self.decoder = codec.Decoder()
        self.hello: dict | None = None  # latest hello of the current boot
        self.boot: str | None = None
        self._resume = resume
        self._board = board
        self.expect = 1  # next board seq to deliver
        self.committed = 0  # highest seq the caller has processed: what we ack
        self.board_seq = 0  # highest seq the board said it has used (hb, hello, events)
        self._ahead: dict[int, dict] = {}
        self.seq = 0  # host frame seq: +1 per command
        self._next_id = secrets.randbelow(1 << 24) + 1  # fresh ids per host run
        self.pending: dict[int, list] = {}  # id -> [kind, fields, frame, sent_at, interval]
        self.results: dict[int, str] = {}  # id -> "ok" | "superseded" | "err: why"
        self._last_show: dict | None = None  # fields of the last show, restored after a reboot
        self._last_rx: float | None = None
        self._last_tx = float("-inf")
        self._last_nak = float("-inf")
        self._nak_expect = 0  # `expect` when the last resend request went out
        self._naks_for_hole = 0  # requests sent for that hole
        self.rtt = 0.01  # smoothed time from a resend request to the hole filling (s)
        self._last_ping = float("-inf")
        self._ack_dirty = False
        self.up = False
        self.warnings: list[str] = []
        self.counts = {
            "events": 0,
            "duplicates": 0,
            "reordered": 0,
            "gaps": 0,
            "lost": 0,
            "reboots": 0,
            "echoes": 0,
            "naks": 0,
            "cmd_resent": 0,
            "errors": 0,
        }

    # -- outgoing -------------------------------------------------------------------------

    def _send(self, msg: dict) -> None:
        self._write(codec.encode(msg))
        self._last_tx = self._clock()

    def _ack(self, resend: int = 0) -> None:
        if self.boot is None:
            return
        msg = {"k": "ack", "s": self.seq, "a": self.committed, "b": self.boot}
        if resend:
            msg["r"] = resend  # resend `r` events starting at `m`, the first one missing
            msg["m"] = self.expect
            self._last_nak = self._clock()
            self._naks_for_hole = self._naks_for_hole + 1 if self._nak_expect == self.expect else 1
            self._nak_expect = self.expect
            self.counts["naks"] += 1
        self._ack_dirty = False
        self._send(msg)

    def ping(self) -> None:
        self._last_ping = self._clock()
        self._send({"k": "ping", "s": self.seq})

    def accepts(self, kind: str) -> bool:
        """The board takes command `kind`, by its hello's `cmds` (protocol 1.2); a board that
        does not list them (1.1) is taken to accept every command."""
        cmds = (self.hello or {}).get("cmds")
        return not isinstance(cmds, list) or kind in cmds

    def send(self, kind: str, **fields) -> int:
        """Send a command; returns its id. A newer `show` supersedes unanswered older ones."""
        if kind in ("ack", "ping"):
            raise ValueError(f"{kind} frames are the link's own business")
        cid = self._next_id
        self._next_id += 1
        if kind == "show":
            self._last_show = dict(fields)
            for old, entry in list(self.pending.items()):
                if entry[0] == "show":
                    del self.pending[old]
                    self._result(old, "superseded")
        self.seq += 1
        frame = codec.encode({"k": kind, "s": self.seq, "id": cid, **fields})
        self.pending[cid] = [kind, fields, frame, self._clock(), RESEND_S]
        self._write(frame)
        self._last_tx = self._clock()
        return cid

    def _result(self, cid: int, text: str) -> None:
        self.results[cid] = text
        if len(self.results) > RESULTS_KEPT:
            del self.results[next(iter(self.results))]

    def commit(self, seq: int | None = None) -> None:
        """The caller has processed (journaled) events up to `seq` (default: all delivered)."""
        target = self.expect - 1 if seq is None else min(seq, self.expect - 1)
        if target > self.committed:
            self.committed = target
            self._ack()

    # -- incoming -------------------------------------------------------------------------

    def feed(self, data: bytes) -> list[dict]:
        """Decode bytes from the board; returns the messages for the daemon, in order."""
        out: list[dict] = []
        for msg in self.decoder.feed(data):
            self._last_rx = self._clock()
            if not self.up:
                self.up = True
                if self.hello is not None:
                    out.append({"k": "link", "up": True, "src": "host"})
            self._on_frame(msg, out)
        return out

    def _on_frame(self, msg: dict, out: list[dict]) -> None:
        kind = msg["k"]
        s = msg["s"]
        if kind == "hello":
            self._on_hello(msg, out)
        elif kind in HOST_KINDS:
            self.counts["echoes"] += 1
        elif self.boot is None or msg.get("b", self.boot) != self.boot:
            # Frames before any hello, or of a boot whose hello we have not seen: we cannot
            # place them (a new boot numbers its events from 1 again); ask for the hello.
            if self._clock() - self._last_ping >= PING_EVERY_S:
                self.ping()
        elif kind == "hb":
            self._on_heartbeat(s)
        elif kind in ("ack", "err"):
            self._on_reply(msg, out)
        elif kind == "raw":
            out.append(msg)
        else:
            self._on_event(msg, out)

    def _on_hello(self, msg: dict, out: list[dict]) -> None:
        proto = msg.get("proto")
        if (
            not isinstance(proto, list)
            or len(proto) != 2
            or not all(isinstance(v, int) for v in proto)
        ):
            raise ProtocolMismatch(f"the board's hello carries no protocol version: {proto!r}")
        if proto[0] != PROTO[0]:
            raise ProtocolMismatch(
                f"the board speaks protocol {proto[0]}.{proto[1]}, this host speaks "
                f"{PROTO[0]}.{PROTO[1]}: update the firmware or the host"
            )
        if proto[1] != PROTO[1] and not self.warnings:
            self.warnings.append(
                f"the board speaks protocol {proto[0]}.{proto[1]}, this host "
                f"{PROTO[0]}.{PROTO[1]}: features of the newer side are not used"
            )
        board = self.hello.get("board") if self.hello is not None else self._board
        if board is not None and msg.get("board") != board:
            # Another board answers on this port (unplugged, another one plugged in, a device
            # path reused, or a resumed game's port now holding another table's board): its
            # events are no part of this game, and acking them would make its own host lose
            # them. Refused before anything of it is acknowledged.
            played_on = (
                ""
                if self.hello is not None
                else ", the board this game is played on: connect that one, or give the game "
                "up (`sticktable games --abandon GAME`)"
            )
            raise ProtocolMismatch(
                f"another board ({msg.get('board')}) answers instead of {board}{played_on}"
            )
        boot = msg.get("boot")
        s = msg["s"]
        u = msg.get("u")
        first = u if isinstance(u, int) and 0 < u <= s + 1 else s + 1
        if boot == self.boot:
            self.hello = msg  # a repeat (answer to a ping, or resent until acked)
            self.board_seq = max(self.board_seq, s)
            if first > self.expect:
                # The board no longer holds events we never got (acked by an earlier host run
                # that did not journal them, seen through a stale hello): they cannot come.
                self._gap(out, "acked before the journal had them", first - self.expect)
                self._skip_to(first, out)
            self._ack()
            return
        old_boot = self.boot
        if old_boot is not None:
            self._reboot_gap(out, msg, old_boot, self.expect - 1, self.board_seq)
        elif self._resume and self._resume[0] != boot:
            # The board restarted while no host listened: the journal's boot is gone with
            # whatever it numbered after the journal's last event (PROTOCOL.md §3, Reboot).
            self._reboot_gap(out, msg, self._resume[0], self._resume[1], self._resume[1])
        self.boot = boot
        self.hello = msg
        self._ahead.clear()
        self.board_seq = s
        expect = first
        if old_boot is None and self._resume and self._resume[0] == boot:
            expect = self._resume[1] + 1
            if first > expect:  # acked by an earlier host run, never journaled
                self._gap(out, "acked before the journal had them", first - expect)
                expect = first
        self.expect = expect
        self.committed = expect - 1
        out.append(msg)
        self._ack()
        if old_boot is not None:
            self._restore_after_reboot()

    def _reboot_gap(self, out: list[dict], hello: dict, old_boot: str, have: int, heard: int):
        """The gap of a reboot: the old boot's events after `have` (the last one delivered or
        journaled) never arrive. Exact when the board kept the old boot's last number across
        the reset (hello `prev`: [boot, last seq, last acked, kinds unacked]); else a lower
        bound: the highest number we heard of (`heard`)."""
        self.counts["reboots"] += 1
        prev = hello.get("prev")
        kept = (
            isinstance(prev, list)
            and len(prev) >= 2
            and prev[0] == old_boot
            and isinstance(prev[1], int)
            and not isinstance(prev[1], bool)
        )
        extra: dict = {"boot": hello.get("boot"), "old_boot": old_boot, "reset": hello.get("reset")}
        extra["exact"] = bool(kept)
        last = max(prev[1], heard) if kept else heard
        n = max(0, last - have)
        if kept and n and len(prev) >= 4 and isinstance(prev[3], list):
            extra["kinds"] = [str(k) for k in prev[3]]  # kinds among the unacknowledged
        self._gap(out, "reboot", n, **extra)

    def _restore_after_reboot(self) -> None:
        # The board's display is gone: resend unanswered commands now, unchanged (the same id:
        # one the new boot has already run is answered from its reply cache, not run twice),
        # and the last display state. `arm` is not replayed: the tower's state needs a referee.
        now = self._clock()
        have_show = False
        for cid, entry in sorted(self.pending.items()):
            if entry[0] == "arm":
                del self.pending[cid]
                self._result(cid, "err: board rebooted before answering")
                continue
            have_show = have_show or entry[0] == "show"
            self._write(entry[2])
            entry[3], entry[4] = now, RESEND_S
        if not have_show and self._last_show is not None:
            self.send("show", **self._last_show)

    def _gap(self, out: list[dict], why: str, n: int | None, **extra) -> None:
        self.counts["gaps"] += 1
        if n:
            self.counts["lost"] += n
        out.append({"k": "gap", "src": "host", "why": why, "n": n, **extra})

    def _on_heartbeat(self, s: int) -> None:
        if s < self.expect - 1:
            # The board's count went backwards: it rebooted and its hello was lost.
            if self._clock() - self._last_ping >= PING_EVERY_S:
                self.ping()
            return
        self.board_seq = max(self.board_seq, s)
        self._request_missing()  # the board may have sent events we have not got

    def _on_event(self, msg: dict, out: list[dict]) -> None:
        s = msg["s"]
        self.board_seq = max(self.board_seq, s)
        if s < self.expect or s in self._ahead:
            self.counts["duplicates"] += 1
            self._ack_dirty = True  # tell the board again what we have
            self._request_missing()
            return
        if s > self.expect:
            self.counts["reordered"] += 1
            if len(self._ahead) < AHEAD_MAX:
                self._ahead[s] = msg
        else:
            self._deliver(msg, out)
            self._drain(out)
        self._request_missing()

    def _request_missing(self) -> None:
        """Ask the board to resend from the first missing event through the last one (fast
        retransmit, rate-limited): one request covers every hole, on a bad line too."""
        top = max(self._ahead) if self._ahead else self.expect - 1
        if self.board_seq > top:
            last = self.board_seq  # a heartbeat announced events we never got
        else:
            last = top - 1
            while last >= self.expect and last in self._ahead:
                last -= 1
        n = last - self.expect + 1
        if n <= 0 or self.boot is None:
            return
        repeat = min(max(2 * self.rtt, NAK_MIN_S), NAK_MAX_S)
        if self.expect != self._nak_expect or self._clock() - self._last_nak >= repeat:
            self._ack(resend=min(n, RESEND_MAX_EVENTS))

    def _drain(self, out: list[dict]) -> None:
        while self.expect in self._ahead:
            self._deliver(self._ahead.pop(self.expect), out)

    def _skip_to(self, first: int, out: list[dict]) -> None:
        for s in [s for s in self._ahead if s < first]:
            del self._ahead[s]
        self.expect = first
        self.committed = max(self.committed, first - 1)
        self._drain(out)

    def _deliver(self, msg: dict, out: list[dict]) -> None:
        if msg["s"] == self._nak_expect and self._naks_for_hole == 1:
            # A hole filled after one request: learn the round trip (not after repeats, whose
            # answer may be to an earlier request: Karn's rule).
            self.rtt += 0.2 * (self._clock() - self._last_nak - self.rtt)
        self.expect = msg["s"] + 1
        self.counts["events"] += 1
        if msg["k"] == "gap":
            self.counts["gaps"] += 1
            n = msg.get("n")
            if isinstance(n, int) and n > 0:
                self.counts["lost"] += n
        out.append(msg)

    def _on_reply(self, msg: dict, out: list[dict]) -> None:
        cid = msg.get("id")
        entry = self.pending.pop(cid, None) if isinstance(cid, int) else None
        if msg["k"] == "ack":
            if entry is not None:
                self._result(cid, "ok")
            return
        why = str(msg.get("why", "?"))
        if entry is not None or cid not in self.results:
            self.counts["errors"] += 1
            self._result(cid, "err: " + why)
            out.append(
                {
                    "k": "err",
                    "src": "board",
                    "id": cid,
                    "why": why,
                    "cmd": entry[0] if entry else None,
                }
            )

    # -- time -----------------------------------------------------------------------------

    def tick(self) -> list[dict]:
        """Heartbeat, command resends, hello requests, board timeout; returns link messages."""
        now = self._clock()
        out: list[dict] = []
        if self.up and self._last_rx is not None and now - self._last_rx >= BOARD_TIMEOUT_S:
            self.up = False
            out.append(
                {
                    "k": "link",
                    "up": False,
                    "src": "host",
                    "why": f"board silent for {BOARD_TIMEOUT_S:g} s",
                }
            )
        if self.boot is None or not self.up:
            if now - self._last_ping >= PING_EVERY_S:
                self.ping()  # ask for the hello (first contact, or a board that went quiet)
            if self.boot is None:
                return out
        for entry in self.pending.values():
            if now - entry[3] >= entry[4]:
                self._write(entry[2])
                entry[3] = now
                entry[4] = min(entry[4] * 2, RESEND_MAX_S)
                self.counts["cmd_resent"] += 1
                self._last_tx = now
        self._request_missing()
        if self._ack_dirty or now - self._last_tx >= HB_S:
            self._ack()
        return out

    def stats(self) -> dict:
        return {
            **self.counts,
            "frames": self.decoder.frames,
            "dropped": self.decoder.dropped,
            "bad_crc": self.decoder.bad_crc,
            "expect": self.expect,
            "boot": self.boot,
            "pending_commands": len(self.pending),
        }
