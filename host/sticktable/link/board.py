"""`BoardLink`: the daemon's end of the serial link to the table's board.

    link = BoardLink.open("/dev/ttyACM0")     # or open(None): find the board by USB id
    link.hello                                 # the board's hello (proto, fw, board, boot, ...)
    for msg in link.poll(0.02): ...            # board messages in order, each once
        journal(msg)
    link.commit()                              # journaled: now the board may forget them
    cid = link.send("show", sc=[1, 2], ...)    # a command; link.result(cid) -> None/"ok"/"err: ..."
    link.close()

`poll()` returns board events (each exactly once, in seq order), a new boot's `hello`, `raw`
samples, and messages made by the link itself (marked `"src": "host"`): `gap` (events that can
no longer arrive: a reboot, with `n` = how many the board had announced and we never got),
`link` (`up` False/True: the board went silent / speaks again, or the port vanished and came
back), and `err` (a command the board refused).

Nothing is acknowledged to the board before the daemon says it has journaled it: `commit()`
acknowledges the board events `poll()` has returned so far (`commit(msg)`: up to that event),
and `poll()` never acknowledges anything by itself, not even the events that arrived in the
same read as the hello. A daemon killed between `poll()` and `commit()` loses nothing: the board
still holds the events and resends them to the next run. Tools that journal nothing (doctor,
record, calibrate) open the link with `ack_on_poll=True`: whatever `poll()` returns is acked.
"""

from __future__ import annotations

import logging
import select
import time

import serial

from sticktable.errors import UserError

from .port import explain, find_board, open_port
from .session import HostSession, ProtocolMismatch, is_event

log = logging.getLogger(__name__)
CHUNK = 65536
RECONNECT_FIRST_S = 0.1
RECONNECT_MAX_S = 2.0


class BoardLink:
    def __init__(
        self,
        port: str,
        *,
        resume: tuple[str, int] | None = None,
        board: str | None = None,
        clock=time.monotonic,
        ack_on_poll: bool = False,
    ):
        self.port = port
        self.ack_on_poll = ack_on_poll
        self._clock = clock
        self.session = HostSession(self._write, clock, resume=resume, board=board)
        self._ser: serial.Serial | None = None
        self._backlog: list[dict] = []
        self._returned: tuple[str | None, int] | None = None  # last event poll() handed out
        self._retry_at = 0.0
        self._retry_s = RECONNECT_FIRST_S
        self.reconnects = 0
        self.write_timeouts = 0

    @classmethod
    def open(
        cls,
        port: str | None = None,
        *,
        hello_timeout: float = 3.0,
        resume: tuple[str, int] | None = None,
        board: str | None = None,
        serial_number: str | None = None,
        ack_on_poll: bool = False,
    ) -> BoardLink:
        """Open the port (found by USB id if None) and wait for the board's hello; `resume`
        and `board`: where the journal's game stands, and on which board (see HostSession)."""
        link = cls(
            port or find_board(serial_number), resume=resume, board=board, ack_on_poll=ack_on_poll
        )
        link._ser = open_port(link.port)
        try:
            link.wait_hello(hello_timeout)
        except BaseException:
            link.close()
            raise
        return link

    @property
    def hello(self) -> dict | None:
        return self.session.hello

    @property
    def connected(self) -> bool:
        return self._ser is not None

    def wait_hello(self, timeout: float) -> dict:
        """Ping until the hello comes; UserError after `timeout` seconds."""
        deadline = self._clock() + timeout
        self.session.ping()
        seen = 0
        while self.session.hello is None:
            left = deadline - self._clock()
            if left <= 0:
                raise UserError(
                    f"no hello from the board on {self.port} within {timeout:g} s: "
                    + self._silence_report(seen)
                )
            seen += self._pump(min(left, 0.05), self._backlog)
            self._backlog.extend(self.session.tick())
        # The hello itself is `self.hello` (the latest copy, when the board repeated it); what
        # came after it waits for the first poll().
        boot = self.session.boot
        self._backlog = [
            m for m in self._backlog if not (m.get("k") == "hello" and m.get("boot") == boot)
        ]
        for warning in self.session.warnings:
            log.warning("%s", warning)
        return self.session.hello

    def _silence_report(self, seen: int) -> str:
        if self._ser is None:
            return "the port went away"
        d = self.session.decoder
        if not seen:
            return "nothing received (is the firmware running?)"
        if d.frames:
            return f"{d.frames} frames but no hello (does the board speak this protocol?)"
        return f"{seen} bytes received, none of them a protocol frame (wrong program or speed?)"

    def poll(self, timeout: float = 0.0) -> list[dict]:
        """Messages that arrived, waiting up to `timeout` s for the first. Acknowledges nothing
        (see `commit()`), unless the link was opened with `ack_on_poll`."""
        out, self._backlog = self._backlog, []
        self._pump(0.0 if out else timeout, out)
        out.extend(self.session.tick())
        for msg in out:
            if msg.get("k") == "hello" and msg.get("src") is None:
                self._returned = (msg.get("boot"), 0)
            elif is_event(msg):
                self._returned = (self.session.boot, msg["s"])
        if self.ack_on_poll:
            self.commit()
        return out

    def commit(self, upto: dict | None = None) -> None:
        """The daemon has journaled the board events `poll()` returned so far (or up to and
        including the event `upto`): acknowledge them, so the board forgets them."""
        if upto is not None and not is_event(upto):
            upto = None
        if self._returned is None or self._returned[0] != self.session.boot:
            return  # nothing of the board's current boot was handed out yet
        seq = self._returned[1] if upto is None else min(upto["s"], self._returned[1])
        self.session.commit(seq)

    def accepts(self, kind: str) -> bool:
        return self.session.accepts(kind)

    def send(self, kind: str, **fields) -> int:
        """Send a command (show, arm, stream); returns its id (resent until answered)."""
        return self.session.send(kind, **fields)

    def result(self, cid: int) -> str | None:
        """None while unanswered, then "ok", "superseded" or "err: why"."""
        return self.session.results.get(cid)

    def stats(self) -> dict:
        return {
            **self.session.stats(),
            "reconnects": self.reconnects,
            "write_timeouts": self.write_timeouts,
        }

    def close(self) -> None:
        """Close the port. Events returned but not committed stay unacknowledged: the board
        resends them to the next host."""
        if self._ser is not None:
            try:
                self._ser.close()
            finally:
                self._ser = None

    def reconnect(self) -> None:
        """Close the port and reopen it at once (what a pulled and replugged cable does)."""
        self.close()
        self._retry_at = 0.0
        self._reopen()

    # -- I/O ------------------------------------------------------------------------------

    def _pump(self, timeout: float, out: list[dict]) -> int:
        """Read what the port has (waiting up to `timeout`), decode into `out`; bytes read."""
        if self._ser is None:
            self._reopen()
            if self._ser is None:
                time.sleep(timeout)
                return 0
        total = 0
        try:
            if timeout > 0:
                select.select([self._ser.fileno()], [], [], timeout)
            while self._ser is not None:  # a failed write while decoding may close it
                data = self._ser.read(CHUNK)
                if not data:
                    break
                total += len(data)
                out.extend(self.session.feed(data))
                if len(data) < CHUNK:
                    break
        except ProtocolMismatch as err:
            raise UserError(f"board on {self.port}: {err}") from None
        except (serial.SerialException, OSError, ValueError, TypeError) as err:
            self._lost(out, err)
        return total

    def _write(self, frame: bytes) -> None:
        if self._ser is None:
            return  # the link resends what matters once the port is back
        try:
            self._ser.write(frame)
        except serial.SerialTimeoutException:
            self.write_timeouts += 1  # a board that does not read: it will be resent
        except (serial.SerialException, OSError, ValueError, TypeError) as err:
            self._lost(self._backlog, err)

    def _lost(self, out: list[dict], err: BaseException) -> None:
        self.close()
        self.session.up = False
        self._retry_s = RECONNECT_FIRST_S
        self._retry_at = self._clock() + self._retry_s
        out.append(
            {
                "k": "link",
                "up": False,
                "src": "host",
                "why": f"port {self.port} lost: {explain(err, self.port)}",
            }
        )

    def _reopen(self) -> None:
        if self._clock() < self._retry_at:
            return
        try:
            self._ser = open_port(self.port)
        except UserError:
            self._retry_s = min(self._retry_s * 2, RECONNECT_MAX_S)
            self._retry_at = self._clock() + self._retry_s
            return
        self.reconnects += 1
        self.session.decoder.reset()
        self.session.ping()  # the hello tells us whether the board rebooted meanwhile
