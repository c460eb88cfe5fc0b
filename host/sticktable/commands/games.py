"""`sticktable games`: list the games in the journal."""

import json
import time
from pathlib import Path

from sticktable.journal import GameRow, Journal, add_journal_option, default_path


def register(subparsers) -> None:
    parser = subparsers.add_parser("games", help="list the games in the journal")
    add_journal_option(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.set_defaults(func=run)


def run(args) -> int:
    if not Path(args.journal or default_path()).exists():
        print("no games yet")
        return 0
    with Journal(args.journal) as journal:
        rows = journal.games()
    if args.json:
        for row in rows:
            print(json.dumps(row_json(row)))
        return 0
    if not rows:
        print("no games yet")
        return 0
    print(f"{'id':>4}  {'started':16}  {'game':12}  {'status':11}  {'events':>6}  players")
    for row in rows:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.created))
        status = "finished" if row.finished else "in progress"
        players = ", ".join(row.header.get("players", []))
        print(f"{row.id:>4}  {started:16}  {row.game:12}  {status:11}  {row.events:>6}  {players}")
    return 0


def row_json(row: GameRow) -> dict:
    """A journal's game as `games --json` prints it (the web console lists the same)."""
    return {
        "id": row.id,
        "game": row.game,
        "players": row.header.get("players", []),
        "source": row.source,
        "created": row.created,
        "finished": row.finished is not None,
        "events": row.events,
    }
