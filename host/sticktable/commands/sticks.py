"""`sticktable sticks check`: is this a lay-down of that stick? (spec/sticks-laydown.md)"""

from __future__ import annotations

import json
import sys

from sticktable.errors import InputRefused, UserError
from sticktable.games.rummy.check import RequestError, check_request


def register(subparsers) -> None:
    parser = subparsers.add_parser("sticks", help="Sticks (rummy) tools")
    groups = parser.add_subparsers(dest="sticks_command", metavar="ACTION", required=True)
    check = groups.add_parser(
        "check",
        help="check a lay-down against a stick",
        description="Print one JSON object: ok true with the melds, or ok false with why.",
    )
    check.add_argument("--preset", help="classic or tries")
    check.add_argument("--stick", type=int, help="stick number in the preset's list")
    check.add_argument(
        "--batch",
        metavar="FILE",
        help='JSON lines {"preset": ..., "stick": N, "cards": [...]} ("-": stdin)',
    )
    check.add_argument("cards", nargs="*", metavar="CARD", help="e.g. 10H AS 2C JK")
    check.set_defaults(func=run)  # argument errors: one line, exit 2 (the CLI's parser class)


def run(args) -> int:
    if args.batch is not None:
        if args.preset or args.stick is not None or args.cards:
            raise InputRefused("--batch takes no --preset, --stick or cards")
        return _batch(args.batch)
    if args.preset is None or args.stick is None:
        raise InputRefused("give --preset and --stick (or --batch FILE)")
    try:
        result = check_request(args.preset, args.stick, list(args.cards))
    except RequestError as err:
        raise InputRefused(str(err)) from None
    print(json.dumps(result))
    return 0


def _read_lines(path: str) -> list[bytes]:
    """The file's lines as the spec counts them: split at line ends only (str.splitlines
    would also split inside a JSON string at U+2028 or U+0085 and shift the line numbers)."""
    try:
        if path == "-":
            return sys.stdin.buffer.read().splitlines()
        with open(path, "rb") as file:
            return file.read().splitlines()
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror}") from None


def _request(line: bytes) -> dict:
    """One batch line's answer; RequestError saying why the line is malformed."""
    try:
        request = json.loads(line)
    except (ValueError, RecursionError) as err:  # RecursionError: absurdly deep nesting
        raise RequestError(f"not JSON ({getattr(err, 'msg', 'unreadable')})") from None
    if not isinstance(request, dict) or not {"preset", "stick", "cards"} <= set(request):
        raise RequestError('a line must be {"preset": ..., "stick": N, "cards": [...]}')
    return check_request(request["preset"], request["stick"], request["cards"])


def _batch(path: str) -> int:
    results = []
    # Every line is checked before anything is printed: a refused batch prints no results.
    for number, line in enumerate(_read_lines(path), 1):
        if not line.strip():
            continue
        try:
            results.append(_request(line))
        except RequestError as err:
            raise InputRefused(f"{path} line {number}: {err}") from None
    for result in results:
        print(json.dumps(result))
    return 0
