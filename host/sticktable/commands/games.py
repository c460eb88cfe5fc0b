"""`sticktable games`: list the games in the journal; abandon or delete some."""

import json
import time
from pathlib import Path

from sticktable.errors import UserError
from sticktable.journal import GameRow, Journal, add_journal_option, default_path
from sticktable.texttable import table


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "games",
        help="list the games in the journal; abandon or delete games",
        description="List the games in the journal: id, when it started, the game, its status "
        "(in progress, finished, abandoned), how many events and the players. An interrupted "
        "game stays in progress (`sticktable run --resume` continues it) until it is "
        "abandoned or deleted.",
    )
    add_journal_option(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.add_argument(
        "--abandon",
        type=int,
        nargs="+",
        metavar="GAME",
        help="give up these unfinished games: they count as finished and are never resumed",
    )
    parser.add_argument(
        "--delete",
        type=int,
        nargs="+",
        metavar="GAME",
        help="delete these games and everything journaled about them (cannot be undone)",
    )
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.abandon or args.delete:
        return _change(args)
    if not Path(args.journal or default_path()).exists():
        print("no games yet")
        return 0
    with Journal(args.journal, read_only=True) as journal:
        rows = journal.games()
    if args.json:
        for row in rows:
            print(json.dumps(row_json(row), ensure_ascii=False))
        return 0
    if not rows:
        print("no games yet")
        return 0
    header = ["id", "started", "game", "status", "events", "players"]
    lines = [
        [
            row.id,
            time.strftime("%Y-%m-%d %H:%M", time.localtime(row.created)),
            row.game,
            row.status,
            row.events,
            ", ".join(row.header.get("players", [])),
        ]
        for row in rows
    ]
    for line in table(header, lines, right=(0, 4)):
        print(line)
    return 0


def _change(args) -> int:
    if args.json:
        raise UserError("--json lists games; it does not go with --abandon or --delete")
    with Journal(args.journal, create=False) as journal:
        rows = {row.id: row for row in journal.games()}
        wanted = [*(args.abandon or []), *(args.delete or [])]
        for game_id in wanted:
            if game_id not in rows:
                raise UserError(f"no game {game_id} in {journal.path} (see `sticktable games`)")
        for game_id in args.abandon or []:
            check_abandon(rows[game_id])
        for game_id in args.abandon or []:
            journal.abandon(game_id)
            print(f"abandoned game {game_id}")
        for game_id in args.delete or []:
            journal.delete(game_id)
            print(f"deleted game {game_id} ({rows[game_id].events} events)")
    return 0


def check_abandon(row: GameRow) -> None:
    if row.finished is not None:
        raise UserError(f"game {row.id} is {row.status}: nothing to abandon")


def abandon_game(journal: Journal, game_id: int) -> None:
    """Give up one unfinished game (the web console's setup screen does it this way too)."""
    check_abandon(journal.game(game_id))
    journal.abandon(game_id)


def row_json(row: GameRow) -> dict:
    """A journal's game as `games --json` prints it (the web console lists the same)."""
    return {
        "id": row.id,
        "game": row.game,
        "players": row.header.get("players", []),
        "source": row.source,
        "created": row.created,
        "finished": row.finished is not None,
        "status": row.status,
        "events": row.events,
    }
