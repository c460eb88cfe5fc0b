# Board side of the serial link (protocol: firmware/PROTOCOL.md). Transport-agnostic: bytes in
# through feed(), frames out through a write callable, time through tick(). Not the sampling loop:
# it allocates a little per frame, which is fine at event rates.
#
# API (what tablefw.app calls):
#
#   link = Link(write, handler, board_info, size=64)
#       write(frame: bytes) sends one whole frame; it should not block for long; returning
#           exactly False means "not sent" (events stay buffered and go out again later).
#       handler(msg: dict) runs a host command (kinds in COMMANDS: show, arm, stream) and returns
#           None/True -> the link replies ack{id}; a str -> err{id, why: str}; False -> err
#           "refused"; an exception -> err with its text. A command resent by the host (same
#           id) is answered again without running the handler twice.
#       board_info: {"fw", "board", "boot", "reset", "seats", "cells"} for the hello, plus
#           optionally "prev": [previous boot, its last seq, last acked, kinds unacked] if kept
#           across the reset (tablefw/keep.py).
#       keep(s, a, mask): optional; called whenever the last seq sent (s), the last acked (a)
#           or the kinds sent but unacked (mask, tablefw.keep.kind_bit) change, to keep them
#           where a reset does not clear them (tablefw.keep.Keeper.save).
#   link.hello()                   send the hello (call once at start; repeated until the host
#                                  acks this boot; events sent before that carry the boot id)
#   link.event(kind, **fields)     a board event (placed, fell, ...): gets the next seq "s", is
#                                  sent, kept and resent until the host acks it. Returns False
#                                  if the buffer is full (the event is lost; the link reports
#                                  the loss to the host as a "gap" event once there is room).
#   link.note(kind, **fields)      a frame sent once, never resent (e.g. "raw" samples).
#   link.feed(data)                bytes from the host: acks, pings and commands are handled.
#   link.tick(now_ms)              call often (every loop, >= every 50 ms): heartbeats, resends.
#   link.host_alive                True while the host has spoken within HOST_TIMEOUT_MS.
#   link.pending                   events sent but not yet acknowledged.
#   link.stats()                   counters (dict) for diagnostics.

from tablefw import proto
from tablefw.compat import const, ticks_diff  # ticks_diff: board ticks wrap (2**30 on RP2040)
from tablefw.keep import kind_bit

PROTO = (1, 3)  # major, minor (PROTOCOL.md "Versions")
HB_MS = const(500)  # board heartbeat when nothing else was sent for this long
TAIL_HB_MS = const(20)  # a heartbeat this long after the last new event, so a lost last
# event is noticed by the host (its s) within ms rather than at the resend timeout
RESEND_MS = const(250)  # first resend of unacked events; doubles up to RESEND_MAX_MS
RESEND_MAX_MS = const(2000)
HOST_TIMEOUT_MS = const(2000)  # host heartbeats every 500 ms; silent this long = gone
REPLIES_KEPT = const(16)  # recent command replies, to answer a resent command again
COMMANDS = ("show", "arm", "stream")


class Link:
    def __init__(self, write, handler, board_info, size=64, commands=COMMANDS, keep=None):
        self._write = write
        self._keep = keep
        self._handler = handler
        self._info = board_info
        self._boot = board_info.get("boot")
        self._size = size
        self._commands = commands
        self.decoder = proto.Decoder()
        self.seq = 0  # last seq given to an event
        self.acked = 0  # highest seq the host has acknowledged
        self._out = []  # [(seq, frame, kind bit)] sent, not yet acked, oldest first
        self._replies = []  # [(id, frame)] newest last
        self._boot_acked = False  # the host acked this boot: stop resending the hello
        self._overflow = 0  # events refused since the last gap report
        self._now = None  # last tick's time
        self._heard = False  # a valid host frame arrived since the last tick
        self._last_rx = None
        self._last_tx = None
        self._last_resend = None
        self._resend_ms = RESEND_MS
        self._resend_now = False
        self._resend_from = 0  # fast resend of events _resend_from.. (count) at the next tick
        self._resend_count = 0
        self._tail = False  # a new event went out and no heartbeat has followed it yet
        self.counts = {
            "events": 0,
            "resent": 0,
            "overflow": 0,
            "gaps": 0,
            "commands": 0,
            "repeats": 0,
            "refused": 0,
            "ignored": 0,
            "unsent": 0,
        }

    # -- outgoing -------------------------------------------------------------------------

    def hello(self):
        """Send the hello: protocol version, board identity, and where the sequence stands."""
        msg = {
            "k": "hello",
            "s": self.seq,
            "u": self._out[0][0] if self._out else self.seq + 1,
            "proto": list(PROTO),
        }
        for key in self._info:
            msg[key] = self._info[key]
        self._send(proto.encode(msg))

    def event(self, kind, **fields):
        """Queue and send a board event; False if the buffer is full (reported later as a gap)."""
        if len(self._out) >= self._size:
            self._overflow += 1
            self.counts["overflow"] += 1
            return False
        self._flush_gap()
        if len(self._out) >= self._size:
            self._overflow += 1
            self.counts["overflow"] += 1
            return False
        self._queue(kind, fields)
        return True

    def note(self, kind, **fields):
        """Send a frame once, unsequenced (carries the current seq), never resent."""
        msg = {"k": kind, "s": self.seq}
        for key in fields:
            msg[key] = fields[key]
        return self._send(proto.encode(msg))

    @property
    def pending(self):
        return len(self._out)

    @property
    def host_alive(self):
        if self._last_rx is None or self._now is None:
            return False
        return ticks_diff(self._now, self._last_rx) < HOST_TIMEOUT_MS

    def stats(self):
        out = dict(self.counts)
        out["seq"] = self.seq
        out["pending"] = len(self._out)
        out["rx_frames"] = self.decoder.frames
        out["rx_dropped"] = self.decoder.dropped
        return out

    def _queue(self, kind, fields):
        self.seq += 1
        msg = {"k": kind, "s": self.seq}
        if not self._boot_acked:
            msg["b"] = self._boot  # until the host knows this boot: not an earlier boot's event
        for key in fields:
            msg[key] = fields[key]
        frame = proto.encode(msg)
        self._out.append((self.seq, frame, kind_bit(kind)))
        self._kept()
        self.counts["events"] += 1
        if len(self._out) == 1:
            self._last_resend = self._now  # the resend clock starts with the oldest unacked
        self._send(frame)
        self._tail = True

    def _kept(self):
        # What a reset would lose, kept where it survives one (PROTOCOL.md section 3, prev).
        if self._keep is not None:
            mask = 0
            for entry in self._out:
                mask |= entry[2]
            self._keep(self.seq, self.acked, mask)

    def _flush_gap(self):
        # Report events lost to a full buffer, as an event itself so it cannot be lost.
        if self._overflow and len(self._out) < self._size:
            n = self._overflow
            self._overflow = 0
            self.counts["gaps"] += 1
            self._queue("gap", {"n": n, "why": "buffer full"})

    def _send(self, frame):
        if self._write(frame) is False:
            self.counts["unsent"] += 1
            return False
        self._last_tx = self._now
        return True

    def _resend(self):
        self._last_resend = self._now
        if not self._boot_acked:
            self.hello()  # the host may not know this boot yet
        for entry in self._out:
            self._send(entry[1])
            self.counts["resent"] += 1

    # -- incoming -------------------------------------------------------------------------

    def feed(self, data):
        """Handle bytes from the host (any chunking, any garbage)."""
        for msg in self.decoder.feed(data):
            self._heard = True
            kind = msg["k"]
            if kind == "ack":
                self._on_ack(msg)
            elif kind == "ping":
                self.hello()
                self._resend_ms = RESEND_MS
                self._resend_now = True  # a (re)connected host: send what it has not acked
            elif kind in self._commands:
                self._on_command(msg)
            elif "id" in msg:
                self._reply(msg.get("id"), "unknown command " + kind)
            else:
                self.counts["ignored"] += 1  # e.g. our own frames echoed by a tty

    def _on_ack(self, msg):
        boot = msg.get("b")
        a = msg.get("a")
        if (boot is not None and boot != self._boot) or not isinstance(a, int) or a > self.seq:
            self.counts["ignored"] += 1  # meant for an earlier boot of this board
            return
        self._boot_acked = True
        out = self._out
        n = 0
        while n < len(out) and out[n][0] <= a:
            n += 1
        if n:
            del out[:n]
            self._resend_ms = RESEND_MS
            self._last_resend = self._now
        if a > self.acked:
            self.acked = a
            self._kept()
        self._flush_gap()
        r = msg.get("r")
        m = msg.get("m", a + 1)
        if isinstance(r, int) and isinstance(m, int) and r > 0 and out:
            self._resend_from = m  # the host saw a hole: resend it at the next tick
            self._resend_count = r

    def _on_command(self, msg):
        cid = msg.get("id")
        if cid is None:
            self.counts["ignored"] += 1
            return
        for entry in self._replies:
            if entry[0] == cid:
                self.counts["repeats"] += 1
                self._send(entry[1])
                return
        self.counts["commands"] += 1
        try:
            result = self._handler(msg)
        except Exception as e:  # a failing command must not take the link down
            result = "%s: %s" % (type(e).__name__, e)
        if result is None or result is True:
            self._reply(cid, None)
        else:
            self._reply(cid, "refused" if result is False else str(result))

    def _reply(self, cid, why):
        if why is None:
            msg = {"k": "ack", "s": self.seq, "id": cid}
        else:
            self.counts["refused"] += 1
            msg = {"k": "err", "s": self.seq, "id": cid, "why": why[:200]}
        try:
            frame = proto.encode(msg)
        except ValueError:  # an absurd id: answer without it rather than not at all
            frame = proto.encode({"k": "err", "s": self.seq, "id": None, "why": "bad id"})
        self._replies.append((cid, frame))
        if len(self._replies) > REPLIES_KEPT:
            self._replies.pop(0)
        self._send(frame)

    # -- time -----------------------------------------------------------------------------

    def tick(self, now_ms):
        """Advance the link's clock: heartbeat, resend unacked events after a timeout."""
        self._now = now_ms
        if self._heard:
            self._heard = False
            self._last_rx = now_ms
        if self._last_resend is None:
            self._last_resend = now_ms
        if self._resend_count and not self._resend_now:
            first = self._resend_from
            last = first + self._resend_count
            for entry in self._out:
                if first <= entry[0] < last:
                    self._send(entry[1])
                    self.counts["resent"] += 1
        self._resend_count = 0
        if self._resend_now:
            self._resend_now = False
            self._resend()
        elif (self._out or not self._boot_acked) and ticks_diff(
            now_ms, self._last_resend
        ) >= self._resend_ms:
            self._resend()
            if self._resend_ms < RESEND_MAX_MS:
                self._resend_ms = min(self._resend_ms * 2, RESEND_MAX_MS)
        quiet = HB_MS if not (self._tail and self._out) else TAIL_HB_MS
        if self._last_tx is None or ticks_diff(now_ms, self._last_tx) >= quiet:
            self._tail = False
            if self._boot_acked:
                self._send(proto.encode({"k": "hb", "s": self.seq, "t": now_ms}))
            else:
                self.hello()  # the heartbeat of a boot the host has not acknowledged
