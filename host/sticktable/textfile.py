"""How every command reads and writes its files (host/docs/cli.md).

`-` is stdin or stdout; text is UTF-8, with or without a byte-order mark; anything else (UTF-16,
binary) is refused as "not UTF-8 text" (exit 2); a file that cannot be opened is one line,
"cannot read PATH: why" (exit 1). Files are read line by line as the work goes, never held
whole, and long reads show their progress on stderr when it is a terminal.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import time
from collections.abc import Iterator
from typing import IO

from sticktable.errors import InputRefused, UserError

BOM = b"\xef\xbb\xbf"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
PROGRESS_EVERY_S = 0.25


def name(path: str, output: bool = False) -> str:
    """How messages name a file; `-` is stdin (stdout for a file written)."""
    if path == "-":
        return "stdout" if output else "stdin"
    return path


def _opened(path: str) -> IO[bytes]:
    if path == "-":
        return contextlib.nullcontext(sys.stdin.buffer)
    try:
        return open(path, "rb")
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror}") from None


def _size(file: IO[bytes]) -> int | None:
    """The file's size when it is a regular file (not a pipe)."""
    with contextlib.suppress(OSError, ValueError):
        info = os.fstat(file.fileno())
        if stat.S_ISREG(info.st_mode):
            return info.st_size
    return None


def lines(path: str, label: str | None = None) -> Iterator[str]:
    """Each line of the text file at `path` (without its "\\n"; a "\\r" before it is kept for
    the format to judge), decoded as it is read. Lines end at "\\n" only, as the formats count
    them. InputRefused names the file (and the line) when it is not UTF-8 text."""
    with _opened(path) as file:
        meter = Progress(label or path, _size(file)) if label and sys.stderr.isatty() else None
        number = 0
        try:
            for number, raw in enumerate(_read_lines(path, file), 1):
                if number == 1:
                    if raw.startswith(UTF16_BOMS):
                        raise InputRefused(f"{name(path)}: not UTF-8 text (UTF-16?)")
                    raw = raw.removeprefix(BOM)
                if b"\0" in raw:
                    raise InputRefused(f"{name(path)} line {number}: not UTF-8 text (binary?)")
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise InputRefused(f"{name(path)} line {number}: not UTF-8 text") from None
                if meter:
                    meter.advance(len(raw))
                yield text[:-1] if text.endswith("\n") else text
        finally:
            if meter:
                meter.done()


def _read_lines(path: str, file: IO[bytes]) -> Iterator[bytes]:
    try:
        yield from file
    except OSError as err:  # e.g. a directory given as the file
        raise UserError(f"cannot read {path}: {err.strerror}") from None


def read_text(path: str) -> str:
    """The whole text of a small file (one JSON document), by the same rules as `lines`."""
    return "\n".join(lines(path))


@contextlib.contextmanager
def output(path: str):
    """A text stream to write `path` to (`-`: stdout); OSError is one line naming the file."""
    if path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as file:
            yield file
    except OSError as err:
        raise UserError(f"cannot write {path}: {err.strerror}") from None


@contextlib.contextmanager
def naming(path: str):
    """An InputRefused("line N: ...") raised while reading `path` names the file too."""
    try:
        yield
    except InputRefused as err:
        if str(err).startswith("line "):
            raise InputRefused(f"{name(path)} {err}") from None
        raise


class Progress:
    """ "LABEL: 42% (21 of 50 MB)" on stderr, rewritten in place, then erased."""

    def __init__(self, label: str, total: int | None):
        self.label, self.total, self.done_bytes = label, total, 0
        self.shown_at = time.monotonic()
        self.width = 0

    def advance(self, count: int) -> None:
        self.done_bytes += count
        now = time.monotonic()
        if now - self.shown_at >= PROGRESS_EVERY_S:
            self.shown_at = now
            mb = self.done_bytes / 1e6
            if self.total:
                text = f"{self.label}: {100 * self.done_bytes // self.total}% "
                text += f"({mb:.0f} of {self.total / 1e6:.0f} MB)"
            else:
                text = f"{self.label}: {mb:.0f} MB"
            self.width = max(self.width, len(text))
            sys.stderr.write("\r" + text.ljust(self.width))
            sys.stderr.flush()

    def done(self) -> None:
        if self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
