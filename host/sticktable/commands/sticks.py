"""`sticktable sticks check`: is this a lay-down of that stick? (spec/sticks-laydown.md)"""

from __future__ import annotations

import json
import sys
import types

from sticktable.errors import InputRefused
from sticktable.games.rummy.check import RequestError, check_request


def _one_line_error(parser, message):
    # Spec: a malformed request is one stderr line and exit 2, not argparse's usage block.
    print(f"sticktable: {message}", file=sys.stderr)
    sys.exit(2)


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
    check.set_defaults(func=run)
    for p in (parser, check):
        p.error = types.MethodType(_one_line_error, p)


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


def _batch(path: str) -> int:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as err:
        raise InputRefused(f"cannot read {path}: {err}") from None
    results = []
    # Every line is checked before anything is printed: a refused batch prints no results.
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if not isinstance(request, dict) or not {"preset", "stick", "cards"} <= set(request):
                raise RequestError('a line must be {"preset": ..., "stick": N, "cards": [...]}')
            results.append(
                check_request(request.get("preset"), request.get("stick"), request.get("cards"))
            )
        except json.JSONDecodeError as err:
            raise InputRefused(f"{path} line {number}: not JSON ({err.msg})") from None
        except RequestError as err:
            raise InputRefused(f"{path} line {number}: {err}") from None
    for result in results:
        print(json.dumps(result))
    return 0
