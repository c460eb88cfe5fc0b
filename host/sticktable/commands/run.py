"""`sticktable run`: play a game at the table (a real board, or the simulated table)."""

from __future__ import annotations

import argparse
import contextlib

from sticktable.commands.serve import add_web_option
from sticktable.daemon import KEY_HELP
from sticktable.errors import UserError
from sticktable.journal import Journal, add_journal_option
from sticktable.keyvalue import parse_pairs
from sticktable.pitable import PiTable
from sticktable.scoreboard import add_scoreboard_option, open_scoreboard
from sticktable.sim.registry import simulate
from sticktable.table import Line, Shown, Table, game_to_play, open_link
from sticktable.terminal import TerminalOutput, read_keyboard


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run",
        help="play a game at the table",
        description="Play a game: board events are scored by the rules, journaled, and the "
        "rings show the score. Keyboard commands (type `help`) give the same inputs and the "
        "referee's corrections.",
        epilog=KEY_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--port",
        metavar="DEV",
        help="the board's serial port, e.g. /dev/ttyACM0 (default: find the board on USB)",
    )
    where.add_argument(
        "--sim",
        action="store_true",
        help="a simulated table: the real firmware under MicroPython on a virtual tower",
    )
    where.add_argument(
        "--board",
        choices=["pi"],
        help="pi: this Raspberry Pi is the table's board (no microcontroller): the firmware "
        "runs here under CPython, its parts on the Pi's GPIO through Blinka",
    )
    parser.add_argument("--players", metavar="A,B,...", help="player names in seat order")
    parser.add_argument(
        "--game",
        default="stick-stack",
        help="the game: stick-stack (default), bloodsticks or sticks (the rummy card game)",
    )
    parser.add_argument(
        "--house",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a house rule for the header, e.g. end_score=15 (repeatable)",
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="last",
        metavar="GAME",
        help="continue an unfinished game (default: the last one)",
    )
    parser.add_argument("--seed", type=int, default=1, help="simulation: random seed")
    parser.add_argument(
        "--speed",
        type=float,
        default=0.0,
        help="simulation: 1 = real time, 4 = four times faster, 0 = as fast as it goes",
    )
    parser.add_argument(
        "--hello-timeout",
        type=float,
        default=3.0,
        metavar="S",
        help="seconds to wait for the board's hello (default 3)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no event stream")
    add_scoreboard_option(parser)
    add_journal_option(parser)
    add_web_option(parser, required=False)  # the web console (sticktable/web/)
    parser.set_defaults(func=run)


def header_from_args(args) -> dict:
    if not args.players:
        raise UserError("--players is required for a new game (e.g. --players Ann,Bo,Cy)")
    header: dict = {"game": args.game, "players": [p.strip() for p in args.players.split(",")]}
    try:
        header.update(parse_pairs(args.house))
    except ValueError as err:
        raise UserError(f"--house: {err}") from None
    return header


def run(args) -> int:
    if args.speed < 0:
        raise UserError("--speed must be 0 (as fast as it goes) or more")
    if args.sim and args.resume:
        raise UserError("--resume continues a game at a real table; a simulation starts afresh")
    say = (lambda text: None) if args.quiet else print
    web = None  # the web console: an output of the table that serves on after the game
    with Journal(args.journal) as journal, contextlib.ExitStack() as serving:
        header = None if args.resume else header_from_args(args)
        game_id, game = game_to_play(journal, args.resume, header)
        with contextlib.ExitStack() as stack:
            scoreboard = None  # the room scoreboard: an output fed every display shown
            if args.scoreboard:
                scoreboard = open_scoreboard(args.scoreboard, game.header["players"])
                stack.enter_context(contextlib.closing(scoreboard))
            sim = (
                stack.enter_context(simulate(game.header, args.seed, args.speed))
                if args.sim
                else None
            )
            if args.board == "pi":  # the firmware on this Pi, on a pty: a board like any other
                args.port = stack.enter_context(PiTable()).port
            resume = journal.board_position(game_id) if game_id is not None else None
            port = sim.port if sim else args.port
            link = stack.enter_context(open_link(port, args.hello_timeout, resume))
            if game_id is None:  # journaled only once the board has answered
                game_id = journal.new_game(game.header, source="sim" if args.sim else "board")
            table = Table(journal, game_id, game, link, sim)
            table.subscribe(TerminalOutput(quiet=args.quiet))
            if scoreboard is not None:
                table.subscribe(lambda update: _to_scoreboard(scoreboard, update))
            if args.web:
                from sticktable.web.attach import live_console

                web = serving.enter_context(live_console(args.web, table, journal.path, say))
            players = ", ".join(game.header["players"])
            where = f"journal {journal.path}"
            table.publish(
                Line(f"game {game_id}: {game.header['game']}, players {players} ({where})")
            )
            table.publish(Line("type `help` for the commands"))
            read_keyboard(table)  # typed or piped, on every table
            table.run()
        verdict = sim.verdict(game) if sim is not None else None
        if verdict is None:
            code = 0 if game.finished else 1
        else:
            ok, text = verdict
            print(text)
            code = 0 if ok else 1
        if web is not None:
            web.linger(say)
    return code


def _to_scoreboard(scoreboard, update) -> None:
    if isinstance(update, Shown):
        scoreboard.show(**update.fields)
