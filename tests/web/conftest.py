"""Browser tests of the web console: Debian's chromium driven by Playwright.

No browser is ever downloaded: Playwright starts /usr/bin/chromium (`make test` installs
Debian's package when it is missing). Without it these tests fail, they never skip.
Set STICKTABLE_SCREENSHOTS=DIR (`make screenshots`) to keep a screenshot of each view.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sticktable import cli

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags chromium keeps calling home through a closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
# `sticktable run` on the simulated table; a loaded machine may take a while to boot MicroPython.
SIM_RUN = ("run", "--sim", "--hello-timeout", "30")
PHONE = {"width": 390, "height": 844}
TV = {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium (apt-get)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page_for(browser):
    """page_for(viewport=PHONE) -> a page in a fresh browser context (its own cookies)."""
    contexts = []

    def make(viewport=PHONE):
        context = browser.new_context(viewport=viewport)
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda err: page.errors.append(str(err)))
        return page

    yield make
    for context in contexts:
        context.close()


def command(*args: str) -> str:
    """What a `sticktable` command prints, run in this process (no interpreter start-up)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(list(args)) == 0
    return out.getvalue()


def replay(journal: str, game: int = 1, upto: int | None = None) -> dict:
    """`sticktable replay GAME [--upto N]`: the journal's own standings."""
    upto_args = ["--upto", str(upto)] if upto is not None else []
    return json.loads(command("replay", str(game), "--json", "--journal", journal, *upto_args))


def screenshot(page, name: str) -> None:
    """Keep a screenshot of the view for the README when asked to (make screenshots)."""
    folder = os.environ.get("STICKTABLE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=False)


def sticktable(*args, input=None, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "sticktable", *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


BLOODSTICKS = "first Ann\ncollect\nbet 2\nbutton 1\nbutton 2 long\ndrop flip\ntotals Ann=3 Bo=5\n"
BLOODSTICKS += "collect\nbet 1\nmatch Ann\ndrop high\ntotals Ann=4 Bo=1\n"


def play_bloodsticks(journal: str) -> None:
    """A short Bloodsticks game typed at the simulated table, into `journal`."""
    typed = sticktable(
        *SIM_RUN, "--game", "bloodsticks", "--players", "Ann,Bo,Cy", "--quiet",
        "--house", "first_dropper=host", "--house", "entry=totals", "--journal", journal,
        input=BLOODSTICKS,
    )  # fmt: skip
    assert typed.returncode == 0, typed.stdout[-2000:] + typed.stderr[-2000:]


class Served:
    """A `sticktable` command that serves the console; `url` is read from what it prints.

    A thread reads its output, so waiting for a line has a real timeout."""

    URL = r"console: (http://[^/\s]+)"

    def __init__(self, *args: str, stdin=subprocess.DEVNULL):
        self.proc = subprocess.Popen(
            [sys.executable, "-u", "-m", "sticktable", *args],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.url = self.read_until(self.URL, timeout=60).group(1)

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self._queue.put(line)
        self._queue.put(None)

    def read_until(self, pattern: str, timeout: float = 120, nth: int = 1) -> re.Match:
        """The `nth` line of the command's output (read so far or to come) matching `pattern`."""
        regex = re.compile(pattern)
        found = [m for line in self.lines if (m := regex.search(line))]
        deadline = time.monotonic() + timeout
        while len(found) < nth and time.monotonic() < deadline:
            try:
                line = self._queue.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
            if match := regex.search(line):
                found.append(match)
        if len(found) < nth:
            raise AssertionError(f"no line matched {pattern!r}:\n" + "".join(self.lines[-80:]))
        return found[nth - 1]

    def stop(self) -> str:
        """Ctrl-C, as a user stops it; everything it printed."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        while True:
            try:
                line = self._queue.get(timeout=5)
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
        return "".join(self.lines)


@pytest.fixture
def serve():
    """serve(*args) -> a running `sticktable` command with a console; stopped at the end."""
    running = []

    def start(*args, **kwargs):
        served = Served(*args, **kwargs)
        running.append(served)
        return served

    yield start
    for served in running:
        served.stop()
