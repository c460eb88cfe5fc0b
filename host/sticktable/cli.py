"""The `sticktable` command: discovers subcommands and turns user errors into one-line messages."""

import argparse
import importlib
import pkgutil
import sys
import textwrap

from sticktable import __version__, commands
from sticktable.errors import UserError


class HelpFormatter(argparse.HelpFormatter):
    """Help text wrapped between words only: a file name like sensor-trace.md stays whole."""

    def _split_lines(self, text, width):
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text, width, indent):
        return textwrap.fill(
            " ".join(text.split()),
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_on_hyphens=False,
        )


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other error of the tool."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="sticktable",
        description="Scoring daemon and tools for the electronic stick-game table.",
    )
    parser.add_argument("--version", action="version", version=f"sticktable {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"sticktable.commands.{info.name}")
        module.register(subparsers)
    _describe(parser)
    return parser


def _describe(parser: argparse.ArgumentParser) -> None:
    """Every command's --help starts with what it does: its one-line help when it has no
    description of its own."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                sub = action.choices[choice.dest]
                if not sub.description and choice.help:
                    sub.description = choice.help[0].upper() + choice.help[1:] + "."
                _describe(sub)


def _utf8_streams() -> None:
    """Names and results are printed as they are: stdout and stderr speak UTF-8 whatever the
    locale says (host/docs/cli.md)."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if encoding != "utf8" and hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors="replace")


def main(argv: list[str] | None = None) -> int:
    _utf8_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as err:
        # One line whatever the message holds (a player's name may contain a line break).
        message = str(err).replace("\r", "\\r").replace("\n", "\\n")
        print(f"sticktable: {message}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("sticktable: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
