"""`sticktable import RECORD`: journal a game played without the table (a Bloodsticks record).

The record is read and checked whole first; then the game and its rule events are written in
one transaction, marked source="import", so `games`, `replay` and `export` see it like any
other game. A refused record journals nothing.
"""

from __future__ import annotations

from sticktable import textfile
from sticktable.games.bloodsticks.record import read_record
from sticktable.journal import Journal, add_journal_option

SOURCE = "import"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "import",
        help="journal a Bloodsticks game from its record (a game played on paper)",
        description="Read a Bloodsticks game record (host/docs/formats/bloodsticks-game.md) and "
        'journal it as a game of its own, marked source "import". A record the format refuses '
        "journals nothing: exit 2 and `line N: what is wrong` on stderr.",
    )
    parser.add_argument(
        "record", metavar="RECORD", help="the game record (JSON Lines), - for stdin"
    )
    add_journal_option(parser)
    parser.set_defaults(func=run)


def run(args) -> int:
    with textfile.naming(args.record):  # host/docs/cli.md: -, BOM, not UTF-8, streamed
        game, _ = read_record(textfile.lines(args.record, label="import"))
    with Journal(args.journal) as journal, journal.transaction():
        game_id = journal.new_game(game.header, SOURCE)
        for index, event in enumerate(game.events):
            journal.append_event(game_id, index, event)
        if game.finished:
            journal.finish(game_id)
    status = "finished" if game.finished else "in progress"
    print(f"imported game {game_id} ({status}, {len(game.events)} events)")
    return 0
