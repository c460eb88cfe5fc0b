"""Results for people: aligned columns, measured in terminal cells (a wide character takes two,
a combining mark none), names printed as they are."""

from __future__ import annotations

import unicodedata


def cell_width(text: str) -> int:
    """How many terminal cells `text` takes."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def pad(text: str, width: int, right: bool = False) -> str:
    fill = " " * max(0, width - cell_width(text))
    return fill + text if right else text + fill


def table(header: list[str], rows: list[list], right: tuple[int, ...] = ()) -> list[str]:
    """The lines of a table: columns two spaces apart, numbers (columns in `right`) right-aligned,
    the last column left unpadded."""
    cells = [[str(c) for c in row] for row in [header, *rows]]
    widths = [max(cell_width(row[i]) for row in cells) for i in range(len(header))]
    last = len(header) - 1
    return [
        "  ".join(
            c if i == last and i not in right else pad(c, widths[i], i in right)
            for i, c in enumerate(row)
        ).rstrip()
        for row in cells
    ]
