"""`sticktable score TRANSCRIPT`: the standings of a Stick Stack transcript, as one JSON object.

Follows host/docs/formats/stick-stack-transcript.md: a refused transcript prints nothing on stdout,
one line on stderr naming the line, and exits 2 (InputRefused, turned into that by the CLI).
"""

import json

from sticktable import textfile
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


def run(args) -> int:
    with textfile.naming(args.transcript):  # read as it goes, progress on a terminal
        lines = textfile.lines(args.transcript, label="score")
        standings = result(read_game(lines, keep_log=False))
    print(json.dumps(standings, ensure_ascii=False))
    return 0
