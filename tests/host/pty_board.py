"""A small board on a pty for the resume tests: the real `tablefw.link.Link` (under CPython) in a
thread, holding the master side of a pty; `sticktable run --port PATH` opens the slave side like
/dev/ttyACM0.

What the link writes during one step (the bytes it was fed, then its tick) goes out in one
write, as a USB packet would: a hello and every resend it triggers arrive together. The test
drives the board: `event()` senses an event, `reboot()` starts a new boot (with `prev`, as kept
in the watchdog scratch registers, or without), `mute` loses every event frame on the wire (a
cable that drops them: the board keeps them and resends once unmuted), `on_ack(a)` is called
with each cumulative ack the board receives from the host.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Callable

from tablefw.link import Link

INFO = {"fw": "0.1.0", "board": "pty-board", "reset": "power-on", "seats": 2, "cells": 4}
UNSEQUENCED = (b'"k":"hello"', b'"k":"hb"', b'"k":"ack"', b'"k":"err"', b'"k":"raw"')


class PtyBoard:
    def __init__(self, boot: str = "b0000001", board: str = INFO["board"]):
        self.info = dict(INFO, board=board)  # `board`: the board's identity in its hello
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # like a CDC port: no echo, no newline translation
        os.set_blocking(self.master, False)
        os.set_blocking(self.slave, False)  # held open (no hang-up between daemons), drained
        self.path = os.ttyname(self.slave)
        self.mute = False
        self.on_ack: Callable[[int], None] | None = None
        self.commands: list[dict] = []
        self._lock = threading.RLock()
        self._out = bytearray()
        self._t0 = time.monotonic()
        self.link: Link
        self.boot(boot, reset="power-on")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def boot(self, boot: str, prev: list | None = None, reset: str = "watchdog") -> None:
        """Start a new boot: the old one's buffer is gone; `prev` = [old boot, its last seq]."""
        info = dict(self.info, boot=boot, reset=reset)
        if prev is not None:
            info["prev"] = prev
        with self._lock:
            self.link = WatchedLink(self, self._write, self._handle, info)
            self.link.tick(self.ms())
            self.link.hello()
            self._flush()

    def event(self, kind: str = "fell", **fields) -> int:
        """The board senses an event; returns its seq."""
        with self._lock:
            fields = {"t": self.ms(), "n": 1, "g": 80, **fields} if kind == "fell" else fields
            self.link.event(kind, **fields)
            self._flush()
            return self.link.seq

    @property
    def pending(self) -> int:
        with self._lock:
            return self.link.pending

    def discard_wire(self) -> None:
        """What the board wrote while no host had the port open is gone (nobody read it)."""
        try:
            while os.read(self.slave, 65536):
                pass
        except (BlockingIOError, OSError):
            pass

    def _handle(self, msg: dict):
        self.commands.append(msg)

    def _write(self, frame: bytes):
        if self.mute and not any(kind in frame for kind in UNSEQUENCED):
            return True  # lost on the wire: the board believes it sent it
        self._out += frame
        return True

    def _flush(self) -> None:
        data, self._out = bytes(self._out), bytearray()
        if data:
            try:
                os.write(self.master, data)  # one write: the host reads it in one go
            except (BlockingIOError, OSError):
                pass  # the pty is full (no host reading): lost, the board resends

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self.master], [], [], 0.005)
                data = os.read(self.master, 65536) if ready else b""
            except (BlockingIOError, OSError):
                data = b""
            with self._lock:
                if data:
                    self.link.feed(data)
                self.link.tick(self.ms())
                self._flush()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        os.close(self.master)
        os.close(self.slave)


class WatchedLink(Link):
    """The board's link, telling the test each ack it takes."""

    def __init__(self, board: PtyBoard, *args):
        super().__init__(*args)
        self._board = board

    def _on_ack(self, msg):
        super()._on_ack(msg)
        a = msg.get("a")
        if self._board.on_ack is not None and msg.get("b") == self._boot and isinstance(a, int):
            self._board.on_ack(a)
