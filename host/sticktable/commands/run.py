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
    Keyboard,
    PromptedScreen,
    TerminalOutput,
    print_line,
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


IDLE = "no game is being played: lines typed now are not used (set the next one up first)"


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
    with contextlib.ExitStack() as outer:
        sitting = Sitting(args, outer)
        if not args.web:
            return sitting.play(None if args.resume else header_from_args(args))
        from sticktable.web.attach import web_console

        # The web console: an output of each table, serving on between and after games.
        web = sitting.web = outer.enter_context(web_console(args.web, path, sitting.say))
        if args.players or args.resume:
            code = sitting.play(None if args.resume else header_from_args(args))
            web.linger((lambda text: None) if args.quiet else print)
            return code
        # Each game is chosen on the setup screen, and after it the next one, until Ctrl-C.
        code = None
        while True:
            try:
                sitting.say(f"waiting for a game to be set up at {web.setup_url}")
                args.resume, header = choose_in_browser(web.setup, path, args.sim, sitting.say)
            except KeyboardInterrupt:
                if code is None:
                    raise
                return code  # the console closed after its last game: that game's outcome
            code = sitting.play(header)


class Sitting:
    """One `sticktable run`: the journal, the publisher to the house and the keyboard, shared
    by the games played in it (one, or one after another from the web console's setup screen).
    """

    def __init__(self, args, outer: contextlib.ExitStack):
        self.args = args
        self.outer = outer  # what lasts for the whole run
        # Typing at a terminal: the prompt stays below the scrolling stream.
        typing = sys.stdin.isatty() and sys.stdout.isatty() and not args.quiet
        self.screen = PromptedScreen(sys.stdout) if typing else print_line
        self.say = (lambda text: None) if args.quiet else self.screen
        self.keyboard = Keyboard(idle=lambda line: self.say(IDLE))
        self.journal: Journal | None = None
        self.publishing = False
        self.web = None  # the web console (sticktable/web/attach.py), when there is one

    def play(self, header: dict | None) -> int:
        """One game: `header` a new game's, or None to resume `args.resume`; the exit code."""
        args, say = self.args, self.say
        if args.resume and self.journal is None:
            self.journal = self.outer.enter_context(Journal(args.journal, create=False))
        game_id, game = game_to_play(self.journal, args.resume, header)
        if args.sim and args.resume and not resumable(game.header):
            raise UserError(
                f"--resume: the simulated {game.header['game']} table plays its script from "
                "the start; start a new game (typed games resume on the simulated table)",
                exit_code=2,
            )
        with contextlib.ExitStack() as stack:
            scoreboard = None  # the room scoreboard: an output fed every display shown
            if args.scoreboard:
                scoreboard = open_scoreboard(args.scoreboard, game.header["players"], self.screen)
                stack.enter_context(contextlib.closing(scoreboard))
            sim = (
                stack.enter_context(simulate(game.header, args.seed, args.speed))
                if args.sim
                else None
            )
            if args.board == "pi":  # the firmware on this Pi, on a pty: a board like any other
                args.port = stack.enter_context(PiTable()).port
            resume = self.journal.board_position(game_id) if game_id is not None else None
            board = self.journal.board(game_id) if game_id is not None else None
            port = sim.port if sim else args.port
            link = stack.enter_context(open_link(port, args.hello_timeout, resume, board))
            if self.journal is None:
                self.journal = self.outer.enter_context(Journal(args.journal))
            if game_id is None:  # a new game: journaled only once the board has answered
                game_id = self.journal.new_game(game.header, source="sim" if args.sim else "board")
            if not self.publishing:  # --mqtt: on the outer stack, so it drains after the link
                self.outer.enter_context(publishing(args, self.journal.path, say))
                self.publishing = True
            # The simulated table plays the same game again for the same seed (docs, tests).
            rng = random.Random(args.seed) if sim is not None else None
            # The console's meter and event plots stream the board's raw samples; a simulation
            # at --speed 0 runs many times faster than real time and would spend itself on them.
            samples = self.web is not None and not (args.sim and args.speed == 0)
            table = Table(self.journal, game_id, game, link, sim, rng, samples=samples)
            screen_out = TerminalOutput(args.quiet, say=self.screen, clear=sys.stdout.isatty())
            terminal = table.subscribe(screen_out)
            if scoreboard is not None:
                table.subscribe(lambda update: _to_scoreboard(scoreboard, update))
            if self.web is not None:
                self.web.attach_table(table, say)
            players = ", ".join(game.header["players"])
            where = f"journal {self.journal.path}"
            table.publish(
                Line(f"game {game_id}: {game.header['game']}, players {players} ({where})")
            )
            if table.session.holds:  # resumed while paused: still paused
                paused = "; ".join(table.session.holds.values())
                table.publish(Line(f"          !! play is paused ({paused})"))
            table.publish(Line("type `help` for the commands"))
            self.keyboard.to(table, on_enter=reveal_on_enter(table, terminal))  # typed or piped
            try:
                table.run()
            finally:
                self.keyboard.to(None)
            if isinstance(self.screen, PromptedScreen):
                self.screen.close()
        verdict = sim.verdict(game) if sim is not None else None
        if verdict is None:
            return 0 if game.finished else 1
        ok, text = verdict
        print_line(text)
        return 0 if ok else 1


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
