"""`sticktable replay GAME`: rebuild a game's standings from the journal alone."""

import json

from sticktable.engine import Game, RuleError
from sticktable.errors import UserError
from sticktable.journal import Journal, add_journal_option
from sticktable.standings_table import standings_lines


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="rebuild a game's standings from its journal entries",
        description="Rebuild a game's standings from the journal alone (the rules fold its "
        "events again) and print them as a table: each round, the totals, the winners. "
        "--json prints the rule set's summary as one JSON object, for programs.",
    )
    parser.add_argument("game", metavar="GAME", help="game id (see `sticktable games`)")
    parser.add_argument(
        "--upto", type=int, metavar="N", help="replay only the first N events (undo the rest)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object, for programs")
    add_journal_option(parser)
    parser.set_defaults(func=run)


def load_game(journal: Journal, game_id: str, upto: int | None = None) -> Game:
    """The game rebuilt by folding its journaled events; a bad log is one clear error."""
    row = journal.game(game_id)
    events = journal.events(row.id)
    if upto is not None:
        if not 0 <= upto <= len(events):
            raise UserError(f"--upto must be between 0 and {len(events)}")
        events = events[:upto]
    try:
        return Game(row.header, events)
    except RuleError as err:
        raise UserError(f"game {row.id} does not replay: {err}") from None


def run(args) -> int:
    with Journal(args.journal, read_only=True) as journal:
        game = load_game(journal, args.game, args.upto)
    if args.json:
        print(json.dumps(game.summary(), ensure_ascii=False))
        return 0
    print(f"game {args.game}, {len(game.events)} events")
    for line in standings_lines(game.header, game.summary()):
        print(line)
    return 0
