"""`sticktable run`: play a game at the table (a real board, or the simulated table)."""

from __future__ import annotations

import argparse
import contextlib
import itertools
import queue
import sys
import threading
import time

from sticktable.commands.replay import load_game
from sticktable.commands.serve import add_web_option
from sticktable.daemon import KEY_HELP, TableSession
from sticktable.engine import Game, RuleError
from sticktable.errors import UserError
from sticktable.journal import Journal, add_journal_option
from sticktable.keyvalue import parse_pairs
from sticktable.rings_view import RingPrinter
from sticktable.scoreboard import add_scoreboard_option, open_scoreboard

POLL_S = 0.02
# After the simulated table has played its last sample, wait this long for the last frames.
SIM_DRAIN_S = 3.0


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


def open_game(journal: Journal, args) -> tuple[int | None, Game]:
    """The game to play: an unfinished one from the journal (with its id), or a new one from
    the options (id None: it is journaled only once the board has answered)."""
    if args.resume:
        row = journal.last_unfinished() if args.resume == "last" else journal.game(args.resume)
        if row is None:
            raise UserError("no unfinished game to resume (see `sticktable games`)")
        if row.finished is not None:
            raise UserError(f"game {row.id} is already finished")
        return row.id, load_game(journal, row.id)
    try:
        return None, Game(header_from_args(args))
    except RuleError as err:
        raise UserError(str(err)) from None


def run(args) -> int:
    if args.speed < 0:
        raise UserError("--speed must be 0 (as fast as it goes) or more")
    if args.sim and args.resume:
        raise UserError("--resume continues a game at a real table; a simulation starts afresh")
    say = (lambda text: None) if args.quiet else print
    with Journal(args.journal) as journal, contextlib.ExitStack() as serving:
        game_id, game = open_game(journal, args)
        web = None
        with contextlib.ExitStack() as stack:
            scoreboard = None  # the room scoreboard: an output fed every display shown
            if args.scoreboard:
                scoreboard = open_scoreboard(args.scoreboard, game.header["players"])
                stack.enter_context(contextlib.closing(scoreboard))
            sim = stack.enter_context(start_sim(game, args)) if args.sim else None
            resume = journal.board_position(game_id) if game_id is not None else None
            link = stack.enter_context(connect(sim.port if sim else args.port, args, resume))
            if game_id is None:
                game_id = journal.new_game(game.header, source="sim" if args.sim else "board")
            players = ", ".join(game.header["players"])
            say(
                f"game {game_id}: {game.header['game']}, players {players} (journal {journal.path})"
            )
            rings = RingPrinter(game.header["players"], say)
            send = scoreboard.tap(link.send) if scoreboard else link.send
            session = TableSession(journal, game_id, game, send=send, say=say)
            session.on_board(link.hello)
            session.begin()
            if args.web:  # the web console: started here, it serves on after the game
                from sticktable.web.attach import live_console

                web = serving.enter_context(live_console(args.web, session, journal.path, say))
            # Typed input from a terminal, or from a pipe when no script plays the game.
            scripted = sim is not None and sim.script is not None
            keys = KeyboardReader() if sys.stdin.isatty() or not scripted else None
            play(session, link, sim, keys, rings, web)
        print_standings(game_id, game)
        code = check_against_script(game, sim) if scripted else 0 if game.finished else 1
        if web is not None:
            web.linger(say)
    return code


def play(session: TableSession, link, sim, keys, rings, web=None) -> None:
    """Pump board messages and keyboard lines into the session until the game is over;
    `web` (the web console) takes its inputs and a snapshot once per turn of the loop."""
    drained_at = None
    rounds_told = len(session.game.standings().rounds)
    while not session.game.finished:
        for message in link.poll(POLL_S):
            session.on_board(message)
            rounds_told = tell_rounds(session, rounds_told)
        link.commit()  # journaled (each fact is its own transaction): the board may forget them
        if keys is not None:
            for line in keys.lines():
                session.on_key(line)
                rounds_told = tell_rounds(session, rounds_told)
            if keys.ended and sim is not None and sim.script is None:
                break  # a typed game on the idle simulated table: its script is over
        if web is not None:
            web.pump(session, sim.leds if sim else None)
        if sim is not None:
            sim.check()  # the firmware died: say why at once
            rings.update(sim.leds)
            if sim.samples_done.is_set():
                drained_at = drained_at or time.monotonic()
                if time.monotonic() - drained_at > SIM_DRAIN_S:
                    break
    for message in link.poll(POLL_S):
        session.on_board(message)
    link.commit()
    tell_rounds(session, rounds_told)
    if sim is not None:
        time.sleep(0.2)  # the game-over frame
        rings.update(sim.leds, force=True)
    if web is not None:
        web.pump(session, sim.leds if sim else None)


def tell_rounds(session: TableSession, told: int) -> int:
    """Announce each round that ended since `told` rounds; returns how many are told now."""
    standings = session.game.standings()
    for result in standings.rounds[told:]:
        parts = [f"round {result.number} over" + (f" ({result.how})" if result.how else "")]
        if result.scores:
            parts.append(", ".join(f"{n} {v}" for n, v in result.scores.items()))
        totals = ", ".join(f"{n} {v}" for n, v in standings.totals.items())
        session.say(f"  == {': '.join(parts)}; totals: {totals}")
    return len(standings.rounds)


def print_standings(game_id: int, game: Game) -> None:
    standings = game.standings()
    print(f"\ngame {game_id} {'over' if game.finished else 'not finished'}")
    for name in standings.ranking():
        mark = "  winner" if name in standings.winners else ""
        print(f"  {name:12} {standings.totals[name]:>4}{mark}")


def check_against_script(game: Game, sim) -> int:
    """In simulation the script knows the truth: say whether the table scored it right."""
    expected = sim.script.expected_standings()
    got = game.standings()
    same = (got.totals, got.winners) == (expected.totals, expected.winners)
    print(
        "table scored the game "
        + ("exactly as scripted" if same else f"DIFFERENTLY from the script: {expected.totals}")
    )
    return 0 if same and game.finished else 1


@contextlib.contextmanager
def start_sim(game: Game, args):
    """The simulated table: a scripted Stick Stack game on the virtual tower, or (for games
    played with typed input) the tower standing idle in real time."""
    from sticktable.sim.game import SimGame
    from sticktable.sim.runner import SimTable
    from sticktable.sim.tower import VirtualTower

    if game.header["game"] == "stick-stack":
        script = SimGame(
            game.header["players"],
            seed=args.seed,
            **{k: v for k, v in game.header.items() if k not in ("game", "players")},
        )
        samples, meta, speed = script.samples(), script.meta, args.speed
    else:
        script, tower = None, VirtualTower.create(args.seed, clean=True)
        samples = itertools.chain.from_iterable(tower.run(1000.0) for _ in itertools.count())
        meta, speed = tower.board.meta(), args.speed or 1.0
    with SimTable(samples, meta, speed=speed) as table:
        table.script = script
        yield table


@contextlib.contextmanager
def connect(port: str | None, args, resume: tuple[str, int] | None = None):
    """The link to the board (found on USB when `port` is None), past its hello."""
    from sticktable.link import BoardLink

    link = BoardLink.open(port, hello_timeout=args.hello_timeout, resume=resume)
    try:
        yield link
    finally:
        link.close()


class KeyboardReader:
    """Lines typed at the terminal, read in a thread so the board is never kept waiting."""

    def __init__(self):
        self._lines: queue.Queue[str] = queue.Queue()
        self._ended = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in sys.stdin:
            self._lines.put(line)
        self._ended.set()

    @property
    def ended(self) -> bool:
        """stdin is closed and every line was handed out."""
        return self._ended.is_set() and self._lines.empty()

    def lines(self) -> list[str]:
        out = []
        while not self._lines.empty():
            out.append(self._lines.get_nowait())
        return out
