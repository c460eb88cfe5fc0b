"""A player at the shared screen of a real `sticktable run --game sticks` process: it reads
the screen as a person does (on a pty, so the program sees a terminal), presses Enter when the
screen asks for the player whose turn it is, and types one of the moves the screen lists.
It knows nothing of the game's code: only what the screen and `help` say."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time

PROMPT = re.compile(r"^(\S+): press Enter to see your hand", re.M)
HAND_END = re.compile(r"^  \| Enter hides your hand$", re.M)
OVER = re.compile(r"^game \d+ (over|not finished)$", re.M)
REFUSED = re.compile(r"-> .*refused: .*$|^  key: .*$", re.M)  # a typed move not taken
# The order a greedy player tries the listed moves in (a discard ends the turn).
PREFERENCE = ("laydown", "steal", "meld", "layoff", "draw stock", "draw", "discard")


class Screen:
    """The process, its screen (carriage returns dropped) and a keyboard. What is still to
    be read is `pending`; `consume` moves what was read into the record (`text`)."""

    def __init__(self, args: list[str], cwd=None):
        master, slave = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sticktable", *args],
            stdin=subprocess.PIPE,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            text=True,
        )
        os.close(slave)
        self.master = master
        self.read: list[str] = []
        self.pending = ""
        self.typed: list[str] = []

    @property
    def text(self) -> str:
        return "".join(self.read) + self.pending

    def type(self, line: str) -> None:
        self.typed.append(line)
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_first(self, patterns: dict, timeout: float = 60.0):
        """(name, match in `pending`) of the pattern that shows first."""
        deadline = time.monotonic() + timeout
        while True:
            found = [
                (m.start(), n, m) for n, p in patterns.items() if (m := p.search(self.pending))
            ]
            if found:
                _, name, match = min(found, key=lambda f: f[0])
                return name, match
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"waited for {list(patterns)}; screen ends:\n{self.text[-3000:]}"
                )
            if not self._read(deadline - time.monotonic()):
                raise EOFError(f"the program ended; screen ends:\n{self.text[-3000:]}")

    def consume(self, end: int) -> str:
        """The first `end` characters of `pending`, now read."""
        done, self.pending = self.pending[:end], self.pending[end:]
        self.read.append(done)
        return done

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], max(timeout, 0))
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # the pty closes once the program exits
            return False
        if not data:
            return False
        self.pending += data.decode("utf-8", "replace").replace("\r", "")
        return True

    def finish(self, timeout: float = 60.0) -> int:
        """Close the keyboard, read the rest; the exit code."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        deadline = time.monotonic() + timeout
        while self._read(deadline - time.monotonic()) and time.monotonic() < deadline:
            pass
        code = self.process.wait(timeout=max(deadline - time.monotonic(), 1))
        os.close(self.master)
        return code


def moves_in(block: str) -> list[str]:
    """The commands a hand screen lists (a discard as `discard CARD` for its first card)."""
    moves = []
    listing = False
    for line in block.splitlines():
        text = line.removeprefix("  | ")
        if text == "your moves (type one):":
            listing = True
        elif listing and text.startswith("  "):
            command = text.strip()
            if command.startswith("discard CARD"):
                command = "discard " + command.split("one of:")[1].split()[0]
            moves.append(command.split("   (")[0])
    return moves


def choose(moves: list[str]) -> str:
    for kind in PREFERENCE:
        for move in moves:
            if move.startswith(kind):
                return move
    raise AssertionError(f"no move listed: {moves}")


def play(screen: Screen, max_commands: int = 20000):
    """Play until the game is over. Yields (whose turn the screen said, the screen from
    that turn's prompt or the last move to the end of the hand shown) for every hand shown,
    so the caller can check who saw what."""
    patterns = {"prompt": PROMPT, "over": OVER}
    for _ in range(max_commands):
        name, match = screen.wait_first(patterns)
        if name == "over":
            return
        player = match[1]
        screen.consume(match.end())
        screen.type("")  # Enter: show me my hand
        while True:
            name, match = screen.wait_first({"hand": HAND_END, "refused": REFUSED, **patterns})
            assert name != "refused", f"{screen.typed[-1]!r}: {match[0]}"
            if name != "hand":
                break  # the turn is over (or the game)
            block = screen.consume(match.end())
            yield player, block
            screen.type(choose(moves_in(block)))
    raise AssertionError("the game did not end")
