"""Pytest set-up shared by every test area: tests/ on sys.path, Ctrl-C as at a terminal, and
the MicroPython runner."""

import signal
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from micropython_runner import run_micropython  # noqa: E402

# A backgrounded `make test` (`make test &` in a script, nohup) starts with SIGINT ignored, and
# an ignored signal stays ignored in every program a test starts: daemons and boards that the
# tests stop with Ctrl-C (SIGINT) would keep running, and a daemon left running keeps reopening
# its port's path, which the kernel then gives to a later test's pty ("the port is busy").
# A handler (unlike SIG_IGN) is reset to the default on exec: children take Ctrl-C again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def mp():
    """The MicroPython runner, as a fixture."""
    return run_micropython
