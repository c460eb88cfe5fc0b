"""Who may see and do what on the console.

- On localhost (the default) the machine's own user is the referee: no token is needed, but
  the Host header must name this machine (a page elsewhere cannot reach the console through a
  DNS name that points here).
- On the LAN every request needs a token printed at start: the room's (watch), the referee's
  (watch and correct) or a player's (watch, and that player's own view and actions).
- A player's view and actions always need that player's token, on localhost too.
- A token arrives once in a join link (`/join/TOKEN`), which puts it in a cookie that the
  browser sends to this origin only (SameSite=Strict); requests may also carry it in the
  `X-Token` header. State changes are POSTs with a JSON body from the console's own origin
  (checked from the Origin header), and WebSockets must come from that origin too: another
  site can neither make them nor read the answers.
"""

from __future__ import annotations

import html
import secrets
from dataclasses import dataclass, field
from urllib.parse import urlsplit

COOKIE = "sticktable"
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")


@dataclass(frozen=True)
class Role:
    """What a request may do: `kind` is referee, room or player (then `player` is the name)."""

    kind: str
    player: str | None = None

    @property
    def referee(self) -> bool:
        return self.kind == "referee"


@dataclass
class Access:
    """The tokens of one console, made at start."""

    lan: bool
    room_token: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    referee_token: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    player_tokens: dict[str, str] = field(default_factory=dict)  # player -> token

    def set_players(self, players: list[str]) -> None:
        """A new game's players, each with a new token: an earlier game's links stop working
        (a name may come back as someone else)."""
        self.player_tokens = {player: secrets.token_urlsafe(12) for player in players}

    def role_for(self, token: str | None) -> Role | None:
        """The role a token grants; no token is the referee on localhost, nobody on the LAN."""
        if token:
            if secrets.compare_digest(token, self.referee_token):
                return Role("referee")
            if self.lan and secrets.compare_digest(token, self.room_token):
                return Role("room")
            for player, own in self.player_tokens.items():
                if secrets.compare_digest(token, own):
                    return Role("player", player)
            return None
        return None if self.lan else Role("referee")

    def join_path(self, token: str) -> str:
        return f"/join/{token}"


def request_token(headers: dict[str, str], cookies: dict[str, str]) -> str | None:
    return headers.get("x-token") or cookies.get(COOKIE) or None


def host_allowed(access: Access, host_header: str | None) -> bool:
    """On localhost only this machine's names (a DNS-rebinding page is refused)."""
    if access.lan:
        return True
    if not host_header:
        return False
    host = urlsplit(f"//{host_header}").hostname or ""
    return host in LOCAL_HOSTS or f"[{host}]" in LOCAL_HOSTS


def same_origin(origin: str | None, host_header: str | None) -> bool:
    """A state change or a WebSocket must come from a page of this console."""
    if not origin or not host_header:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == host_header


def refusal_page(status: int, message: str) -> str:
    return (
        "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>"
        f"<title>sticktable: {status}</title><p class=refused>{html.escape(message)}</p>"
    )
