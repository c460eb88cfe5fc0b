"""The simulated table: the real firmware under MicroPython, wired to a virtual tower.

`SimTable(samples, meta)` starts `micropython tablefw/unix_main.py` with its stdin/stdout on a
pty (open `.port` with pyserial exactly like `/dev/ttyACM0`) and two pipes (contract "Simulated
board <-> virtual tower"; the firmware end is firmware/tablefw/board_sim.py):

- tower -> firmware: one JSON line (the sensor-trace meta), then one `<I4i3hB` record per sample
  (t_ms, four cells with MISSING for none, ax, ay, az in milli-g, buttons), then t_ms 0xFFFFFFFF;
- firmware -> tower: b"A" after each processed sample, b"L" + u16le length + GRB bytes whenever
  the LED frame changes, b"W" + u16le timeout_ms at each watchdog feed.

Failing hardware is part of the samples (firmware/tablefw/board_sim.py acts on it): a cell that
stops answering is None (MISSING) in sample after sample, and `ax` may be ACCEL_FAILED (the
accelerometer did not answer: an I2C error) or ACCEL_STUCK (the read never returns, as on a
stuck I2C bus: the firmware hangs). `sensor_fault()` and `hang_at()` put them into a sample
stream.

The watchdog: SimTable plays the RP2040's watchdog peripheral. The firmware's first feed starts
it; when no feed comes for the timeout it announces (real time), SimTable kills the firmware and
starts it again on the same pty (its unread host bytes are gone, as in a reset) with
`--reset watchdog`: a new boot id, the meta line again, then the samples go on (the sample being
processed when it hung is lost). `.resets` counts these resets. `reboot()` resets it the same way
at once (what a test's unplugged and replugged board, or a brown-out, would do). A file stands
for the RP2040's watchdog scratch registers (firmware/tablefw/keep.py): made empty at start (a
power-on), kept across these resets, so the next hello's `prev` says what the reset lost.

A feeder thread sends a sample only once the previous one is acknowledged (lockstep), so with
`speed=0` simulated time runs as fast as the firmware can go; `speed=s` paces it at s x real time.
With `paced_by_host` (the default) the firmware also holds simulated time while no host is
connected or an event is not yet acknowledged: the table behaves as if its host answered
instantly, so a fast simulation never outruns the daemon (no lost events, `arm` arrives in
time). A reader thread keeps the latest LED frame in `.leds`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import tty
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from sticktable.errors import UserError
from sticktable.paths import FIRMWARE_DIR
from tablefw.reading import MISSING

RECORD = struct.Struct("<I4i3hB")
RECORD_CELLS = 4
END_T = 0xFFFFFFFF
ACCEL_FAILED = -32768  # ax of a record: the accelerometer read failed (an I2C error)
ACCEL_STUCK = -32767  # ax of a record: the accelerometer read never returns (a stuck I2C bus)
ACCEL_MIN = -32766  # real readings are clamped above the two markers
ACK = ord("A")
LED = ord("L")
FEED = ord("W")
STDERR_TAIL = 300  # characters of the firmware's last stderr line quoted in an error


class FirmwareDied(UserError):
    """The simulated board's firmware stopped on its own: the message ends with the last line of
    its traceback, `stderr` holds all of it."""

    stderr = ""


# The simulated board runs the firmware from its sources, and the unix port compiles them on
# the board's heap: the compiler's allocations fragment it, so the whole application needs more
# than a Pico's 192 KB. A real board loads precompiled .mpy files (tests/bench/bench_ram.py
# reports the smallest heap each way). Where the compiler's largest block lands depends on the
# order of everything compiled before it, so a detector a few lines shorter can fail at 256 KB
# where a longer one passed: this heap is a test setting, not the product's budget. (320 KB
# until a swap guard of one comparison in settle.py left the ESP32 test's script short of
# 1,280 contiguous bytes: it passed at 336 KB and failed at 304, so 384 KB keeps a margin.)
SOURCE_HEAP = "384K"


def find_micropython() -> str:
    """The MicroPython unix port: next to this interpreter (the venv), else on PATH."""
    found = shutil.which("micropython", path=str(Path(sys.executable).parent)) or shutil.which(
        "micropython"
    )
    if found is None:
        raise UserError("the micropython command is missing; run `make setup`")
    return found


def pack_sample(sample) -> bytes:
    """One tower -> firmware record for a tower `Sample` (None cells become MISSING)."""
    cells = [MISSING if c is None else int(c) for c in sample.cells][:RECORD_CELLS]
    cells += [MISSING] * (RECORD_CELLS - len(cells))
    ax = sample.ax if sample.ax in (ACCEL_FAILED, ACCEL_STUCK) else _mg(sample.ax)
    return RECORD.pack(
        int(sample.t_ms),
        *cells,
        ax,
        _mg(sample.ay),
        _mg(sample.az),
        int(sample.buttons) & 0xFF,
    )


def _mg(value) -> int:
    return max(ACCEL_MIN, min(32767, int(value)))


def sensor_fault(
    samples: Iterable, start_ms: int, end_ms: int, cells: Iterable[int] = (), accel: bool = False
) -> Iterator:
    """`samples` with a failure from start_ms until before end_ms: the given cells give no
    reading, and/or every accelerometer read fails."""
    dead = set(cells)
    for sample in samples:
        if start_ms <= sample.t_ms < end_ms:
            changes: dict = {}
            if dead:
                changes["cells"] = tuple(
                    None if i in dead else c for i, c in enumerate(sample.cells)
                )
            if accel:
                changes["ax"] = ACCEL_FAILED
            sample = dataclasses.replace(sample, **changes)
        yield sample


def hang_at(samples: Iterable, t_ms: int) -> Iterator:
    """`samples` where the first accelerometer read at or after t_ms never returns."""
    hung = False
    for sample in samples:
        if not hung and sample.t_ms >= t_ms:
            hung = True
            sample = dataclasses.replace(sample, ax=ACCEL_STUCK)
        yield sample


class SimTable:
    """Context manager running the firmware against a sample iterator.

    Attributes: `port` (pty path), `leds` (latest GRB frame, bytes, or None before the first),
    `frames` (LED frames seen), `samples_sent`, `samples_done` (threading.Event: all samples
    were processed, or the run stopped), `error` (what stopped the run early, or None),
    `resets` (watchdog resets so far), `watchdog_s` (the timeout the firmware set, None before
    its first feed or with `watchdog=False`).
    """

    def __init__(
        self,
        sample_source: Iterable,
        meta: dict,
        speed: float = 0.0,
        micropython: str | None = None,
        heap: str = SOURCE_HEAP,
        seats: int | None = None,
        on_frame: Callable[[bytes], None] | None = None,
        extra_path: Iterable[Path] = (),
        paced_by_host: bool = True,
        watchdog: bool = True,
    ):
        self._source = iter(sample_source)
        self._meta = dict(meta)
        if seats is not None:
            self._meta.setdefault("seats", seats)
        self.speed = speed
        self._micropython = micropython or find_micropython()
        self._heap = heap
        self._seats = seats
        self._on_frame = on_frame
        self._extra_path = [str(p) for p in extra_path]
        self._paced = paced_by_host
        self._watchdog = watchdog
        self.port: str | None = None
        self.leds: bytes | None = None
        self.frames = 0
        self.samples_sent = 0
        self.samples_done = threading.Event()
        self.error: Exception | None = None
        self.resets = 0
        self.watchdog_s: float | None = None
        self._fed_at: float | None = None  # last watchdog feed (monotonic), None: not started
        self._acks = threading.Semaphore(0)
        self._stop = threading.Event()
        # Held while the firmware process is replaced: writes to it and checks on it wait.
        self._lock = threading.RLock()
        self._generation = 0  # +1 per firmware start; threads of an older one stand down
        self._proc: subprocess.Popen | None = None
        self._threads: list[threading.Thread] = []
        self._stderr = tempfile.TemporaryFile()
        self._master: int | None = None
        self._slave: int | None = None
        self._samples_w: int | None = None
        self._keep_dir = tempfile.TemporaryDirectory(prefix="simtable-")
        self.keep_file = str(Path(self._keep_dir.name) / "scratch")  # empty: a power-on

    # -- life cycle ---------------------------------------------------------------------------

    def __enter__(self) -> SimTable:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # before the firmware writes: no echo, no newline translation
        self._master = master  # kept: a restarted firmware gets the same pty
        self._slave = slave  # held open so the firmware never sees a hang-up between opens
        self.port = os.ttyname(slave)
        with self._lock:
            self._spawn("power-on")
        for target in (self._feed, self._guard):
            self._thread(target)

    def _thread(self, target, *args) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)
        thread.start()
        self._threads.append(thread)

    def _spawn(self, reset: str) -> None:
        """Start the firmware (call with the lock held): fresh pipes, the meta line sent."""
        samples_r, samples_w = os.pipe()
        frames_r, frames_w = os.pipe()
        cmd = [
            self._micropython,
            "-X",
            f"heapsize={self._heap}",
            str(FIRMWARE_DIR / "tablefw" / "unix_main.py"),
            "--samples-fd",
            str(samples_r),
            "--frames-fd",
            str(frames_w),
            "--reset",
            reset,
            "--keep",
            self.keep_file,
        ]
        if self._seats is not None:
            cmd += ["--seats", str(self._seats)]
        if not self._paced:
            cmd.append("--free-run")
        env = dict(os.environ)
        # .frozen (MicroPython's own asyncio...) before FIRMWARE_DIR, which may be site-packages.
        env["MICROPYPATH"] = os.pathsep.join([*self._extra_path, ".frozen", str(FIRMWARE_DIR)])
        try:
            self._proc = subprocess.Popen(
                cmd,
                stdin=self._master,
                stdout=self._master,
                stderr=self._stderr,
                env=env,
                pass_fds=(samples_r, frames_w),
                close_fds=True,
            )
        except BaseException:
            for fd in (samples_w, frames_r):
                os.close(fd)
            raise
        finally:
            for fd in (samples_r, frames_w):
                os.close(fd)
        self._samples_w = samples_w
        self._generation += 1
        self._fed_at = None  # the new firmware starts its watchdog with its first feed
        self._acks = threading.Semaphore(0)
        self._thread(self._read_frames, frames_r, self._generation)
        self._write((json.dumps(self._meta) + "\n").encode())

    def reboot(self) -> None:
        """Reset the board now, as its watchdog would (a new boot; the scratch file kept)."""
        self._watchdog_reset()

    def _watchdog_reset(self) -> None:
        """What the RP2040's watchdog does to a board that stopped feeding it."""
        with self._lock:
            if self._stop.is_set():
                return
            self._proc.kill()
            self._proc.wait()
            os.close(self._samples_w)
            self._samples_w = None
            termios.tcflush(self._master, termios.TCIFLUSH)  # host bytes it never read
            self.resets += 1
            self._spawn("watchdog")

    def close(self) -> None:
        """Stop the firmware and the threads; raises what stopped the run early, if anything
        (FirmwareDied with the firmware's stderr, or the sample source's own exception)."""
        with self._lock:
            if self._stop.is_set():
                return  # closed already
            self._stop.set()
            died = self._proc is not None and self._proc.poll() is not None
            if self._proc is not None and not died:
                self._proc.terminate()
                try:
                    self._proc.wait(timeout=3)
                except subprocess.TimeoutExpired:
                    self._proc.kill()
                    self._proc.wait()
            for name in ("_samples_w", "_slave", "_master"):
                fd = getattr(self, name)
                if fd is not None:
                    setattr(self, name, None)
                    os.close(fd)
        for thread in self._threads:
            thread.join(timeout=3)
        self._keep_dir.cleanup()
        self.samples_done.set()
        if died and self._proc.returncode != 0 and self.error is None:
            self.error = self._died()
        if self.error is not None:
            raise self.error  # the firmware died, or the sample source failed: never silently

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def stderr_text(self) -> str:
        """What the firmware wrote to stderr so far (its tracebacks)."""
        self._stderr.flush()
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")

    def check(self) -> None:
        """Raise FirmwareDied if the firmware has stopped on its own."""
        with self._lock:
            if self._proc is not None and self._proc.poll() is not None:
                if not self._stop.is_set():
                    self.error = self.error or self._died()
        if isinstance(self.error, FirmwareDied):
            raise self.error

    def _died(self) -> FirmwareDied:
        # One line (the CLI prints user errors that way): the traceback's last line says why;
        # the whole stderr stays on the exception.
        text = self.stderr_text().strip()
        last = text.splitlines()[-1][:STDERR_TAIL] if text else ""
        code = self._proc.returncode if self._proc else None
        died = FirmwareDied(
            f"the simulated board's firmware stopped (exit {code})" + (f": {last}" if last else "")
        )
        died.stderr = text
        return died

    # -- threads ------------------------------------------------------------------------------

    def _feed(self) -> None:
        """Send the samples in lockstep with the firmware's acks (the meta line is _spawn's)."""
        try:
            start = time.monotonic()
            first_t = None
            for sample in self._source:
                if self._stop.is_set():
                    return
                if self.speed > 0:
                    first_t = sample.t_ms if first_t is None else first_t
                    due = start + (sample.t_ms - first_t) / 1000.0 / self.speed
                    delay = due - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                with self._lock:
                    generation = self._generation
                    self._write(pack_sample(sample))
                if not self._wait_ack(generation):
                    return
                self.samples_sent += 1
            with self._lock:
                self._write(RECORD.pack(END_T, *([MISSING] * RECORD_CELLS), 0, 0, 0, 0))
        except OSError as e:  # the firmware closed its end: it died, or we are closing
            if not self._stop.is_set():
                self.error = self._died() if self._proc.poll() is not None else e
        except Exception as e:  # noqa: BLE001 - a broken sample source ends the run, visibly
            self.error = e
        finally:
            self.samples_done.set()

    def _write(self, data: bytes) -> None:
        fd = self._samples_w
        if fd is None:
            raise OSError("the simulated table is closed")
        os.write(fd, data)

    def _wait_ack(self, generation: int) -> bool:
        """True once the sample is processed, or lost in a watchdog reset; False to stop."""
        while not self._acks.acquire(timeout=0.1):
            with self._lock:
                if self._stop.is_set():
                    return False
                if self._generation != generation:
                    return True  # the firmware was reset while it had this sample
                if self._proc.poll() is not None:
                    self.error = self._died()
                    return False
        return True

    def _guard(self) -> None:
        """The watchdog peripheral: a firmware that stopped feeding it is reset."""
        while not self._stop.wait(0.02):
            fed_at, timeout = self._fed_at, self.watchdog_s
            if fed_at is not None and timeout and time.monotonic() - fed_at > timeout:
                self._watchdog_reset()

    def _read_frames(self, fd: int, generation: int) -> None:
        """Split one firmware run's output pipe into acks, watchdog feeds and LED frames."""
        buf = b""
        try:
            while True:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return
                if not chunk or self._generation != generation:
                    return  # the firmware exited (or was reset: this run's leftovers are moot)
                buf += chunk
                while buf:
                    kind = buf[0]
                    if kind == ACK:
                        self._acks.release()
                        buf = buf[1:]
                    elif kind in (LED, FEED):
                        if len(buf) < 3:
                            break
                        size = buf[1] | buf[2] << 8
                        if kind == FEED:
                            buf = buf[3:]
                            if self._watchdog:
                                self.watchdog_s = size / 1000.0
                                self._fed_at = time.monotonic()
                            continue
                        if len(buf) < 3 + size:
                            break
                        frame = bytes(buf[3 : 3 + size])
                        buf = buf[3 + size :]
                        self.leds = frame
                        self.frames += 1
                        if self._on_frame is not None:
                            self._on_frame(frame)
                    else:
                        self.error = FirmwareDied(
                            f"the simulated board sent byte {kind:#04x} on the tower pipe"
                        )
                        return
        finally:
            os.close(fd)
