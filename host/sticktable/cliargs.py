"""Options several commands share, checked when the command line is parsed (host/docs/cli.md):
a bad value is refused before anything starts, with exit 2 and one line."""

from __future__ import annotations

import argparse

from sticktable.errors import UserError


def seconds(text: str) -> float:
    """A time in seconds: a number above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value


def add_hello_timeout(parser) -> None:
    parser.add_argument(
        "--hello-timeout",
        type=seconds,
        default=3.0,
        metavar="SECONDS",
        help="seconds to wait for the board's hello (default 3)",
    )


DEFAULT_GAME = "stick-stack"


def check_run_options(args) -> None:
    """`sticktable run`'s options that cannot go together, refused before anything starts;
    fills in the defaults that depend on them. (A function of its own so that `run` keeps it
    whatever else changes there.)"""
    if args.resume:
        given = [
            option
            for option, value in (
                ("--players", args.players),
                ("--game", args.game),
                ("--house", args.house),
            )
            if value
        ]
        if given:
            raise UserError(
                f"--resume continues a game as it was journaled: leave out {', '.join(given)}",
                exit_code=2,
            )
    if args.speed < 0:
        raise UserError("--speed must be 0 (as fast as it goes) or more", exit_code=2)
    if args.game is None:
        args.game = DEFAULT_GAME
