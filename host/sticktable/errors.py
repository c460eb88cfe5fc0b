"""Errors a user can cause: the CLI prints them as one line and exits non-zero."""


class UserError(Exception):
    """Bad input or an unusable environment; `exit_code` is what the command exits with."""

    exit_code = 1

    def __init__(self, message: str, exit_code: int | None = None):
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class InputRefused(UserError):
    """A file that breaks its format or the rules (spec'd tools exit 2 for these)."""

    exit_code = 2
