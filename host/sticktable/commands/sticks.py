"""`sticktable sticks check`: is this a lay-down of that stick?
(host/docs/formats/sticks-laydown.md); `sticktable sticks list`: the stick numbers it takes."""

from __future__ import annotations

import json

from sticktable import textfile
from sticktable.errors import InputRefused
from sticktable.games.sticks.check import RequestError, check_request
from sticktable.games.sticks.settings import PRESETS
from sticktable.games.sticks.stick_lists import stick_list
from sticktable.texttable import table

KINDS = {"laydown": "lay-down", "no_discard": "no discard", "free": "free"}


def register(subparsers) -> None:
    parser = subparsers.add_parser("sticks", help="Sticks (rummy) tools")
    groups = parser.add_subparsers(dest="sticks_command", metavar="ACTION", required=True)
    check = groups.add_parser(
        "check",
        help="check a lay-down against a stick",
        description="Print one JSON object: ok true with the melds, or ok false with why "
        "(host/docs/formats/sticks-laydown.md). The stick numbers: `sticktable sticks list`.",
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
    listing = groups.add_parser(
        "list",
        help="list a preset's sticks: the numbers `sticks check --stick` takes",
        description="Print a preset's sticks: number, kind, the stick's text and an example "
        "lay-down (host/docs/formats/sticks-laydown.md).",
    )
    listing.add_argument("--preset", required=True, choices=list(PRESETS), help="the preset")
    listing.add_argument("--json", action="store_true", help="one JSON object per stick")
    listing.set_defaults(func=list_sticks)


def list_sticks(args) -> int:
    sticks = stick_list(args.preset)
    if args.json:
        for s in sticks:
            example = _flat(s.example)
            fields = {"stick": s.number, "kind": s.kind, "text": s.text, "example": example}
            print(json.dumps(fields, ensure_ascii=False))
        return 0
    rows = [[s.number, KINDS[s.kind], s.text, " ".join(_flat(s.example))] for s in sticks]
    for line in table(["stick", "kind", "text", "example"], rows, right=(0,)):
        print(line)
    return 0


def _flat(example) -> list[str]:
    """An example's cards (a meld may be written as a nested list)."""
    return [c for m in example for c in (m if isinstance(m, tuple) else [m])]


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
    print(json.dumps(result, ensure_ascii=False))
    return 0


def _request(line: str) -> dict:
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
    # Lines as the spec counts them: split at line ends only (str.splitlines would also split
    # inside a JSON string at U+2028 or U+0085 and shift the line numbers).
    for number, line in enumerate(textfile.lines(path, label="sticks check"), 1):
        if not line.strip():
            continue
        try:
            results.append(_request(line))
        except RequestError as err:
            raise InputRefused(f"{textfile.name(path)} line {number}: {err}") from None
    for result in results:
        print(json.dumps(result, ensure_ascii=False))
    return 0
