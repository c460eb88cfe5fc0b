"""`sticktable run --web`: the console attached to a running table.

`web_console(address, journal_path, say)` starts the server in a thread, prints its address and
yields the `Console`; with no game chosen yet it serves the setup screen (see setup.py).
`Console.attach_table(table, say)` then prints a join link (with a QR code) per player, subscribes
the console to the `Table` and turns the live views on. A table set up on the setup screen comes
back to it after each game and attaches the next game's table the same way; a table started
for one game (`--players`, `--resume`) `linger`s after it, serving until Ctrl-C.
"""

from __future__ import annotations

import contextlib
import threading

from sticktable.web.app import build_app
from sticktable.web.history import History
from sticktable.web.live import LiveRoutes, LiveTable
from sticktable.web.security import Access
from sticktable.web.server import (
    Server,
    announce,
    announce_players,
    base_url,
    bind,
    is_lan,
    parse_address,
    svg_qr,
)
from sticktable.web.setup import SetupDesk


class Console(LiveTable):
    """The live table plus its server; `linger` serves on after the game until Ctrl-C."""

    server: Server
    access: Access
    routes: LiveRoutes
    setup: SetupDesk

    def attach_table(self, table, say) -> None:
        """A game is set up (the first or the next one): its players' links (an earlier game's
        stop working), its state, its updates from now on."""
        self.setup.started()
        self.access.set_players(list(table.game.header["players"]))
        url = base_url(self.server.sock)
        self.routes.qr_links = {
            p: svg_qr(f"{url}{self.access.join_path(t)}")
            for p, t in self.access.player_tokens.items()
        }
        self.begin(table.game_id, table.submit)
        self.publish(table.state(), None)
        announce_players(self.server.sock, self.access, say, qr=True)
        table.subscribe(self.output)

    @property
    def setup_url(self) -> str:
        return f"{base_url(self.server.sock)}/setup"

    def linger(self, say) -> None:
        self.close()
        say(f"the console keeps serving at {base_url(self.server.sock)}/ until Ctrl-C")
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


@contextlib.contextmanager
def web_console(address: str, journal_path, say):
    host, port = parse_address(address)
    sock = bind(host, port)
    console = Console(None, None)
    console.setup = SetupDesk()
    console.access = Access(lan=is_lan(host))
    console.routes = LiveRoutes(console, {}, console.setup)
    app = build_app(History(journal_path), console.access, console.routes)
    console.server = Server(app, sock)
    console.server.start()
    announce(sock, console.access, say)
    try:
        yield console
    finally:
        console.close()
        console.server.stop()


@contextlib.contextmanager
def live_console(address: str, table, journal_path, say):
    """The console attached to `table` from the start (a program that sets the table up
    itself, such as the web benchmark)."""
    with web_console(address, journal_path, say) as console:
        console.attach_table(table, say)
        yield console
