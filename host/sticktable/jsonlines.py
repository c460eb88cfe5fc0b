"""Record files in JSON Lines (a Stick Stack transcript, a Bloodsticks game record): the lines
that hold something, and refusals that name the line.

Blank lines and lines starting with `#` are skipped but counted: line numbers are physical
lines from 1, so `line N: what is wrong` points where an editor shows it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from sticktable.errors import InputRefused


def refusal(number: int, what: str) -> InputRefused:
    """`line N: what`, on one line whatever a player's name holds (controls are escaped)."""
    what = "".join(c if c.isprintable() else repr(c)[1:-1] for c in what)
    return InputRefused(f"line {number}: {what}")


def json_lines(lines: Iterable[str | bytes]) -> Iterator[tuple[int, object]]:
    """(line number, parsed JSON value) of each line that is not blank or a comment;
    InputRefused for a line that is not UTF-8 or not JSON."""
    for number, text in enumerate(lines, 1):
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError:
                raise refusal(number, "not UTF-8 text") from None
        text = text.strip().lstrip("\ufeff")
        if not text or text.startswith("#"):
            continue
        try:
            yield number, json.loads(text)
        except (ValueError, RecursionError) as err:  # RecursionError: absurdly deep nesting
            raise refusal(number, f"not JSON ({getattr(err, 'msg', 'unreadable')})") from None
