"""A table with no microcontroller: the firmware application runs on this Raspberry Pi under
CPython (firmware/tablefw/board_blinka.py: HX711s, LIS3DH, rings and buttons through Blinka).

`PiTable()` starts it as its own process with its stdin/stdout on a pty (`.port`, opened with
pyserial like /dev/ttyACM0), so the daemon speaks the same protocol to it as to a board on USB
and everything above the link is unchanged. `python -m sticktable.pitable` is that process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import tty

from sticktable.errors import UserError

STDERR_TAIL = 300  # characters of the firmware's last stderr line quoted in an error


class PiTable:
    def __init__(self, env: dict | None = None):
        self._env = env
        self.port: str | None = None
        self._proc: subprocess.Popen | None = None
        self._stderr = tempfile.TemporaryFile()
        self._fds: list[int] = []

    def __enter__(self) -> PiTable:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no newline translation: a serial line
        self._fds = [master, slave]
        self.port = os.ttyname(slave)
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "sticktable.pitable"],
            stdin=master,
            stdout=master,
            stderr=self._stderr,
            env=self._env,
            close_fds=True,
        )
        return self

    def check(self) -> None:
        """UserError with the firmware's last words if it stopped."""
        if self._proc is not None and self._proc.poll() is not None:
            self._stderr.seek(0)
            lines = self._stderr.read().decode(errors="replace").strip().splitlines()
            last = lines[-1][-STDERR_TAIL:] if lines else f"exit status {self._proc.returncode}"
            raise UserError(f"the Pi table's firmware stopped: {last}")

    def __exit__(self, *exc) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        for fd in self._fds:
            os.close(fd)
        self._fds = []
        self._stderr.close()


def import_firmware_package() -> None:
    """Make `tablefw` importable under CPython, whether or not it installs with the host yet
    (H-FIRMWARE's packaging; until then sticktable.paths puts it on the path)."""
    try:
        import tablefw.app  # noqa: F401
    except ImportError:
        from sticktable.paths import import_firmware

        import_firmware()


def main() -> None:
    import_firmware_package()
    from tablefw import board_blinka

    board_blinka.main()


if __name__ == "__main__":
    main()
