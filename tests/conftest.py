"""Pytest set-up shared by every test area: tests/ on sys.path, and the MicroPython runner."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from micropython_runner import run_micropython  # noqa: E402


@pytest.fixture
def mp():
    """The MicroPython runner, as a fixture."""
    return run_micropython
