"""`sticktable run --web`: the console attached to a running table.

`live_console(address, table, journal_path, say)` starts the server in a thread, prints the
address and a join link (with a QR code) per player, subscribes the console to the `Table` and
yields it.
After the game, `linger` keeps serving until Ctrl-C.
"""

from __future__ import annotations

import contextlib
import threading

from sticktable.web.app import build_app
from sticktable.web.history import History
from sticktable.web.live import LiveRoutes, LiveTable
from sticktable.web.security import Access
from sticktable.web.server import Server, announce, base_url, bind, is_lan, parse_address, svg_qr


class Console(LiveTable):
    """The live table plus its server; `linger` serves on after the game until Ctrl-C."""

    server: Server

    def linger(self, say) -> None:
        self.close()
        say(f"the console keeps serving at {base_url(self.server.sock)}/ until Ctrl-C")
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


@contextlib.contextmanager
def live_console(address: str, table, journal_path, say):
    host, port = parse_address(address)
    access = Access(lan=is_lan(host))
    access.add_players(list(table.game.header["players"]))
    sock = bind(host, port)
    url = base_url(sock)
    qr_links = {p: svg_qr(f"{url}{access.join_path(t)}") for p, t in access.player_tokens.items()}
    console = Console(table.game_id, table.submit)
    console.publish(table.state(), None)
    app = build_app(History(journal_path), access, LiveRoutes(console, qr_links))
    console.server = Server(app, sock)
    console.server.start()
    announce(sock, access, say, qr=True)
    table.subscribe(console.output)
    try:
        yield console
    finally:
        console.close()
        console.server.stop()
