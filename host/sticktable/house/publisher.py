"""A table publishes its journal to the house's broker, from a cursor kept in the journal.

The journal is the source of truth: the publisher reads it (its own SQLite connection, in its
own thread, so neither a slow broker nor a lost network ever holds up the table) and publishes
every game's header, events (QoS 1) and standings. The cursor says, per game, how many events
the broker has acknowledged; it moves only on the broker's PUBACK and is stored in the same
journal, so after a crash, a restart or minutes without network the publisher picks up exactly
where the broker stopped acknowledging. Repeats are harmless: the house stores by
(table, game, index). A house that missed something asks with `control/resend`.
"""

from __future__ import annotations

import contextlib
import json
import queue
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import quote

from sticktable.engine import Game, RuleError
from sticktable.errors import UserError
from sticktable.house import topics
from sticktable.house.broker import Broker, Connection, add_broker_options, broker_from_args
from sticktable.house.views import standings_payload

CURSOR_SCHEMA = """
CREATE TABLE IF NOT EXISTS mqtt_cursor (
    target TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    acked INTEGER NOT NULL,
    done INTEGER NOT NULL,
    PRIMARY KEY (target, game_id)
);
"""
POLL_S = 0.02
# Standings are retained summaries, not the record: at most this often per game (and at its end).
STANDINGS_EVERY_S = 0.5
# Publications in flight (sent, not yet acknowledged) per game at most.
WINDOW = 200
# At the end of a game, how long `run` waits for the broker to take what it has not yet (a
# table off the network for a while); what is left is published at the next `run --mqtt`.
DRAIN_S = 60.0

# What a message id stands for when it is not an event index.
HEADER, HEADER_FINISHED, STANDINGS = -1, -2, -3


@dataclass
class _Outgoing:
    """One game as the publisher sees it."""

    game: Game | None  # the engine, kept in step with the journal, for the standings
    source: str
    finished: bool
    read: int = 0  # events read from the journal (and applied to `game`)
    events: list[dict] = field(default_factory=list)  # read, not yet acknowledged
    acked: int = 0  # events the broker has acknowledged (the stored cursor)
    sent: int = 0  # next event index to send
    header_sent: bool = False  # on this connection
    header_acked: bool | None = None  # the `finished` of the header the broker acknowledged
    standings_sent: int = -1
    standings_at: float = 0.0  # when they were last published (monotonic)
    early: set[int] = field(default_factory=set)  # acknowledged out of order

    @property
    def done(self) -> bool:
        """Everything of a finished game is on the broker: no need to look at it again."""
        return self.finished and self.header_acked is True and self.acked == self.read


class TablePublisher:
    """Publishes the games of the journal at `journal_path` as table `table` on `broker`."""

    def __init__(self, journal_path, broker: Broker, table: str, say=print):
        self.journal_path = str(journal_path)
        self.broker = broker
        self.table = topics.check_table_name(table)
        self.say = say
        self.target = f"{broker.host}:{broker.port}/{table}"
        offline = topics.encode({"online": False, "table": table})
        self.connection = Connection(
            broker,
            client_id=f"sticktable-table-{table}",
            clean=True,
            will=(topics.status_topic(table), offline, 1, True),
        )
        self.connection.on_connected = self._on_connected
        self.connection.client.on_publish = lambda c, u, mid, rc, p: self._acks.put(mid)
        self.connection.client.on_message = self._on_message
        self._acks: queue.Queue[int] = queue.Queue()
        self._resends: queue.Queue[tuple[int, int]] = queue.Queue()
        self._reconnected = threading.Event()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._games: dict[int, _Outgoing] = {}
        self._in_flight: dict[int, tuple[int, int]] = {}  # mid -> (game id, index or kind)
        self._status: dict | None = None
        self._caught_up = threading.Event()
        self._rounds = 0  # passes of the publishing loop
        self._journal_version: int | None = None
        self._thread: threading.Thread | None = None
        self.db: sqlite3.Connection | None = None

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> bool:
        """Connect and start publishing; False when the broker is not reachable yet (the
        publisher keeps trying). A refused login raises UserError."""
        connected = self.connection.start()
        self._thread = threading.Thread(target=self._run, name="mqtt-publisher", daemon=True)
        self._thread.start()
        return connected

    def wake(self) -> None:
        """Something was journaled: look now rather than at the next poll."""
        self._wake.set()

    def pending(self) -> int:
        """Journaled events the broker has not acknowledged yet."""
        return sum(g.read - g.acked for g in list(self._games.values()))

    def drain(self, wait_s: float = DRAIN_S, say=None) -> int:
        """Wait up to `wait_s` until the broker has taken every journaled event (connected or
        not: the network may come back); returns how many it has not."""
        deadline = time.monotonic() + wait_s
        told = time.monotonic()
        start = self._rounds
        self.wake()
        while time.monotonic() < deadline and self._thread and self._thread.is_alive():
            # Two full rounds after the call: the last events journaled have been read.
            if self._rounds >= start + 2 and self._caught_up.is_set():
                break
            if say and time.monotonic() - told >= 10:
                say(f"publishing: still waiting for the broker ({self.pending()} event(s) left)")
                told = time.monotonic()
            time.sleep(POLL_S)
        return self.pending()

    def stop(self) -> int:
        """Say offline and stop; returns how many journaled events the broker has not taken
        (published at the next start, from the cursor)."""
        self._stopping.set()
        self.wake()
        if self._thread:
            self._thread.join(timeout=2)
        left = self.pending()
        if self.connection.connected.is_set():
            offline = topics.encode({"online": False, "table": self.table})
            info = self.connection.client.publish(
                topics.status_topic(self.table), offline, qos=1, retain=True
            )
            info.wait_for_publish(timeout=1)
        self.connection.stop()
        return left

    # -- the publishing thread -------------------------------------------------------------

    def _run(self) -> None:
        """Publish until stopped; a journal that cannot be read now (not made yet, locked
        for long) is tried again, never the end of publishing."""
        while not self._stopping.is_set():
            try:
                self._serve()
            except sqlite3.Error as err:
                self.say(f"publishing: journal {self.journal_path}: {err}; trying again")
                self._stopping.wait(1.0)

    def _serve(self) -> None:
        # mode=rw: the table's journal is made by the table, never by its publisher.
        uri = f"file:{quote(self.journal_path)}?mode=rw"
        self.db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10)
        self._journal_version = None
        try:
            self.db.executescript(CURSOR_SCHEMA)
            while not self._stopping.is_set():
                self._wake.wait(POLL_S)
                self._wake.clear()
                self._take_acks()
                if self._reconnected.is_set():
                    self._reconnected.clear()
                    self._start_over()
                self._take_resend_requests()
                self._read_journal()
                if self.connection.connected.is_set():
                    self._publish()
                if self.pending() == 0 and all(
                    g.header_acked == g.finished for g in self._games.values()
                ):
                    self._caught_up.set()
                else:
                    self._caught_up.clear()
                self._rounds += 1
        finally:
            self.db.close()

    def _on_connected(self) -> None:
        # In paho's network thread: only flags here, the work is done in the publisher thread.
        self.connection.client.subscribe(topics.resend_topic(self.table), qos=1)
        self._reconnected.set()
        self._wake.set()

    def _on_message(self, client, userdata, message) -> None:
        try:
            request = topics.parse(message.topic, message.payload)
        except topics.Malformed as err:
            self.say(f"mqtt: ignored a malformed request: {err}")
            return
        if request.kind == "resend":
            self._resends.put((request.payload["game"], request.payload["from"]))
            self._wake.set()

    def _start_over(self) -> None:
        """A new connection: what was in flight may be lost, send again from the cursor."""
        self._in_flight.clear()
        for out in self._games.values():
            out.sent, out.early = out.acked, set()
            out.header_sent, out.header_acked = False, None
            out.standings_sent = -1
        self._status = None

    def _take_resend_requests(self) -> None:
        while not self._resends.empty():
            game_id, start = self._resends.get_nowait()
            out = self._games.get(game_id)
            if out is None:
                # Published in full once and forgotten: look at it again from `start`.
                assert self.db is not None
                self.db.execute(
                    "UPDATE mqtt_cursor SET done = 0, acked = MIN(acked, ?)"
                    " WHERE target = ? AND game_id = ?",
                    (max(0, start), self.target, game_id),
                )
                continue
            out.sent = max(0, min(out.sent, start))
            out.header_sent = False
            out.standings_sent = -1
            if out.acked > out.sent:
                # The broker took those once; the house lost them: read them again.
                out.events = self._load_events(game_id, out.sent, out.acked) + out.events
                out.acked = out.sent
                out.early.clear()

    def _load_events(self, game_id: int, start: int, stop: int | None = None) -> list[dict]:
        assert self.db is not None
        rows = self.db.execute(
            "SELECT event FROM events WHERE game_id = ? AND idx >= ? AND idx < ? ORDER BY idx",
            (game_id, start, stop if stop is not None else 2**62),
        ).fetchall()
        return [json.loads(text) for (text,) in rows]

    def _read_journal(self) -> None:
        """New games and new events since the last look."""
        assert self.db is not None
        # data_version moves only when another connection (the table) commits: a cheap look.
        (version,) = self.db.execute("PRAGMA data_version").fetchone()
        if version == self._journal_version:
            return
        self._journal_version = version
        rows = self.db.execute(
            "SELECT g.id, g.header, g.source, g.finished,"
            " (SELECT COALESCE(MAX(idx) + 1, 0) FROM events e WHERE e.game_id = g.id),"
            " c.acked, c.done"
            " FROM games g LEFT JOIN mqtt_cursor c ON c.game_id = g.id AND c.target = ?"
            " WHERE c.done IS NULL OR c.done = 0",
            (self.target,),
        ).fetchall()
        for game_id, header, source, finished, count, acked, _ in rows:
            out = self._games.get(game_id)
            if out is None:
                out = self._games[game_id] = self._open_game(json.loads(header), source)
                out.acked = out.sent = out.read = acked or 0
                if out.read and out.game is not None:
                    self._catch_up_engine(game_id, out)
            if out.finished != (finished is not None):
                out.finished = finished is not None
                out.header_sent = False  # the house learns the game is over
            if count > out.read:
                new = self._load_events(game_id, out.read)
                out.events += new
                out.read += len(new)
                self._apply(out, new)

    def _open_game(self, header: dict, source: str) -> _Outgoing:
        try:
            return _Outgoing(Game(header), source, finished=False)
        except RuleError:
            return _Outgoing(None, source, finished=False)  # published without standings

    def _catch_up_engine(self, game_id: int, out: _Outgoing) -> None:
        """A game resumed from the cursor: the engine needs the events already published."""
        self._apply(out, self._load_events(game_id, 0, out.read))

    def _apply(self, out: _Outgoing, events: list[dict]) -> None:
        if out.game is None:
            return
        try:
            for event in events:
                out.game.apply(event)
        except RuleError as err:
            self.say(f"mqtt: a journaled game does not replay ({err}); published without standings")
            out.game = None

    def _publish(self) -> None:
        self._publish_status()
        for game_id, out in self._games.items():
            if not out.header_sent:
                header = {
                    "table": self.table,
                    "game": game_id,
                    "header": out.game.header if out.game else self._header(game_id),
                    "source": out.source,
                    "finished": out.finished,
                }
                self._send(game_id, HEADER, "header", header, retain=True)
                out.header_sent = True
            while out.sent < out.read and out.sent - out.acked < WINDOW:
                event = out.events[out.sent - out.acked]
                self._send(game_id, out.sent, "events", {"index": out.sent, "event": event})
                out.sent += 1
            due = out.finished or time.monotonic() - out.standings_at >= STANDINGS_EVERY_S
            if out.standings_sent != out.read and out.sent == out.read and due:
                standings = {"events": out.read, "standings": standings_payload(out.game)}
                self._send(game_id, STANDINGS, "standings", standings, retain=True)
                out.standings_sent, out.standings_at = out.read, time.monotonic()

    def _header(self, game_id: int) -> dict:
        assert self.db is not None
        (text,) = self.db.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
        return json.loads(text)

    def _publish_status(self) -> None:
        live = [(gid, out) for gid, out in self._games.items() if not out.finished]
        gid, out = live[-1] if live else (None, None)
        header = out.game.header if out and out.game else {}
        status = {
            "online": True,
            "table": self.table,
            "game": gid,
            "rules": header.get("game"),
            "players": header.get("players", []),
            "house": {k: v for k, v in header.items() if k not in ("game", "players")},
        }
        if status != self._status:
            self.connection.client.publish(
                topics.status_topic(self.table), topics.encode(status), qos=1, retain=True
            )
            self._status = status

    def _send(self, game_id: int, what: int, kind: str, payload: dict, retain=False) -> None:
        topic = topics.game_topic(self.table, game_id, kind)
        payload = {"table": self.table, "game": game_id, **payload}
        info = self.connection.client.publish(topic, topics.encode(payload), qos=1, retain=retain)
        if what == HEADER:
            what = HEADER_FINISHED if payload["finished"] else HEADER
        self._in_flight[info.mid] = (game_id, what)

    def _take_acks(self) -> None:
        """Move each game's cursor over what the broker acknowledged, contiguously."""
        moved: set[int] = set()
        while not self._acks.empty():
            mid = self._acks.get_nowait()
            game_id, what = self._in_flight.pop(mid, (None, 0))
            out = self._games.get(game_id) if game_id is not None else None
            if out is None:
                continue
            if what in (HEADER, HEADER_FINISHED):
                out.header_acked = what == HEADER_FINISHED
                moved.add(game_id)
            elif what >= out.acked:
                out.early.add(what)
                while out.acked in out.early:
                    out.early.discard(out.acked)
                    out.acked += 1
                    out.events.pop(0)
                moved.add(game_id)
        for game_id in moved:
            out = self._games[game_id]
            assert self.db is not None
            self.db.execute(
                "INSERT INTO mqtt_cursor (target, game_id, acked, done) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (target, game_id) DO UPDATE SET acked = excluded.acked,"
                " done = excluded.done",
                (self.target, game_id, out.acked, int(out.done)),
            )
            if out.done:
                del self._games[game_id]


@contextlib.contextmanager
def publishing(args, journal_path, say=print):
    """`run --mqtt URL --table NAME`: the table's journal published while the block runs, and
    what is left drained (or kept for next time) when it ends."""
    broker = broker_from_args(args)
    if broker is None:
        if args.table:
            raise UserError("--table NAME needs --mqtt URL")
        yield None
        return
    if not args.table:
        raise UserError("--mqtt needs --table NAME (this table's name in the house)")
    try:
        publisher = TablePublisher(journal_path, broker, args.table, say=say)
    except ValueError as err:
        raise UserError(f"--table: {err}") from None
    if publisher.start():
        say(f"publishing to {broker.address} as table {args.table}")
    else:
        say(f"MQTT broker {broker.address} not reachable yet: publishing when it is")
    try:
        yield publisher
    finally:
        time.sleep(2 * POLL_S)  # the last events journaled are read
        if publisher.pending():
            say(
                f"publishing: waiting for the broker to take {publisher.pending()} event(s) "
                "(Ctrl-C: publish them at the next run)"
            )
        try:
            publisher.drain(say=say)
        except KeyboardInterrupt:
            pass
        left = publisher.stop()
        if left:
            say(f"publishing: {left} event(s) not on the broker yet: sent at the next --mqtt run")


def add_publish_options(parser) -> None:
    add_broker_options(parser, "publish this table (status, every journaled event, standings)")
    parser.add_argument(
        "--table", metavar="NAME", help="this table's name in the house (with --mqtt)"
    )
