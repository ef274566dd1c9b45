"""User-facing errors: each names the file and the field and says what was expected.

The command line prints them as one paragraph without a traceback; anything else is a bug.
"""

from __future__ import annotations

import traceback
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


def strategy_failure(e: BaseException) -> str | None:
    """A Python strategy's exception, as the engine raises it (where: game, lineup slot, seat and
    decision; the strategy's own exception as the cause), told in a few lines: the message and the
    strategy's own frames. None for any other exception."""
    cause = e.__cause__
    # A KeyError's str() is the repr of its message: the message is its only argument.
    text = e.args[0] if len(e.args) == 1 and isinstance(e.args[0], str) else str(e)
    if cause is None or "Python strategy of lineup slot" not in text:
        return None
    lines = [f"error: {text}"]
    frames = _strategy_frames(cause)
    if frames:
        lines += ["the strategy's frames (most recent call last):", *frames]
    lines.append("(the whole traceback: run again with --debug)")
    return "\n".join(lines)


def _strategy_frames(cause: BaseException) -> list[str]:
    # The engine calls decide() from Rust, so the strategy's exception has only the strategy's
    # frames. joblib hands a worker's failure over with the whole chain as text instead (its
    # _RemoteTraceback): there, the first traceback of the chain is the strategy's.
    if type(cause).__name__ != "_RemoteTraceback":
        return [f.rstrip() for f in traceback.format_tb(cause.__traceback__)]
    text = str(cause.args[0]) if cause.args else ""
    first = text.split("The above exception was the direct cause")[0].strip().splitlines()
    return [line for line in first[:-1] if not line.startswith("Traceback (most recent call last)")]
