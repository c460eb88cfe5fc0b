"""Serving the console: the address, the listening socket, uvicorn, the links printed at start."""

from __future__ import annotations

import contextlib
import io
import socket
import threading
from collections.abc import Callable

import segno
import uvicorn

from sticktable.errors import UserError
from sticktable.web.security import Access

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")


def parse_address(text: str | None) -> tuple[str, int]:
    """`HOST:PORT`, `PORT` or `HOST` (the other part defaults) -> (host, port)."""
    if not text:
        return DEFAULT_HOST, DEFAULT_PORT
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = (DEFAULT_HOST, text) if text.isdigit() else (text, str(DEFAULT_PORT))
    host = host.strip("[]") or DEFAULT_HOST
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise UserError(f"--web: {text!r} is not HOST:PORT (port 0-65535), e.g. 127.0.0.1:8765")
    return host, int(port)


def is_lan(host: str) -> bool:
    return host not in LOCAL_NAMES


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound now so the address printed is the real one (port 0 too)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        sock.close()
        raise UserError(f"--web: cannot listen on {host}:{port}: {err.strerror}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def base_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = lan_address()
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def lan_address() -> str:
    """This machine's address on the LAN (no packet is sent: a UDP socket only routes)."""
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_DGRAM)) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def terminal_qr(url: str) -> str:
    """A QR code of `url` drawn with block characters, for a phone to scan off the terminal."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def svg_qr(url: str) -> str:
    """The QR code as an SVG data URI, for the room view."""
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2)


def announce(sock: socket.socket, access: Access, say: Callable[[str], None]) -> None:
    """Print the console's address (and on the LAN the room's and referee's join links)."""
    url = base_url(sock)
    if access.lan:
        say(f"console: {url}  (on the LAN: every device needs a link below)")
        say(f"  room (watch): {url}{access.join_path(access.room_token)}")
        say(f"  referee:      {url}{access.join_path(access.referee_token)}")
    else:
        say(f"console: {url}/  (this machine only; --web 0.0.0.0:PORT serves the LAN)")


def announce_players(
    sock: socket.socket, access: Access, say: Callable[[str], None], qr: bool
) -> None:
    """Print each player's join link (with its QR code when asked)."""
    url = base_url(sock)
    for player, token in access.player_tokens.items():
        link = f"{url}{access.join_path(token)}"
        say(f"  {player}: {link}")
        if qr:
            say(terminal_qr(link))


class Server:
    """uvicorn on an already bound socket, in the foreground or in a thread."""

    def __init__(self, app, sock: socket.socket):
        self.sock = sock
        self.uvicorn = uvicorn.Server(
            uvicorn.Config(app, log_level="warning", lifespan="off", ws_max_size=64 * 1024)
        )
        self.thread: threading.Thread | None = None

    def run(self) -> None:
        """Serve until Ctrl-C."""
        self.uvicorn.run(sockets=[self.sock])

    def start(self) -> None:
        self.thread = threading.Thread(target=self.run, name="web-console", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=5)
        self.sock.close()
