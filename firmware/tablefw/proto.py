# Frame codec of the table's serial protocol (firmware/PROTOCOL.md), one source for both sides:
# the board runs it under MicroPython, the host imports it under CPython.
#
#   frame = b"~" + JSON object + b"*" + 8 lowercase hex digits of crc32(JSON bytes) + b"\n"
#
# The whole frame, newline included, is at most MAX_FRAME bytes. Anything else on the line
# (banners, tracebacks, noise, bad CRC, oversized lines) is dropped and counted; the decoder never
# raises on input and never holds more than max_frame bytes of an unfinished line.

import binascii
import json

from tablefw.compat import const

MAX_FRAME = const(512)
_STAR = const(0x2A)  # "*": JSON ends, CRC follows
_BRACE = const(0x7B)  # "{": every payload is a JSON object
_CR = const(0x0D)
_TAIL = const(9)  # b"*" + 8 hex digits


def crc_hex(data):
    """The 8 lowercase hex digits of CRC-32 over `data` (unsigned on every port)."""
    return ("%08x" % (binascii.crc32(data) & 0xFFFFFFFF)).encode()


def encode(msg):
    """One frame for the dict `msg` (it must hold "k" and "s"); ValueError if it cannot be one."""
    if not isinstance(msg, dict) or "k" not in msg or "s" not in msg:
        raise ValueError("a frame payload is a dict with 'k' and 's'")
    body = json.dumps(msg, separators=(",", ":")).encode()
    frame = b"~" + body + b"*" + crc_hex(body) + b"\n"
    if len(frame) > MAX_FRAME:
        raise ValueError("frame of %d bytes exceeds %d" % (len(frame), MAX_FRAME))
    return frame


def check(msg):
    """The payload if it is a valid message (dict, str "k", int "s"), else None."""
    if not isinstance(msg, dict):
        return None
    k = msg.get("k")
    s = msg.get("s")
    if not isinstance(k, str) or not isinstance(s, int) or isinstance(s, bool):
        return None
    return msg


class Decoder:
    """Incremental decoder: feed it whatever bytes arrived, get the complete valid frames back.

    Counters: `frames` (decoded), `dropped` (runs of bytes that held no frame: noise lines,
    banners, truncated/oversized/corrupted frames; a line that starts with garbage and ends in a
    valid frame counts one drop and one frame), `bad_crc` (lines that had a frame's shape and a
    wrong CRC, per candidate).
    """

    def __init__(self, max_frame=MAX_FRAME):
        self.max_frame = max_frame
        self.frames = 0
        self.dropped = 0
        self.bad_crc = 0
        self._buf = b""
        self._cut = False  # the pending bytes continue a run already counted as dropped

    def reset(self):
        """Forget any unfinished line (e.g. after the port was reopened)."""
        if self._buf and not self._cut:
            self.dropped += 1
        self._buf = b""
        self._cut = False

    def feed(self, data):
        """Decode `data` (bytes-like) appended to what came before; returns a list of dicts."""
        out = []
        buf = self._buf + bytes(data) if self._buf else bytes(data)
        start = 0
        while True:
            nl = buf.find(b"\n", start)
            if nl < 0:
                break
            self._line(buf, start, nl, out)
            self._cut = False
            start = nl + 1
        rest = len(buf) - start
        if rest < self.max_frame:  # an unfinished line that can still become a frame
            self._buf = buf[start:] if rest else b""
            return out
        # No newline within max_frame bytes: keep only a tail that may still start a frame
        # short enough to be one (the same candidates _line would consider).
        tilde = buf.find(b"~", len(buf) - self.max_frame + 1)
        if not self._cut:
            self.dropped += 1  # this line is counted now, whatever its tail turns out to be
        self._cut = True
        self._buf = buf[tilde:] if tilde >= 0 else b""
        return out

    def _line(self, buf, a, nl, out):
        b = nl
        if b > a and buf[b - 1] == _CR:
            b -= 1  # a tty may turn "\n" into "\r\n"
        if b == a:
            return  # blank lines are harmless
        shaped = b - a >= _TAIL + 3 and buf[b - _TAIL] == _STAR
        # A frame runs from its "~" to the newline, at most max_frame bytes.
        i = buf.find(b"~", max(a, nl + 1 - self.max_frame), b) if shaped else -1
        while i >= 0:
            if i + 1 < b - _TAIL and buf[i + 1] == _BRACE:
                msg = self._frame(buf, i + 1, b - _TAIL)
                if msg is not None:
                    if i > a and not self._cut:
                        self.dropped += 1  # garbage before the frame
                    self.frames += 1
                    out.append(msg)
                    return
            i = buf.find(b"~", i + 1, b)
        if not self._cut:
            self.dropped += 1

    def _frame(self, buf, a, b):
        body = buf[a:b]
        if crc_hex(body) != buf[b + 1 : b + _TAIL]:
            self.bad_crc += 1
            return None
        try:
            return check(json.loads(body))
        except Exception:  # malformed JSON with a matching CRC: a peer's bug, still never fatal
            return None
