"""`sticktable serve`: the web console over a journal, with no table attached."""

from __future__ import annotations

from sticktable.journal import add_journal_option

DEFAULT_WEB = "127.0.0.1:8765"


def add_web_option(parser, required: bool) -> None:
    options = {"default": DEFAULT_WEB} if required else {"nargs": "?", "const": DEFAULT_WEB}
    parser.add_argument(
        "--web",
        metavar="[HOST:]PORT",
        **options,
        help="serve the web console here (default 127.0.0.1:8765, this machine only; "
        "0.0.0.0:PORT serves the LAN, every device then needs a link printed at start)",
    )


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the web console: games, replays, downloads and statistics",
        description="Serve the journal's games in a browser: the games list, each game's "
        "standings, rounds and numbered event log, a replay slider, downloads (transcript, "
        "JSON, CSV) and statistics per player. Runs until Ctrl-C.",
    )
    add_journal_option(parser)
    add_web_option(parser, required=True)
    parser.set_defaults(func=run)


def run(args) -> int:
    history_console(args.journal, args.web, lambda text: print(text, flush=True)).run()
    return 0


def history_console(journal, address: str, say):
    """The console over a journal's history, bound and announced; `.run()` serves it in the
    foreground, `.start()` in a thread (`sticktable house --web`)."""
    # Imported here: the other commands never pay for the web stack.
    from sticktable.web.app import build_app
    from sticktable.web.history import History
    from sticktable.web.security import Access
    from sticktable.web.server import Server, announce, bind, is_lan, parse_address

    host, port = parse_address(address)
    access = Access(lan=is_lan(host))
    history = History(journal)
    if not history.exists():
        say(f"no games yet in {history.path}: serving an empty games list")
    sock = bind(host, port)
    announce(sock, access, say)
    return Server(build_app(history, access), sock)
