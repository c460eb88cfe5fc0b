"""The console as an ASGI application (Starlette): pages, the JSON API, downloads, assets.

`build_app(history, access, live=None)`: with no live table it serves the journal's history
and statistics (`sticktable serve`); with one (`sticktable run --web`) it adds the room,
referee and player views and their live feed (see live.py).
"""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.requests import Request, cookie_parser
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from sticktable.cliargs import DEFAULT_GAME
from sticktable.errors import UserError
from sticktable.web import pages
from sticktable.web.history import History
from sticktable.web.security import (
    COOKIE,
    Access,
    host_allowed,
    refusal_page,
    request_token,
    same_origin,
)
from sticktable.web.setup import check_choice, games_offered

STATIC = Path(__file__).parent / "static"
# No inline code, nothing from elsewhere, never framed; join links' tokens never leave in a
# Referer header.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}
SAFE_METHODS = ("GET", "HEAD")
NO_TABLE = (
    "this console has no table attached: start one with `sticktable run --web` (with --sim for "
    "the simulated table) and set the game up here"
)


class Guard:
    """ASGI middleware: the host check, the token, the same-origin rule for state changes."""

    def __init__(self, app, access: Access):
        self.app = app
        self.access = access

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = Headers(scope=scope)
        host = headers.get("host")
        refusal = None
        role = self.access.role_for(
            request_token(headers, cookie_parser(headers.get("cookie", "")))
        )
        if not host_allowed(self.access, host):
            refusal = (400, "this console answers only to its own address")
        elif scope["path"].startswith("/join/"):
            pass  # the join link carries its own token
        elif role is None:
            refusal = (401, "this console needs the token printed when it started (a join link)")
        elif scope["type"] == "websocket" or scope.get("method") not in SAFE_METHODS:
            if not same_origin(headers.get("origin"), host):
                refusal = (403, "requests that change something must come from the console")
            elif scope["type"] == "http" and scope.get("method") != "POST":
                refusal = (405, "only GET and POST are used here")
            elif scope["type"] == "http" and not headers.get("content-type", "").startswith(
                "application/json"
            ):
                refusal = (415, "send JSON")
        if refusal:
            if scope["type"] == "websocket":
                return await send({"type": "websocket.close", "code": 4000 + refusal[0]})
            return await _send_refusal(scope, receive, send, *refusal)
        scope.setdefault("state", {})["role"] = role
        await self.app(scope, receive, send)


async def _send_refusal(scope, receive, send, status: int, message: str) -> None:
    if scope["path"].startswith("/api/"):
        response = JSONResponse({"error": message}, status_code=status)
    else:
        response = HTMLResponse(refusal_page(status, message), status_code=status)
    await response(scope, receive, send)


class SecurityHeaders:
    """ASGI middleware adding SECURITY_HEADERS to every HTTP answer."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                extra = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def user_error(err: UserError) -> JSONResponse:
    status = 404 if str(err).startswith(("no game", "no games")) else 400
    return JSONResponse({"error": str(err)}, status_code=status)


def build_app(history: History, access: Access, live=None) -> Starlette:
    """The console; `live` (a live.LiveConsole) adds the running table's views."""
    is_live = live is not None

    def page(title: str, view: str, **data):
        async def endpoint(request: Request):
            values = {k: request.path_params.get(k, v) for k, v in data.items()}
            return HTMLResponse(pages.shell(title, view, is_live, **values))

        return endpoint

    async def join(request: Request):
        token = request.path_params["token"]
        role = access.role_for(token)
        if role is None:
            return HTMLResponse(refusal_page(401, "this join link is not valid"), 401)
        target = {"referee": "/referee", "room": "/", "player": "/player"}[role.kind]
        if not is_live and role.kind != "player":
            target = "/games"
        response = RedirectResponse(target, status_code=303)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
        return response

    def api(fn):
        async def endpoint(request: Request):
            try:
                return JSONResponse(await run_in_threadpool(fn, **request.path_params))
            except UserError as err:
                return user_error(err)

        return endpoint

    def download(fn, media: str, name: str):
        async def endpoint(request: Request):
            game_id = request.path_params["game_id"]
            try:
                body = await run_in_threadpool(fn, game_id)
            except UserError as err:
                return user_error(err)
            disposition = f'attachment; filename="game-{game_id}-{name}"'
            return Response(body, media_type=media, headers={"content-disposition": disposition})

        return endpoint

    setup_desk = getattr(live, "setup", None)

    async def setup_info(request: Request):
        rows = await run_in_threadpool(history.games)
        snapshot = live.table.snapshot if live is not None else None
        return JSONResponse(
            {
                "table": setup_desk is not None,
                "waiting": bool(setup_desk and setup_desk.waiting),
                "offers": bool(setup_desk and setup_desk.offers),
                "games_begun": live.table.games if live is not None else 0,
                "playing": snapshot.game_id if snapshot and not live.table.closed else None,
                "games": games_offered(),
                "default_game": DEFAULT_GAME,
                "unfinished": [r for r in rows if r["status"] == "in progress"],
            }
        )

    async def setup_choose(request: Request):
        if not request.state.role.referee:
            return JSONResponse({"error": "only the referee sets the table up"}, 403)
        if setup_desk is None:
            return JSONResponse({"error": NO_TABLE}, 409)
        try:
            choice = check_choice(await request.json())
        except ValueError as err:
            return JSONResponse({"error": str(err) or "send JSON"}, 400)
        result = await setup_desk.ask(choice)
        return JSONResponse(result, status_code=200 if "ok" in result else 409)

    routes = [
        Route("/setup", page("Setup", "setup")),
        Route("/api/setup", setup_info),
        Route("/api/setup", setup_choose, methods=["POST"]),
        Route("/games", page("Games", "games")),
        Route("/games/{game_id:int}", page("Game", "game", game_id=0)),
        Route("/stats", page("Statistics", "stats")),
        Route("/join/{token}", join),
        Route("/api/games", api(history.games)),
        Route("/api/games/{game_id:int}", api(history.detail)),
        Route("/api/games/{game_id:int}/step/{step:int}", api(history.step)),
        Route("/api/games/{game_id:int}/traces/{trace_id:int}", api(history.trace)),
        Route("/api/stats", api(history.stats)),
        Route(
            "/games/{game_id:int}/transcript.jsonl",
            download(history.export_text, "application/x-ndjson", "transcript.jsonl"),
        ),
        Route(
            "/games/{game_id:int}/game.json",
            download(history.export_json, "application/json", "game.json"),
        ),
        Route(
            "/games/{game_id:int}/rounds.csv",
            download(history.export_csv, "text/csv", "rounds.csv"),
        ),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    if live is None:
        routes.append(Route("/", page("Games", "games")))
    else:
        routes += live.routes(page)
    app = Starlette(routes=routes)
    return SecurityHeaders(Guard(app, access))
