"""The table at a terminal: an output that prints the table's updates, and the keyboard as
an input (lines typed or piped, read in a thread so the board is never kept waiting)."""

from __future__ import annotations

import sys
import threading

from sticktable.daemon import standings_table
from sticktable.rings_view import RingPrinter
from sticktable.table import GameOver, Line, Rings, RoundOver, Table, Update


class TerminalOutput:
    """Prints the event stream, the rings, each round's result and the final standings
    (`quiet`: only the standings)."""

    def __init__(self, quiet: bool = False, say=print):
        self.quiet = quiet
        self.say = say
        self.rings = RingPrinter(say)

    def __call__(self, update: Update) -> None:
        if isinstance(update, GameOver):
            self._standings(update)
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

    def _standings(self, over: GameOver) -> None:
        finished = over.standings.finished
        self.say(f"\ngame {over.game_id} {'over' if finished else 'not finished'}")
        for line in standings_table(over.standings):
            self.say(line)


def read_keyboard(table: Table, stream=None) -> threading.Thread:
    """Submit each line of `stream` (stdin) to the table, then tell it the input ended."""

    def read() -> None:
        for line in stream or sys.stdin:
            table.submit(line)
        table.end_input()

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread
