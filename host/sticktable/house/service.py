"""The house service: subscribes to every table on the broker and keeps the house journal.

paho's network thread only queues what arrives; this thread parses, checks and stores it, so
a slow disk never makes the broker drop the house. The house's session is persistent (a fixed
client id, clean_session off): while the house is stopped, the broker keeps its QoS 1 events.
Whatever is still missing (a broker restarted without its queue, an event that arrived ahead of
a gap) the house asks the table for with `control/resend`; the retained standings say how many
events each game has, so a house that starts late knows what it lacks.
"""

from __future__ import annotations

import queue
import threading
import time

from sticktable.house import topics
from sticktable.house.broker import Broker, Connection
from sticktable.house.store import HouseStore, where
from sticktable.house.views import plain

# How often the house may ask one table for one game again.
ASK_EVERY_S = 1.0
# Messages stored in one transaction at most.
BATCH = 500


class House:
    def __init__(self, store: HouseStore, broker: Broker, name: str = "house", say=print):
        self.store = store
        self.say = say
        self.connection = Connection(broker, client_id=f"sticktable-house-{name}", clean=False)
        self.connection.on_connected = self._on_connected
        self.connection.client.on_message = lambda c, u, m: self._inbox.put((m.topic, m.payload))
        self.connection.client.on_subscribe = lambda *_: self.subscribed.set()
        self.subscribed = threading.Event()  # the broker granted the subscription (SUBACK)
        self._inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self._asked: dict[tuple[str, int], float] = {}
        self._behind: dict[tuple[str, int], int] = {}  # games known to lack events: table's count
        self._online: dict[str, bool] = {}
        self.stored = 0

    def _on_connected(self) -> None:
        self.connection.client.subscribe(topics.ALL_TABLES, qos=1)

    def start(self, wait_s: float = 5.0) -> bool:
        """Connect and subscribe; True once the broker has granted the subscription within
        `wait_s` (from then on nothing a table publishes passes the house by)."""
        return self.connection.start() and self.subscribed.wait(wait_s)

    def stop(self) -> None:
        self.connection.stop()

    def run(self, stop: threading.Event, idle_s: float = 0.2) -> None:
        """Handle what arrives until `stop` is set. What has queued up meanwhile is stored in
        one transaction (one disk sync for many tables' events)."""
        while not stop.is_set():
            try:
                batch = [self._inbox.get(timeout=idle_s)]
            except queue.Empty:
                self._ask_for_missing()
                continue
            while len(batch) < BATCH and not self._inbox.empty():
                batch.append(self._inbox.get_nowait())
            with self.store.journal.transaction():
                for topic, raw in batch:
                    self.handle(topic, raw)
            self._ask_for_missing()

    def handle(self, topic: str, raw: bytes) -> None:
        try:
            message = topics.parse(topic, raw)
        except topics.Malformed as err:
            self.store.reject(topic, str(err))
            self.say(f"house: ignored a malformed message: {err}")
            return
        if message.kind == "status":
            self.store.on_status(message)
            online = message.payload["online"]
            if self._online.get(message.table) != online:
                self._online[message.table] = online
                self.say(f"house: table {message.table} {'online' if online else 'offline'}")
        elif message.kind == "header":
            known = self.store.count(message.table, message.game) is not None
            self.store.on_header(message)
            if not known and self.store.count(message.table, message.game) is not None:
                players = ", ".join(message.payload["header"].get("players", []))
                self.say(f"house: {where(message)}: {message.payload['header']['game']}, {players}")
        elif message.kind == "events":
            self._on_event(message)
        elif message.kind == "standings" and message.payload:
            self._note_count(message.table, message.game, message.payload["events"])

    def _on_event(self, message: topics.Message) -> None:
        outcome = self.store.on_event(message)
        if outcome == "stored":
            self.stored += 1
            key = (message.table, message.game)
            count = self.store.count(*key)
            if count is not None and count >= self._behind.get(key, 0):
                self._behind.pop(key, None)
            game = self.store.live_game(*key)
            if game is not None and game.finished and count == message.payload["index"] + 1:
                totals = plain(game.standings()).get("totals", {})
                told = ", ".join(f"{n} {v}" for n, v in totals.items())
                self.say(f"house: {where(message)} over: {told}")
        elif outcome == "unknown":
            self._ask(message.table, message.game, 0)
        elif outcome == "ahead":
            self._note_count(message.table, message.game, message.payload["index"] + 1)

    def _note_count(self, table: str, game: int, count: int) -> None:
        """The table has `count` events of this game: ask for any the house lacks."""
        have = self.store.count(table, game)
        if have is None or have < count:
            self._behind[(table, game)] = max(count, self._behind.get((table, game), 0))
            self._ask(table, game, have or 0)

    def _ask_for_missing(self) -> None:
        for (table, game), count in list(self._behind.items()):
            have = self.store.count(table, game)
            if have is not None and have >= count:
                del self._behind[(table, game)]
            else:
                self._ask(table, game, have or 0)

    def _ask(self, table: str, game: int, start: int) -> None:
        now = time.monotonic()
        if now - self._asked.get((table, game), -ASK_EVERY_S) < ASK_EVERY_S:
            return
        self._asked[(table, game)] = now
        if self.connection.connected.is_set():
            payload = topics.encode({"game": game, "from": start})
            self.connection.client.publish(topics.resend_topic(table), payload, qos=1)
