"""`sticktable run --port` as its own process, for tests that kill it (SIGKILL), stop it (Ctrl-C)
and start it again with `--resume`: its output goes to a log file, keys are typed through a
pipe, and with `referee=True` it gets `ok` whenever it says play is paused."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

PAUSED = ("check the tower", "play is paused")


def ctrl_c_works() -> None:
    """In the child: SIGINT as at a terminal. A test run from a background job inherits SIGINT
    ignored, and Python then never turns it into KeyboardInterrupt: Ctrl-C would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Daemon:
    started: list[Daemon] = []  # see stop_all()

    def __init__(self, port: str, journal, log: Path, *args: str, referee: bool = False):
        cmd = [sys.executable, "-m", "sticktable", "run", "--port", port]
        self.log = Path(log)
        self.referee = referee
        self.okays = 0
        self.proc = subprocess.Popen(
            [*cmd, "--journal", str(journal), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=ctrl_c_works,
        )
        Daemon.started.append(self)
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        with open(self.log, "a") as log:
            for line in self.proc.stdout:
                log.write(line)
                log.flush()
                if self.referee and any(words in line for words in PAUSED):
                    self.key("ok")
                    self.okays += 1

    def key(self, line: str) -> None:
        with self._lock:
            try:
                self.proc.stdin.write(line + "\n")
                self.proc.stdin.flush()
            except (OSError, ValueError):
                pass  # it died (or was stopped) meanwhile

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def output(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def stop(self, sig: int = signal.SIGKILL, timeout: float = 30.0) -> int:
        """Send `sig` and wait for the exit (SIGKILL after `timeout`); the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self._reader.join(5)
        with self._lock:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        return code

    @classmethod
    def stop_all(cls) -> None:
        """Kill every daemon a test started that still runs (call at teardown)."""
        while cls.started:
            daemon = cls.started.pop()
            if daemon.alive:
                daemon.stop()
