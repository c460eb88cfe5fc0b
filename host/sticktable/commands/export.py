"""`sticktable export GAME`: write a journaled game out (a transcript for Stick Stack, a game
record for Bloodsticks)."""

from sticktable import textfile
from sticktable.commands.replay import load_game
from sticktable.errors import UserError
from sticktable.journal import Journal, add_journal_option


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a game from the journal as its transcript (JSON lines)",
        description="Write a journaled game out: a Stick Stack transcript "
        "(host/docs/formats/stick-stack-transcript.md), a Bloodsticks game record "
        "(host/docs/formats/bloodsticks-game.md, which `sticktable import` reads back).",
    )
    parser.add_argument("game", metavar="GAME", help="game id (see `sticktable games`)")
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write here instead of stdout (-: stdout)"
    )
    parser.add_argument(
        "--player", metavar="NAME", help="only what this player may see (hidden-card games)"
    )
    add_journal_option(parser)
    parser.set_defaults(func=run)


def run(args) -> int:
    with Journal(args.journal, read_only=True) as journal:
        game = load_game(journal, args.game)
    if args.player is not None and args.player not in game.header.get("players", []):
        raise UserError(f"no player {args.player!r} in game {args.game}")
    with textfile.output(args.output or "-") as out:
        for line in game.export(args.player):
            out.write(line + "\n")
    return 0
