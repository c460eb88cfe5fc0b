"""`sticktable bloodsticks ...`: score one drop (host/docs/formats/bloodsticks-drop.md), score a
whole game's record (host/docs/formats/bloodsticks-game.md), or play a game."""

from __future__ import annotations

import argparse
import json
import sys

from sticktable import textfile
from sticktable.engine import Game, RuleError
from sticktable.errors import InputRefused, UserError
from sticktable.games.bloodsticks import DropError, DropRules, score_drop_document
from sticktable.games.bloodsticks.entry import ENTRY_HELP, parse_entry
from sticktable.games.bloodsticks.record import read_record, result
from sticktable.games.bloodsticks.settings import VARIANTS
from sticktable.keyvalue import parse_pairs


def register(subparsers) -> None:
    parser = subparsers.add_parser("bloodsticks", help="Bloodsticks: score a drop, play a game")
    group = parser.add_subparsers(dest="bloodsticks_command", metavar="COMMAND")
    group.required = True

    score = group.add_parser(
        "score-drop",
        help="print the points one drop gives each player (host/docs/formats/bloodsticks-drop.md)",
        description='Read one drop as the counter sees it and print {"redo", "points"} as '
        "one JSON object (host/docs/formats/bloodsticks-drop.md). A malformed drop is refused: "
        "exit 2 and one line on stderr.",
    )
    score.add_argument("drop", metavar="DROP.json", help="the drop (- for stdin)")
    score.add_argument(
        "--henki-scope",
        choices=("stick", "round"),
        default="stick",
        help="house rule: x3/x4 on the stick (default) or the player's drop total",
    )
    score.add_argument(
        "--dead-sticks-cancel",
        choices=("yes", "no"),
        default="yes",
        help="house rule: a stick scoring 0 still cancels the one below (default)",
    )
    score.set_defaults(func=run_score_drop)

    game = group.add_parser(
        "score-game",
        help="print the result of a whole game's record (host/docs/formats/bloodsticks-game.md)",
        description="Read a Bloodsticks game record (JSON Lines, "
        "host/docs/formats/bloodsticks-game.md; rulings in host/docs/rulings-bloodsticks.md) "
        "and print its result as one JSON object. A record that breaks the rules or the format "
        "is refused: nothing on stdout, exit 2, `line N: what is wrong` on stderr.",
    )
    game.add_argument("record", metavar="RECORD", help="the game record, - for stdin")
    game.set_defaults(func=run_score_game)

    play = group.add_parser(
        "play",
        help="play a game from the keyboard (commands on stdin, not journaled)",
        description="Play a game: one command per line on stdin; each accepted command prints "
        "the table's state as one JSON line, refusals go to stderr; at the end of input the "
        "standings are printed. Exit 1 if any line was refused.",
        epilog=ENTRY_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument(
        "--players", required=True, metavar="A,B,...", help="player names in seat order (clockwise)"
    )
    play.add_argument("--variant", choices=VARIANTS, default="standard")
    play.add_argument(
        "--house",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a house rule, e.g. cap=10 or henki_scope=round (repeatable)",
    )
    play.set_defaults(func=run_play)


def run(args) -> int:  # the group itself: argparse requires a subcommand
    return args.func(args)


def run_score_drop(args) -> int:
    text = textfile.read_text(args.drop)  # host/docs/cli.md: -, BOM, not UTF-8, missing
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as err:  # RecursionError: absurdly deep nesting
        raise InputRefused(f"{args.drop}: not JSON ({err})") from None
    rules = DropRules(args.henki_scope, args.dead_sticks_cancel == "yes")
    try:
        result = score_drop_document(doc, rules)
    except DropError as err:
        raise InputRefused(f"{args.drop}: {err}") from None
    print(json.dumps(result, ensure_ascii=False))
    return 0


def run_score_game(args) -> int:
    with textfile.naming(args.record):  # host/docs/cli.md: -, BOM, not UTF-8, streamed
        game, side_lines = read_record(textfile.lines(args.record, label="score-game"))
    print(json.dumps(result(game.state, side_lines)))
    return 0


def _header(args) -> dict:
    header: dict = {
        "game": "bloodsticks",
        "variant": args.variant,
        "players": [p.strip() for p in args.players.split(",")],
    }
    try:
        header.update(parse_pairs(args.house))
    except ValueError as err:
        raise UserError(f"--house: {err}") from None
    return header


def _status(game: Game) -> dict:
    view = game.rules.view(game.state)
    keys = (
        "phase",
        "stage",
        "round",
        "dropper",
        "counter",
        "bet",
        "to_answer",
        "attempt",
        "proposal",
        "pot",
    )
    status = {k: view[k] for k in keys}
    status["totals"] = view["standings"]["totals"]
    return status


def run_play(args) -> int:
    try:
        game = Game(_header(args))
    except RuleError as err:
        raise UserError(str(err)) from None
    refused = 0
    for line in sys.stdin:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.strip() == "help":
            print(ENTRY_HELP)
            continue
        try:
            game.apply(parse_entry(line))
        except RuleError as err:
            refused += 1
            print(f"sticktable: {line.strip()}: {err}", file=sys.stderr)
            continue
        print(json.dumps(_status(game)))
    print(json.dumps(game.standings().to_json()))
    return 1 if refused else 0
