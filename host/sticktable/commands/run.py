"""`sticktable run`: play a game at the table (a real board, or the simulated table)."""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from pathlib import Path

from sticktable.cliargs import add_hello_timeout, check_run_options
from sticktable.commands.games import abandon_game
from sticktable.commands.serve import add_web_option
from sticktable.daemon import KEY_HELP
from sticktable.errors import UserError
from sticktable.house.publisher import add_publish_options, publishing
from sticktable.journal import Journal, add_journal_option, default_path
from sticktable.keyvalue import parse_pairs
from sticktable.pitable import PiTable
from sticktable.scoreboard import add_scoreboard_option, open_scoreboard
from sticktable.sim.registry import resumable, simulate
from sticktable.table import Line, Shown, Table, game_to_play, open_link
from sticktable.terminal import (
    PromptedScreen,
    TerminalOutput,
    print_line,
    read_keyboard,
    reveal_on_enter,
)


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
        metavar="PORT",
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
    parser.add_argument(
        "--players",
        metavar="A,B,...",
        help="player names in seat order (with --web and no --players: the game, players "
        "and house rules are chosen on the console's setup page)",
    )
    parser.add_argument(
        "--game",
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
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        metavar="N",
        help="simulation: random seed (the tower, and the table's shuffles and draws)",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=0.0,
        help="simulation: 1 = real time, 4 = four times faster, 0 = as fast as it goes",
    )
    add_hello_timeout(parser)
    parser.add_argument("-q", "--quiet", action="store_true", help="no event stream")
    add_scoreboard_option(parser)
    add_journal_option(parser)
    add_publish_options(parser)
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
    check_run_options(args)
    # A new game's journal is opened once the board has answered: a failed open leaves none.
    path = Path(args.journal) if args.journal else default_path()
    if args.resume and not path.exists():
        raise UserError(f"no unfinished game to resume (no journal at {path})")
    # Typing at a terminal: the prompt stays below the scrolling stream.
    typing = sys.stdin.isatty() and sys.stdout.isatty() and not args.quiet
    screen = PromptedScreen(sys.stdout) if typing else print_line
    say = (lambda text: None) if args.quiet else screen
    web = None  # the web console: an output of the table that serves on after the game
    with contextlib.ExitStack() as outer:
        header = None
        if args.web:
            from sticktable.web.attach import web_console

            web = outer.enter_context(web_console(args.web, path, say))
            if not args.players and not args.resume:  # the game is chosen in the browser
                say(f"waiting for a game to be set up at {web.setup_url}")
                args.resume, header = choose_in_browser(web.setup, path, args.sim, say)
        journal = outer.enter_context(Journal(args.journal, create=False)) if args.resume else None
        if header is None and not args.resume:
            header = header_from_args(args)
        game_id, game = game_to_play(journal, args.resume, header)
        if args.sim and args.resume and not resumable(game.header):
            raise UserError(
                f"--resume: the simulated {game.header['game']} table plays its script from "
                "the start; start a new game (typed games resume on the simulated table)",
                exit_code=2,
            )
        with contextlib.ExitStack() as stack:
            scoreboard = None  # the room scoreboard: an output fed every display shown
            if args.scoreboard:
                scoreboard = open_scoreboard(args.scoreboard, game.header["players"], screen)
                stack.enter_context(contextlib.closing(scoreboard))
            sim = (
                stack.enter_context(simulate(game.header, args.seed, args.speed))
                if args.sim
                else None
            )
            if args.board == "pi":  # the firmware on this Pi, on a pty: a board like any other
                args.port = stack.enter_context(PiTable()).port
            resume = journal.board_position(game_id) if journal is not None else None
            board = journal.board(game_id) if journal is not None else None
            port = sim.port if sim else args.port
            link = stack.enter_context(open_link(port, args.hello_timeout, resume, board))
            if journal is None:  # a new game: journaled only once the board has answered
                journal = outer.enter_context(Journal(args.journal))
                game_id = journal.new_game(game.header, source="sim" if args.sim else "board")
            # --mqtt: to the house; on the outer stack, so what is left drains after the link.
            outer.enter_context(publishing(args, journal.path, say))
            # The simulated table plays the same game again for the same seed (docs, tests).
            rng = random.Random(args.seed) if sim is not None else None
            # The console's meter and event plots stream the board's raw samples; a simulation
            # at --speed 0 runs many times faster than real time and would spend itself on them.
            samples = web is not None and not (args.sim and args.speed == 0)
            table = Table(journal, game_id, game, link, sim, rng, samples=samples)
            screen_out = TerminalOutput(args.quiet, say=screen, clear=sys.stdout.isatty())
            terminal = table.subscribe(screen_out)
            if scoreboard is not None:
                table.subscribe(lambda update: _to_scoreboard(scoreboard, update))
            if web is not None:
                web.attach_table(table, say)
            players = ", ".join(game.header["players"])
            where = f"journal {journal.path}"
            table.publish(
                Line(f"game {game_id}: {game.header['game']}, players {players} ({where})")
            )
            if table.session.holds:  # resumed while paused: still paused
                paused = "; ".join(table.session.holds.values())
                table.publish(Line(f"          !! play is paused ({paused})"))
            table.publish(Line("type `help` for the commands"))
            read_keyboard(table, on_enter=reveal_on_enter(table, terminal))  # typed or piped
            table.run()
            if isinstance(screen, PromptedScreen):
                screen.close()
        verdict = sim.verdict(game) if sim is not None else None
        if verdict is None:
            code = 0 if game.finished else 1
        else:
            ok, text = verdict
            print_line(text)
            code = 0 if ok else 1
        if web is not None:
            web.linger((lambda text: None) if args.quiet else print)
    return code


def choose_in_browser(setup, path: Path, sim: bool, say) -> tuple[str | None, dict | None]:
    """Wait for the setup screen's choice: (GAME to resume, None) or (None, a new game's
    header). Each choice is tried as the same arguments typed here would be; a refusal goes
    back to the page and the table waits on. Abandoning is `sticktable games --abandon`."""
    while True:
        choice, answer = setup.take()
        try:
            if choice["action"] == "abandon":
                with Journal(path, create=False) as journal:
                    abandon_game(journal, choice["game"])
                say(f"abandoned game {choice['game']}")
                answer({"ok": f"abandoned game {choice['game']}"})
                continue
            if choice["action"] == "resume":
                resume, header = str(choice["game"]), None
                if sim:
                    raise UserError("a simulated table starts afresh: it resumes no game")
                if not path.exists():
                    raise UserError(f"no unfinished game to resume (no journal at {path})")
                with Journal(path, create=False) as journal:
                    game_to_play(journal, resume, None)
            else:
                house = [f"{key}={value}" for key, value in choice["house"].items()]
                typed = argparse.Namespace(
                    game=choice["rules"], players=",".join(choice["players"]), house=house
                )
                resume, header = None, header_from_args(typed)
                game_to_play(None, None, header)
        except UserError as err:
            answer({"error": str(err)})
            continue
        answer({"ok": "the table is starting the game"})
        return resume, header


def _to_scoreboard(scoreboard, update) -> None:
    if isinstance(update, Shown):
        scoreboard.show(**update.fields)
