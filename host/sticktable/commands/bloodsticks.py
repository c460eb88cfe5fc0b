"""`sticktable bloodsticks ...`: score one drop (host/docs/formats/bloodsticks-drop.md), score a
whole game's record (host/docs/formats/bloodsticks-game.md). A game is played with `sticktable run
--game bloodsticks` (one way to play: journaled, on the table's rings)."""

from __future__ import annotations

import json

from sticktable import textfile
from sticktable.errors import InputRefused
from sticktable.games.bloodsticks import DropError, DropRules, score_drop_document
from sticktable.games.bloodsticks.record import read_record, result


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "bloodsticks", help="Bloodsticks: score a drop, or a game record"
    )
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
