"""The running table, as the console sees it: snapshots of what the table publishes, inputs
submitted to it, and a WebSocket feed per browser.

The console is an output of the `table.Table`: it subscribes and gets, in a thread of its own,
the table's `State` after each turn that changed it (a copy made in the loop's thread, after
the journal commit) and its LED frames; it turns them into snapshots. Web inputs go through
`Table.submit`, the keyboard's path, and are answered with what the table said. Publishing
never waits: each browser's sender task picks up the latest snapshot when it is ready, so a
slow browser only falls behind (it then gets every log entry it missed at once, nothing lost)
and can never hold up sensing or journaling.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import time
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from sticktable.daemon import KEY_HELP
from sticktable.engine import RuleError
from sticktable.rings_view import LEDS_PER_RING
from sticktable.samples import Sensors
from sticktable.table import Answer, GameOver, Rings, State
from sticktable.web import model
from sticktable.web.security import Role

REPLY_TIMEOUT_S = 10.0
KEEP_VERSIONS = 1000  # how many snapshots back a slow browser can still get only what changed
# Lines the referee's view may send besides events: the keyboard's referee commands.
REFEREE_WORDS = ("undo", "fix", "ok")


@dataclass(frozen=True)
class Snapshot:
    """The table at one moment. `game` is a shallow copy: its state object is never changed
    in place by the engine (each event makes a new one), and its log is a copy."""

    version: int
    game: object
    game_id: int
    holds: dict
    boot: str | None
    leds: bytes | None
    committed: float  # time.time() when the loop published it (after the journal commit)
    costs: dict = field(default_factory=dict)  # score change per player since the last one
    # The first log entry that differs from the previous snapshot's: the new ones, or an
    # earlier one a correction has just struck through.
    dirty_from: int = 0


class LiveTable:
    """Shared by the console's output thread (`output`) and the web server (snapshots, inputs)."""

    def __init__(self, game_id: int, submit):
        self.snapshot: Snapshot | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self.games = 0  # how many games have begun (the setup page waits for the next)
        self.begin(game_id, submit)
        self._dirty: dict[int, int] = {}  # version -> its snapshot's dirty_from
        self.sensors: str | None = None  # the latest live load and tilt, as JSON text
        self.sensors_version = 0
        self._sensed: asyncio.Event | None = None

    def begin(self, game_id: int, submit) -> None:
        """A game from now on (the first, or the next at the same table): its snapshots follow
        the last one's version, so an open page takes the new game as one more change."""
        self.game_id = game_id
        self.games += game_id is not None
        self._submit = submit  # Table.submit: a line and the callback for its Answer
        self.closed = False  # the table's loop is over: the game can no longer take input
        self._state: State | None = None
        self._leds: bytes | None = None
        self._last_scores: list[int] | None = None
        self._cache: dict = {}

    # -- the table's side (the console's output thread) --------------------------------------

    def output(self, update) -> None:
        """The console as an output of the Table (see `Table.subscribe`)."""
        if isinstance(update, State):
            self._state = update
            self.publish(update, self._leds)
        elif isinstance(update, Rings):
            self._leds = update.frame
            if self._state is not None:
                self.publish(self._state, self._leds)
        elif isinstance(update, Sensors):
            self.sensors = json.dumps({"kind": "sensors", **sensors_json(update)})
            self.sensors_version += 1
            if self._loop is not None:
                self._loop.call_soon_threadsafe(self._wake_sensors)
        elif isinstance(update, GameOver):
            self.close()

    def publish(self, state: State, leds: bytes | None) -> None:
        game = state.game
        scores = list(model.ring_scores(game))
        costs = {}
        if self._last_scores is not None and len(self._last_scores) == len(scores):
            players = model.seat_names(game)
            costs = {
                players[i]: now - before
                for i, (before, now) in enumerate(zip(self._last_scores, scores, strict=True))
                if now != before
            }
        self._last_scores = scores
        previous = self.snapshot
        version = previous.version + 1 if previous else 1
        same_game = previous is not None and previous.game_id == self.game_id
        dirty_from = len(previous.game.events) if same_game else 0
        for event in game.events[dirty_from:]:
            if event.get("type") == "correct" and isinstance(event.get("target"), int):
                dirty_from = min(dirty_from, event["target"])
        self._dirty[version] = dirty_from
        self._dirty.pop(version - KEEP_VERSIONS, None)
        self.snapshot = Snapshot(
            version, game, self.game_id, dict(state.holds), state.boot, leds, time.time(),
            costs, dirty_from,
        )  # fmt: skip
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake)

    def close(self) -> None:
        """The loop is over: inputs that come now are refused."""
        self.closed = True

    # -- the server's side (its event loop) ---------------------------------------------------

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._loop is None:
            self._loop = loop
            self._changed = asyncio.Event()
            self._sensed = asyncio.Event()

    def _wake_sensors(self) -> None:
        sensed, self._sensed = self._sensed, asyncio.Event()
        sensed.set()

    async def sensors_since(self, version: int) -> tuple[int, str]:
        """The latest live load and tilt once newer than `version` (only the latest: a slow
        browser skips readings, it never queues them)."""
        self.attach(asyncio.get_running_loop())
        while self.sensors is None or self.sensors_version <= version:
            await self._sensed.wait()
        return self.sensors_version, self.sensors

    def _wake(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def changed_since(self, version: int) -> Snapshot:
        """The latest snapshot once it is newer than `version`."""
        self.attach(asyncio.get_running_loop())
        while self.snapshot is None or self.snapshot.version <= version:
            await self._changed.wait()
        return self.snapshot

    async def submit(self, line: str) -> dict:
        """Queue a keyboard line for the table's loop; its answer: {"ok": ...} or {"error": ...}."""
        if self.closed:
            return {"error": "the game is over: the table takes no input"}
        if self._submit is None:
            return {"error": "no game is being played yet: start one on the setup screen"}
        reply: concurrent.futures.Future = concurrent.futures.Future()
        self._submit(line, lambda answer: reply.set_result(answer_json(line, answer)))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(reply), REPLY_TIMEOUT_S)
        except TimeoutError:
            return {"error": "the table did not answer (is it still running?)"}

    def log_from(self, sent_version: int, sent_events: int, version: int) -> int:
        """Where the log a browser holds (as of `sent_version`, `sent_events` entries) first
        differs from `version`'s: it is sent the log from there on."""
        start = sent_events
        for v in range(sent_version + 1, version + 1):
            if v not in self._dirty:
                return 0  # too far behind to know: the whole log
            start = min(start, self._dirty[v])
        return start

    def message(self, snapshot: Snapshot, role: Role, log_from: int = 0) -> str:
        """What one browser receives of a snapshot, as JSON text: public for the room and the
        referee, plus a player's own view for a player, and the log from `log_from` on (the
        page keeps the rest). Built and encoded once per snapshot, role and starting point,
        so 50 viewers at the same pace cost one."""
        key = (snapshot.version, role, log_from)
        cached = self._cache.get(key)
        if cached is None:
            message = room_message(snapshot)
            if role.kind == "player":
                message["you"] = player_part(snapshot.game, role.player)
            message["log_from"], message["log"] = log_from, message["log"][log_from:]
            cached = json.dumps(message)
            self._cache = {k: v for k, v in self._cache.items() if k[0] >= snapshot.version - 1}
            self._cache[key] = cached
        return cached


def answer_json(line: str, answer: Answer) -> dict:
    """The table's answer to a web input: {"ok": what it said} or {"error": ...}, without
    the terminal's echo of the line (the page knows what it sent)."""
    echoes = (f"key {line.strip():28} -> ", f"key: {line.strip()}: ", "-- ")
    parts = []
    for text in answer.said:
        text = text.strip()
        for echo in echoes:
            text = text.removeprefix(echo.lstrip())
        parts.append(text)
    message = " · ".join(part for part in parts if part)
    refused = not answer.applied and line.split()[0] != "ok"
    if refused or "refused:" in message:
        return {"error": message or "nothing happened", "applied": answer.events}
    return {"ok": message}


def room_message(snapshot: Snapshot) -> dict:
    game = snapshot.game
    view = game.rules.view(game.state, None)
    display = model.display_json(game)
    log = model.numbered_log(game)
    return {
        "version": snapshot.version,
        "events": len(log),
        "game_id": snapshot.game_id,
        "committed": snapshot.committed,
        "summary": model.game_summary(game),
        "facts": model.scalar_facts(view),
        "view": view,
        "display": display,
        "seats": model.seat_names(game),
        "rings": rings_json(snapshot.leds, len(model.seat_names(game))),
        "keys_help": f"{KEY_HELP}\n{getattr(game.rules, 'keys_help', '')}".strip(),
        "log": log,
        "costs": snapshot.costs,
        "status": {
            "boot": snapshot.boot,
            "paused": list(snapshot.holds.values()),
            "finished": bool(game.finished),
        },
    }


def player_part(game, player: str) -> dict:
    """What only `player` may see and do: the rule set's own view for them, and their
    legal actions (concrete events, ready to send)."""
    view = game.rules.view(game.state, player)
    try:
        actions = game.rules.legal_actions(game.state, player)
    except RuleError:
        actions = []
    concrete = [a for a in actions if all(v is not None for v in a.values())]
    return {"player": player, "view": view, "actions": concrete}


def sensors_json(sensors: Sensors) -> dict:
    return {
        "t": sensors.t,
        "load_g": sensors.load_g,
        "cells_g": list(sensors.cells_g),
        "cop_mm": list(sensors.cop_mm) if sensors.cop_mm else None,
        "tilt_deg": list(sensors.tilt_deg),
        "uncalibrated": sensors.uncalibrated,
    }


def rings_json(leds: bytes | None, rings: int) -> list[list[str]] | None:
    """The firmware's LED frame (GRB) as CSS colours, one list of 12 per ring."""
    if not leds:
        return None
    out = []
    for ring in range(rings):
        part = leds[ring * LEDS_PER_RING * 3 : (ring + 1) * LEDS_PER_RING * 3]
        out.append(
            [
                f"#{part[i + 1]:02x}{part[i]:02x}{part[i + 2]:02x}"
                for i in range(0, len(part) - 2, 3)
            ]
        )
    return out


class LiveRoutes:
    """The live views' routes: room (/), referee, player, the feed and the two inputs."""

    def __init__(self, table: LiveTable, qr_links: dict[str, str], setup=None):
        self.table = table
        self.qr_links = qr_links  # player -> SVG data URI of their join link (the room shows)
        self.setup = setup  # a setup.SetupDesk: the table waits for the setup screen's choice

    def routes(self, page) -> list:
        room = page("Table", "room")

        async def home(request: Request):
            """The room, or the setup screen while the table waits for a game to be chosen."""
            if self.table.snapshot is None and self.setup is not None and self.setup.waiting:
                return RedirectResponse("/setup", status_code=303)
            return await room(request)

        return [
            Route("/", home),
            Route("/referee", page("Referee", "referee")),
            Route("/player", page("Player", "player")),
            Route("/api/join-codes", self.join_codes),
            Route("/api/referee", self.referee, methods=["POST"]),
            Route("/api/referee/check", self.check_laydown, methods=["POST"]),
            Route("/api/act", self.act, methods=["POST"]),
            WebSocketRoute("/ws", self.feed),
        ]

    async def join_codes(self, request: Request):
        role: Role = request.state.role
        if not role.referee:
            return JSONResponse({"error": "only the referee's screen shows join codes"}, 403)
        return JSONResponse(self.qr_links)

    async def referee(self, request: Request):
        role: Role = request.state.role
        if not role.referee:
            return JSONResponse({"error": "only the referee may correct the game"}, 403)
        body = await _json_body(request)
        line = body.get("line") if isinstance(body, dict) else None
        if not isinstance(line, str) or not line.strip() or "\n" in line:
            return JSONResponse({"error": "send one command line"}, 400)
        return _answer(await self.table.submit(line.strip()))

    async def check_laydown(self, request: Request):
        """Sticks in referee mode: the checker's verdict on a lay-down, nothing applied."""
        role: Role = request.state.role
        if not role.referee:
            return JSONResponse({"error": "only the referee checks lay-downs"}, 403)
        body = await _json_body(request)
        snapshot = self.table.snapshot
        check = getattr(snapshot.game.rules, "check_laydown", None) if snapshot else None
        if check is None:
            return JSONResponse({"error": "this game has no lay-down checker"}, 409)
        if not isinstance(body, dict):
            return JSONResponse({"error": "send the player and the cards"}, 400)
        try:
            return JSONResponse(check(snapshot.game.state, body.get("player"), body.get("cards")))
        except ValueError as err:
            return JSONResponse({"error": str(err)}, 400)

    async def act(self, request: Request):
        """A player's own move: only theirs, only an action of a kind open to them now."""
        role: Role = request.state.role
        if role.kind != "player":
            return JSONResponse({"error": "a player's actions need that player's link"}, 403)
        body = await _json_body(request)
        event = body.get("event") if isinstance(body, dict) else None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            return JSONResponse({"error": "send an event"}, 400)
        if event.get("player", role.player) != role.player:
            return JSONResponse({"error": f"you play as {role.player} only"}, 403)
        snapshot = self.table.snapshot
        open_kinds = set()
        if snapshot is not None:
            game = snapshot.game
            open_kinds = {a.get("type") for a in game.rules.legal_actions(game.state, role.player)}
        if event["type"] not in open_kinds:
            return JSONResponse({"error": f"{event['type']} is not yours to do now"}, 409)
        event = {k: v for k, v in event.items() if k not in ("src", "seq", "t")}
        event["player"] = role.player
        return _answer(await self.table.submit(json.dumps(event)))

    async def feed(self, websocket: WebSocket):
        """Snapshots as they come, each with the log from where the page's copy first differs
        (the whole log on a new connection); and to the room and referee the live load and
        tilt, at the rate the table publishes them. A player's feed ends with their game."""
        role: Role = websocket.scope["state"]["role"]
        await websocket.accept()
        version = events = 0
        sender = asyncio.current_task()
        sending = asyncio.Lock()  # one frame at a time on this socket
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
            watcher = asyncio.create_task(_until_closed(websocket, sender))
            meter = None
            if role.kind != "player":
                meter = asyncio.create_task(self._sensors_to(websocket, sending))
            try:
                game_id = None  # a player's link is for one game: the next one has new links
                while True:
                    snapshot = await self.table.changed_since(version)
                    if role.kind == "player" and game_id not in (None, snapshot.game_id):
                        over = f"game {game_id} is over: this link was for that game"
                        await websocket.send_text(json.dumps({"kind": "over", "text": over}))
                        await websocket.close(code=4000)
                        return
                    game_id = snapshot.game_id
                    start = self.table.log_from(version, events, snapshot.version)
                    async with sending:
                        await websocket.send_text(self.table.message(snapshot, role, start))
                    version, events = snapshot.version, len(snapshot.game.events)
            finally:
                watcher.cancel()
                if meter is not None:
                    meter.cancel()

    async def _sensors_to(self, websocket: WebSocket, sending: asyncio.Lock) -> None:
        version = 0
        with contextlib.suppress(Exception):
            while True:
                version, text = await self.table.sensors_since(version)
                async with sending:
                    await websocket.send_text(text)


async def _until_closed(websocket: WebSocket, sender: asyncio.Task) -> None:
    """Reads the socket (pages send nothing) only to notice it closing, then stops the sender."""
    with contextlib.suppress(Exception):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
    sender.cancel()


async def _json_body(request: Request):
    try:
        return await request.json()
    except ValueError:
        return None


def _answer(result: dict) -> JSONResponse:
    return JSONResponse(result, status_code=200 if "ok" in result else 409)
