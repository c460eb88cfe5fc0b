"""`sticktable score TRANSCRIPT`: the standings of a Stick Stack transcript, as one JSON object.

Follows host/docs/formats/stick-stack-transcript.md: a refused transcript prints nothing on stdout,
one line on stderr naming the line, and exits 2 (InputRefused, turned into that by the CLI).
"""

import json
import sys

from sticktable.errors import UserError
from sticktable.games.stickstack_transcript import read_game, result


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a Stick Stack transcript",
        description="Print the standings of a Stick Stack game transcript (JSON Lines) as JSON "
        "(host/docs/formats/stick-stack-transcript.md).",
    )
    parser.add_argument("transcript", metavar="TRANSCRIPT", help="transcript file, - for stdin")
    parser.set_defaults(func=run)


def _read_lines(path: str) -> list[bytes]:
    if path == "-":
        return sys.stdin.buffer.read().splitlines()
    try:
        with open(path, "rb") as file:
            return file.read().splitlines()
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror}") from None


def run(args) -> int:
    standings = result(read_game(_read_lines(args.transcript)))
    print(json.dumps(standings))
    return 0
