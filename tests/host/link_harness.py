"""A fake board for link tests and the link benchmark: the real `tablefw.link` under MicroPython
on the master side of a pty; the host opens the slave path like /dev/ttyACM0."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import time
import tty
from pathlib import Path

from micropython_runner import MICROPYTHON, micropython_env

from sticktable.link import BoardLink

FAKE_BOARD = Path(__file__).with_name("fake_board.py")


class FakeBoard:
    def __init__(self, boot: str = "b0070001", size: int = 64, script: Path = FAKE_BOARD):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # like a real CDC port: no echo, no newline translation
        os.set_blocking(self.master, False)  # the board reads what is there, never waits
        os.set_blocking(self.slave, False)  # our own fd (the host opens the path): bounded writes
        self.path = os.ttyname(self.slave)
        self.size = size
        self.script = script
        self.proc: subprocess.Popen | None = None
        self.start(boot)

    def start(self, boot: str, first_i: int = 0, prev: str | None = None) -> None:
        """Start the board; `prev` = "boot:seq" of the boot before (as kept across a reset)."""
        cmd = [
            MICROPYTHON,
            "-X",
            "heapsize=192K",
            str(self.script),
            boot,
            str(self.size),
            str(first_i),
            *([prev] if prev else []),
        ]
        self.proc = subprocess.Popen(
            cmd,
            stdin=self.master,
            stdout=self.master,
            stderr=subprocess.PIPE,
            env=micropython_env(),
        )

    def wait_exit(self, timeout: float = 10) -> int:
        return self.proc.wait(timeout)

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # lets it print its link counters
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def to_host(self, data: bytes) -> None:
        """Bytes on the wire towards the host (as if the board had sent them)."""
        write_all(self.master, data, "the host")

    def to_board(self, data: bytes) -> None:
        """Bytes on the wire towards the board (as if the host had sent them)."""
        write_all(self.slave, data, "the board")

    def close(self) -> str:
        """Stop the board; returns what it wrote to stderr (tracebacks)."""
        self.kill()
        err = ""
        if self.proc and not self.proc.stderr.closed:  # run_link may have read it already
            err = self.proc.stderr.read().decode(errors="replace")
            self.proc.stderr.close()
        os.close(self.master)
        os.close(self.slave)
        return err


def write_all(fd: int, data: bytes, reader: str, timeout: float = 10.0) -> None:
    """Write all of `data` to a non-blocking pty fd, waiting while the pty is full (a slow
    reader under CPU load); AssertionError if `reader` takes none of it for `timeout` s."""
    view = memoryview(data)
    deadline = time.monotonic() + timeout
    while view:
        left = deadline - time.monotonic()
        _, writable, _ = select.select([], [fd], [], max(left, 0))
        if not writable:
            raise AssertionError(
                f"pty full: {reader} read none of the last {len(view)} of {len(data)} bytes "
                f"within {timeout:g} s"
            )
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:
            continue  # room went to another writer (the board shares the master fd)
        deadline = time.monotonic() + timeout  # progress: the reader is alive


def collect(link, want, timeout: float = 10.0, into: list | None = None) -> list[dict]:
    """Poll until `want(messages)` is true or timeout; returns the messages (appended to
    `into` if given, so `want` sees everything collected so far)."""
    got: list[dict] = [] if into is None else into
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got.extend(link.poll(0.02))
        link.commit()
        if want(got):
            break
    return got


def events(messages, kind="fell") -> list[dict]:
    return [m for m in messages if m.get("k") == kind]


class NoisyWire:
    """A second pty between board and host that damages bytes both ways and can black out.

    Board (pty A master) <-> [A slave | proxy thread | B master] <-> host opens B's slave.
    Each byte is damaged with probability `byte_error` (a flipped bit, a lost byte or an
    inserted random byte, equally likely); during `blackout()` everything is lost.
    """

    def __init__(self, board_path: str, byte_error: float = 0.0, seed: int = 1):
        import random
        import threading

        self.a = os.open(board_path, os.O_RDWR | os.O_NOCTTY)
        self.b_master, self.b_slave = os.openpty()
        tty.setraw(self.b_slave)
        self.path = os.ttyname(self.b_slave)
        self.byte_error = byte_error
        self.rng = random.Random(seed)
        self.damaged = 0
        self.passed = 0
        self._dark_until = 0.0
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def blackout(self, seconds: float) -> None:
        self._dark_until = time.monotonic() + seconds

    def _damage(self, data: bytes) -> bytes:
        self.passed += len(data)
        out, hits = damage(data, self.byte_error, self.rng)
        self.damaged += hits
        return out

    def _run(self) -> None:
        import select

        pairs = {self.a: self.b_master, self.b_master: self.a}
        while not self._stop:
            try:
                ready, _, _ = select.select(list(pairs), [], [], 0.05)
            except (OSError, ValueError):
                return
            for fd in ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    time.sleep(0.01)  # the host has the port closed (EIO on the master)
                    continue
                if time.monotonic() < self._dark_until:
                    continue
                try:
                    os.write(pairs[fd], self._damage(data))
                except OSError:
                    pass

    def close(self) -> None:
        self._stop = True
        self._thread.join(2)
        for fd in (self.a, self.b_master, self.b_slave):
            os.close(fd)


def damage(data: bytes, byte_error: float, rng) -> tuple[bytes, int]:
    """`data` with each byte damaged with probability `byte_error` (a flipped bit, a lost byte
    or an inserted random byte, equally likely); returns it and how many bytes were hit."""
    if not byte_error:
        return data, 0
    out = bytearray()
    hits = 0
    # Skip ahead geometrically to the next damaged byte: cheap at low rates.
    pos = 0
    while True:
        gap = int(rng.expovariate(byte_error)) if byte_error < 1 else 0
        nxt = pos + gap
        if nxt >= len(data):
            out += data[pos:]
            return bytes(out), hits
        out += data[pos:nxt]
        hits += 1
        what = rng.randrange(3)
        if what == 0:
            out.append(data[nxt] ^ (1 << rng.randrange(8)))
        elif what == 2:
            out.append(rng.randrange(256))
            out.append(data[nxt])
        pos = nxt + 1


BOOT_SPAN = 1_000_000  # event indices of boot b start at b * BOOT_SPAN


def boot_id(boot: int) -> str:
    return f"b{boot:07x}"


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def now_us() -> float:
    return time.time_ns() / 1000


def run_link(
    n_events: int,
    byte_error: float,
    rate: int,
    disconnects: int,
    reboots: int,
    seed: int = 1,
    timeout: float = 300.0,
) -> dict:
    """Stream events from a fake board through a damaging wire; faults spread over the run."""
    board = FakeBoard(boot=boot_id(0))
    wire = link = None
    try:
        wire = NoisyWire(board.path, byte_error=byte_error, seed=seed)
        link = BoardLink.open(wire.path, hello_timeout=5)
    except BaseException:
        if wire is not None:
            wire.close()
        board.close()
        raise
    seen: dict[int, int] = {}
    timing: list[tuple[float, float]] = []  # (born on the board, delivered) in us
    outages: list[list[float]] = []  # [start, end] us of each cable pull / reboot
    gaps: list[dict] = []
    generated = 0  # by boots that have ended, as they said
    boot = 0
    this_boot = 0  # events of the current boot delivered
    remaining = n_events
    actions = sorted(
        [(n_events * (k + 1) // (disconnects + 1), "disconnect") for k in range(disconnects)]
        + [(n_events * (2 * k + 1) // (2 * reboots + 2), "reboot") for k in range(reboots)]
    )

    def pump() -> None:
        nonlocal this_boot
        for msg in link.poll(0.005):
            if msg["k"] == "fell":
                i = msg["i"]
                seen[i] = seen.get(i, 0) + 1
                if seen[i] == 1:
                    timing.append((msg["w"], now_us()))
                    this_boot += i >= boot * BOOT_SPAN
                    if outages and outages[-1][1] == 0 and msg["w"] > outages[-1][0]:
                        outages[-1][1] = msg["w"]  # first event born after the fault: over
            elif msg["k"] == "gap":
                gaps.append(msg)
        link.commit()

    def stop_board() -> tuple[int, int]:
        """Reboot the current boot by command (resent until it gets it) and wait for it to exit;
        (events it generated, its last seq) from what it says on stderr."""
        link.send("reboot", boot=boot_id(boot))
        deadline = time.monotonic() + 30
        while board.proc.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"board {boot_id(boot)} ignored reboot for 30 s")
            pump()
        said = board.proc.stderr.read().decode(errors="replace")
        board.proc.stderr.close()
        made = re.search(r"generated (\d+)", said)
        last_seq = re.search(r"'seq': (\d+)", said)
        if not (made and last_seq):
            raise AssertionError(f"board {boot_id(boot)} died: {said}")
        return int(made[1]), int(last_seq[1])

    link.send("emit", n=remaining, rate=rate, stamp=1, boot=boot_id(boot))
    t0 = time.monotonic()
    try:
        while time.monotonic() - t0 < timeout:
            pump()
            # Faults are placed by events accounted for: delivered, or lost in a reboot's gap
            # (counting only delivered ones, a run whose reboots lose many never gets there).
            accounted = len(seen) + sum(g.get("n") or 0 for g in gaps)
            if actions and accounted >= actions[0][0]:
                _, what = actions.pop(0)
                outages.append([now_us(), 0])
                if what == "disconnect":
                    wire.blackout(0.3)  # whatever is on the cable is lost...
                    link.reconnect()  # ...and the host reopens the port
                    time.sleep(0.3)
                    outages[-1][0] += 300_000  # events born before now are stuck anyway
                else:
                    made, last_seq = stop_board()
                    generated += made
                    remaining -= made  # it may have made them all before the reboot came
                    prev = f"{boot_id(boot)}:{last_seq}"
                    boot += 1
                    this_boot = 0
                    board.start(boot_id(boot), boot * BOOT_SPAN, prev=prev)
                    link.send("emit", n=remaining, rate=rate, stamp=1, boot=boot_id(boot))
            # Done once the last boot's events are in and its hello (with the reboot's gap).
            if not actions and this_boot >= remaining and link.hello["boot"] == boot_id(boot):
                break
        elapsed = time.monotonic() - t0
        if elapsed < timeout:
            generated += stop_board()[0]  # counted by the board: more than asked shows here
        else:
            generated += remaining  # what it was asked for; the run failed anyway
        stats = link.stats()
    finally:
        link.close()
        wire.close()
        board.close()
    sent = generated
    latencies = [d - w for w, d in timing]
    # Events whose life [born, delivered] overlaps a fault waited for the fault to pass.
    calm = [d - w for w, d in timing if not any(w <= end and d >= start for start, end in outages)]
    return {
        "sent": sent,
        "delivered": len(seen),
        "lost": sent - len(seen),
        "reported_lost": sum(g.get("n") or 0 for g in gaps),
        "duplicated": sum(c - 1 for c in seen.values()),
        "gaps": len(gaps),
        "reboots": stats["reboots"],
        "reconnects": stats["reconnects"],
        "p50_ms": percentile(latencies, 50) / 1000,
        "p99_ms": percentile(latencies, 99) / 1000,
        "calm_n": len(calm),
        "calm_p50_ms": percentile(calm, 50) / 1000,
        "calm_p99_ms": percentile(calm, 99) / 1000,
        "elapsed_s": elapsed,
        "dropped_lines": stats["dropped"],
        "bad_crc": stats["bad_crc"],
        "damaged_bytes": wire.damaged,
        "wire_bytes": wire.passed,
        "host_dups": stats["duplicates"],
        "naks": stats["naks"],
        "timed_out": elapsed >= timeout,
    }
