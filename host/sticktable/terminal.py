"""The table at a terminal: an output that prints the table's updates, and the keyboard as
an input (lines typed or piped, read in a thread so the board is never kept waiting).

Games with hidden hands (Sticks in digital mode) are played hot-seat at the one screen: when
a turn begins the screen hides every hand and asks "Bo: press Enter to see your hand"; Enter
shows the player whose turn it is their own hand and moves (`RuleSet.private_lines`), to this
terminal only (never published to the table's other outputs), kept up to date as they play,
until Enter again or the end of their turn hides it. On a terminal hiding clears the screen
and its scrollback; piped output cannot take lines back, so it only marks where a hand ends.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass

from sticktable.daemon import standings_table
from sticktable.engine import Game
from sticktable.rings_view import RingPrinter
from sticktable.table import GameOver, Line, Outbox, Rings, RoundOver, State, Table, Update

CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # cursor home, clear the screen, clear the scrollback


@dataclass(frozen=True)
class Reveal:
    """Enter was pressed: the table as it was then (taken in the loop's thread, in order with
    the lines typed before it)."""

    state: State


class TerminalOutput:
    """Prints the event stream, the rings, each round's result and the final standings, and
    runs the hot-seat screen (`quiet`: only the standings and the hot-seat screen; `clear`:
    the output is a terminal whose screen can be cleared)."""

    def __init__(self, quiet: bool = False, say=print, clear: bool = False):
        self.quiet = quiet
        self.say = say
        self.clear = clear
        self.rings = RingPrinter(say)
        self.turn: tuple | None = None  # the hot-seat turn on screen (RuleSet.hot_seat)
        self.shown: int | None = None  # the log's length when the hand was shown; None: hidden

    def __call__(self, update: Update | Reveal) -> None:
        if isinstance(update, GameOver):
            self._standings(update)
        elif isinstance(update, State):  # the hot-seat screen, quiet or not: it is the game
            self._on_state(update.game)
        elif isinstance(update, Reveal):
            self._on_enter(update.state.game)
        elif self.quiet:
            return
        elif isinstance(update, Line):
            self.say(update.text)
        elif isinstance(update, Rings):
            self.rings.update(update.frame, update.names, force=update.final)
        elif isinstance(update, RoundOver):
            result = update.result
            parts = [f"round {result.number} over" + (f" ({result.how})" if result.how else "")]
            if result.scores:
                parts.append(", ".join(f"{n} {v}" for n, v in result.scores.items()))
            totals = ", ".join(f"{n} {v}" for n, v in update.totals.items())
            self.say(f"  == {': '.join(parts)}; totals: {totals}")

    # -- hot-seat ---------------------------------------------------------------------------

    def _on_state(self, game: Game) -> None:
        turn = game.rules.hot_seat(game.state)
        if turn != self.turn:
            self._hide()
            self.turn = turn
            if turn is not None:
                self._prompt(game, turn[0])
        elif self.shown is not None and self.shown != len(game.events):
            self._table(game)  # the player moved: the table and their hand as they are now
            self._show(game, turn[0])

    def _on_enter(self, game: Game) -> None:
        self._on_state(game)  # the table may be ahead of the last state told
        if self.turn is None:
            return
        if self.shown is None:
            self._show(game, self.turn[0])
        else:
            self._hide()
            self._prompt(game, self.turn[0])

    def _prompt(self, game: Game, player: str) -> None:
        self.say("")
        self._table(game)
        self.say(f"{player}: press Enter to see your hand (everyone else looks away)")

    def _table(self, game: Game) -> None:
        for line in [game.rules.status(game.state), *game.rules.public_lines(game.state)]:
            self.say(line)

    def _show(self, game: Game, player: str) -> None:
        for line in game.rules.private_lines(game.state, player):
            self.say(f"  | {line}")
        self.shown = len(game.events)

    def _hide(self) -> None:
        if self.shown is None:
            return
        self.shown = None
        self.say(CLEAR if self.clear else "  | (hand hidden)")

    def _standings(self, over: GameOver) -> None:
        finished = over.standings.finished
        self.say(f"\ngame {over.game_id} {'over' if finished else 'not finished'}")
        for line in standings_table(over.standings):
            self.say(line)


_STDOUT = threading.Lock()


def print_line(text: str = "") -> None:
    """print(), except that a reader gone away (`sticktable run ... | head`) sends the rest
    nowhere instead of raising in the output's thread."""
    try:
        with _STDOUT:  # one write per line: outputs in other threads never split it
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


class PromptedScreen:
    """A terminal's lines with the keyboard's prompt kept below them: each line is written
    over the prompt, which is then drawn again (so typing always has a prompt, however fast
    the stream scrolls)."""

    def __init__(self, stream, prompt: str = "> "):
        self.stream = stream
        self.prompt = prompt
        self.lock = threading.Lock()

    def __call__(self, text: str = "") -> None:
        with self.lock:
            self.stream.write(f"\r\x1b[K{text}\n{self.prompt}")
            self.stream.flush()

    def close(self) -> None:
        """Take the prompt away (the keyboard is no longer read)."""
        with self.lock:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


class Keyboard:
    """Lines typed or piped (stdin), read in one thread for the whole run and submitted to the
    table playing now (`to`); between games (`to(None)`) a line is answered with `idle`. When
    the input ends, the table playing then, and each one after, is told so."""

    def __init__(self, stream=None, idle: Callable[[str], None] | None = None):
        self._stream = stream
        self._idle = idle or (lambda line: None)
        self._lock = threading.Lock()
        self._table: Table | None = None
        self._on_enter: Callable[[], None] | None = None
        self._ended = False
        self._thread: threading.Thread | None = None

    def to(self, table: Table | None, on_enter: Callable[[], None] | None = None) -> None:
        """Submit lines to `table` from now on; an empty line (Enter) also calls `on_enter` in
        the loop's thread, once the lines before it are applied."""
        with self._lock:
            self._table, self._on_enter = table, on_enter
            ended = self._ended
        if table is not None and ended:
            table.end_input()
        if self._thread is None:
            self._thread = threading.Thread(target=self._read, daemon=True)
            self._thread.start()

    def _read(self) -> None:
        for line in self._stream or sys.stdin:
            with self._lock:
                table, on_enter = self._table, self._on_enter
            if table is None:
                self._idle(line)
                continue
            enter = (lambda _answer, f=on_enter: f()) if on_enter and not line.strip() else None
            table.submit(line, enter)
        with self._lock:
            self._ended, table = True, self._table
        if table is not None:
            table.end_input()


def reveal_on_enter(table: Table, terminal: Outbox) -> Callable[[], None]:
    """What Enter does (call it in the loop's thread): the table as it is now, to the
    terminal's outbox alone."""
    return lambda: terminal.put(Reveal(table.state()))
