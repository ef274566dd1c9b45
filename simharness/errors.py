"""User-facing errors: each names the file and the field and says what was expected.

The command line prints them as one paragraph without a traceback; anything else is a bug.
"""

from __future__ import annotations

from pathlib import Path


class UserError(Exception):
    """Bad input from the user (a config, a strategy script, a run directory)."""

    def __init__(self, message: str, *, file: Path | str | None = None, field: str | None = None) -> None:
        self.file = Path(file) if file is not None else None
        self.field = field
        self.message = message
        super().__init__(self.describe())

    def describe(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}: "
        if self.field:
            where += f"{self.field}: "
        return where + self.message


class ConfigError(UserError):
    """An experiment config or strategy script is wrong; nothing has run."""


class RunDirError(UserError):
    """A run directory cannot be used as asked (changed config, corrupt or foreign files)."""
