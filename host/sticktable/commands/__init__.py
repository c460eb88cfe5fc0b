"""One module per `sticktable` subcommand.

Each module defines `register(subparsers)`, which adds its parser and sets
`func=run` (a function taking the parsed args and returning an exit code).
The CLI discovers the modules here, so adding a command touches no other file.
"""
