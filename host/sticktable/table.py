"""The table service: one game at one table, with everything that watches or drives it.

`Table` owns the board link, the journal, the rule session (`daemon.TableSession`) and the
outputs, and runs the loop: board messages and typed lines go into the session, which
journals them; each journal transaction is then committed to the link (only what is on disk
is acknowledged to the board). Outputs subscribe and receive typed updates (`Line`,
`RoundOver`, `Rings`, `Shown`, `GameOver`, `State`, `Sensors`) through a bounded outbox each,
pumped by a thread of their own: a slow output loses its oldest updates, it never holds up
sensing or journaling. Inputs (keyboard lines, web requests) are submitted from any thread.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import queue
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from sticktable.daemon import TableSession
from sticktable.engine import Game, RoundResult, RuleError, Standings
from sticktable.errors import UserError
from sticktable.journal import Journal
from sticktable.samples import SampleTap, Sensors

POLL_S = 0.02  # how long one turn of the loop waits for the board
FINAL_FRAMES_S = 0.2  # at the end, how long the board may take to show the game over
OUTBOX_SIZE = 1000  # updates an output may fall behind by before it loses the oldest


# --- what outputs receive -------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A line of the event stream: a board fact, a typed command, what the rules decided."""

    text: str


@dataclass(frozen=True)
class RoundOver:
    result: RoundResult
    totals: Mapping[str, int]


@dataclass(frozen=True)
class Rings:
    """The LEDs as the board lit them (known on a simulated table)."""

    frame: bytes
    names: tuple[str, ...]  # who sits at each ring, in ring order
    final: bool = False


@dataclass(frozen=True)
class Shown:
    """What the table told the board's rings to show (the `show` command's fields)."""

    fields: Mapping


@dataclass(frozen=True)
class GameOver:
    """The table stopped: the game is over, or its input or simulation ended."""

    game_id: int
    standings: Standings


@dataclass(frozen=True)
class State:
    """The table after a turn that changed it (for outputs that show the whole game): a
    shallow copy of the game with its own copy of the log (the engine never changes a state
    in place), the pauses and the board's boot."""

    game: Game
    holds: Mapping[str, str]
    boot: str | None


@dataclass(frozen=True)
class Answer:
    """What became of a submitted line: applied or not, what the table said about it, how
    many events it added."""

    applied: bool
    said: tuple[str, ...]
    events: int


Update = Line | RoundOver | Rings | Shown | GameOver | State | Sensors
Output = Callable[[Update], None]


class Outbox:
    """One output's queue of updates. `put` never blocks: when the output has fallen
    `size` updates behind, the oldest is dropped (and counted)."""

    def __init__(self, size: int = OUTBOX_SIZE):
        self._items: collections.deque[Update] = collections.deque(maxlen=size)
        self._ready = threading.Condition()
        self._closed = False
        self.dropped = 0

    def put(self, update: Update) -> None:
        with self._ready:
            if len(self._items) == self._items.maxlen:
                self.dropped += 1
            self._items.append(update)
            self._ready.notify()

    def close(self) -> None:
        with self._ready:
            self._closed = True
            self._ready.notify()

    def get(self) -> Update | None:
        """The next update, waiting for one; None once closed and empty."""
        with self._ready:
            self._ready.wait_for(lambda: self._items or self._closed)
            return self._items.popleft() if self._items else None


class Table:
    """One game at the table (see the module docstring)."""

    def __init__(
        self,
        journal: Journal,
        game_id: int,
        game: Game,
        link,
        sim=None,
        rng=None,
        samples: bool = False,
    ):
        """`samples`: have the board stream its raw samples, publish the live load and tilt
        (`Sensors`) and journal the samples around each sensed event (samples.py)."""
        self.journal = journal
        self.game_id = game_id
        self.game = game
        self.link = link
        self.sim = sim  # a sim.registry.Simulation, or None at a real table
        # rng: where chance outcomes (shuffles, draws) come from; default the system's.
        self.session = TableSession(journal, game_id, game, self._send, self._say, rng)
        self._outputs: list[tuple[Outbox, threading.Thread]] = []
        self._inputs: queue.SimpleQueue[tuple[str, Callable] | None] = queue.SimpleQueue()
        self._said: list[str] | None = None  # what the session says about the line applied
        self._state_key = None  # what the last published State showed
        self._input_ended = False
        self._stop = threading.Event()
        self._rounds_told = len(game.standings().rounds)
        self._frame: bytes | None = None  # the LED frame last published
        self.tap = (
            SampleTap(link.send, link.accepts, self._journal_trace, self.publish)
            if samples
            else None
        )

    # -- outputs and inputs ----------------------------------------------------------------

    def subscribe(self, output: Output, size: int = OUTBOX_SIZE) -> Outbox:
        """`output` receives every update from now on, in a thread of its own."""
        outbox = Outbox(size)
        pump = threading.Thread(target=_pump, args=(outbox, output), daemon=True)
        self._outputs.append((outbox, pump))
        pump.start()
        return outbox

    def publish(self, update: Update) -> None:
        for outbox, _ in self._outputs:
            outbox.put(update)

    def submit(self, line: str, answer: Callable[[Answer], None] | None = None) -> None:
        """A typed command (any thread); `answer` (if given) is called with its `Answer`
        in the loop's thread once it is applied."""
        self._inputs.put((line, answer))

    def end_input(self) -> None:
        """No more typed commands will come (any thread)."""
        self._inputs.put(None)

    def stop(self) -> None:
        """End the loop at its next turn (any thread): the game stays unfinished."""
        self._stop.set()

    def _send(self, kind: str, **fields):
        """A command to the board; what the rings are told to show goes to the outputs too."""
        if kind == "show":
            self.publish(Shown(dict(fields)))
        return self.link.send(kind, **fields)

    def _say(self, text: str) -> None:
        if self._said is not None:
            self._said.append(text)
        self.publish(Line(text))

    # -- the loop --------------------------------------------------------------------------

    def run(self) -> Standings:
        """Play until the game is over (or its input or simulation ends); the standings."""
        try:
            self._on_messages([self.link.hello])
            self.session.begin()
            while not self.game.finished and not self._stopped():
                self._on_messages(self.link.poll(POLL_S))
                self._on_inputs()
                self._tell_state()
                self._show_rings()
            # The board's last messages and its game-over frame: the whole while, as a poll
            # returns at the first message (an acknowledgement, a raw sample).
            end = time.monotonic() + FINAL_FRAMES_S
            while (left := end - time.monotonic()) > 0:
                self._on_messages(self.link.poll(left))
            if self.tap is not None:
                self.tap.flush()  # the last events' samples, as far as they go
            self._tell_state()
            self._show_rings(final=True)
            standings = self.game.standings()
            self.publish(GameOver(self.game_id, standings))
            return standings
        finally:
            self.close_outputs()

    def close_outputs(self) -> None:
        """Let every output finish what it has been sent."""
        for outbox, pump in self._outputs:
            outbox.close()
            pump.join()
        self._outputs.clear()

    def _on_messages(self, messages: list[dict]) -> None:
        for message in messages:
            if self.tap is not None:
                self.tap.see(message)  # bounded work per sample; a trace write per event
            self.session.on_board(message)  # one journal transaction per fact
            self._tell_rounds()
        self.link.commit()  # journaled: now the board may forget them

    def _journal_trace(self, fact: dict, columns: list[str], rows: list) -> None:
        self.journal.record_trace(self.game_id, fact, self.session.boot, columns, rows)

    def _on_inputs(self) -> None:
        while True:
            try:
                line = self._inputs.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._input_ended = True
                return
            line, answer = line
            before, self._said = len(self.game.events), []
            try:
                applied = self.session.on_key(line)
            finally:
                said, self._said = tuple(self._said), None
            if answer is not None:
                answer(Answer(bool(applied), said, len(self.game.events) - before))
            self._tell_rounds()
            self._tell_state()  # after each line: a hot-seat screen follows every move

    def state(self) -> State:
        """The table now (call it from the loop's thread, or before the loop runs)."""
        game = copy.copy(self.game)
        game.events = list(self.game.events)
        return State(game, dict(self.session.holds), self.session.boot)

    def _tell_state(self) -> None:
        holds = tuple(sorted(self.session.holds.items()))
        key = (len(self.game.events), holds, self.session.boot)
        if key != self._state_key:
            self._state_key = key
            self.publish(self.state())

    def _stopped(self) -> bool:
        if self._stop.is_set():
            return True
        if self.sim is None:
            return False
        return self.sim.over() or (self._input_ended and self.sim.ends_with_input)

    def _show_rings(self, final: bool = False) -> None:
        frame = self.sim.tick() if self.sim is not None else None
        if frame and (final or frame != self._frame):
            self._frame = frame
            names = self.game.rules.display(self.game.state).names
            self.publish(Rings(frame, names or tuple(self.game.header["players"]), final))

    def _tell_rounds(self) -> None:
        standings = self.game.standings()
        for result in standings.rounds[self._rounds_told :]:
            self.publish(RoundOver(result, dict(standings.totals)))
        self._rounds_told = len(standings.rounds)


def _pump(outbox: Outbox, output: Output) -> None:
    while (update := outbox.get()) is not None:
        output(update)


# --- setting a table up ---------------------------------------------------------------------


def game_to_play(
    journal: Journal | None, resume: str | None, header: dict | None
) -> tuple[int | None, Game]:
    """An unfinished game from the journal (`resume`: its id, or "last") with its id, or a
    new game from `header` (id None: it is journaled once the board has answered)."""
    from sticktable.commands.replay import load_game

    if resume:
        assert journal is not None, "resuming needs the journal"
        row = journal.last_unfinished() if resume == "last" else journal.game(resume)
        if row is None:
            raise UserError("no unfinished game to resume (see `sticktable games`)")
        if row.finished is not None:
            raise UserError(f"game {row.id} is already finished")
        return row.id, load_game(journal, row.id)
    try:
        return None, Game(header or {})
    except RuleError as err:
        raise UserError(str(err)) from None


@contextlib.contextmanager
def open_link(
    port: str | None,
    hello_timeout: float,
    resume: tuple[str, int] | None,
    board: str | None = None,
) -> Iterator:
    """The link to the board (found on USB when `port` is None), past its hello; a resumed
    game's (`resume`, `board`: Journal.board_position, Journal.board) refuses another board."""
    from sticktable.link import BoardLink

    link = BoardLink.open(port, hello_timeout=hello_timeout, resume=resume, board=board)
    try:
        yield link
    finally:
        link.close()
