"""``--help`` that reads as plain usage whatever Typer version renders it.

Recent Typer shows a ``<bool>`` type beside every flag and wraps required arguments in braces
(``{config_path}``), which read as unfilled templates. :func:`apply` makes every command and group
of an app name its arguments in capitals (``CONFIG_PATH``) and show no type for flags.
"""

from __future__ import annotations

import re
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

_REQUIRED = re.compile(r"^\{(.+)\}(\.\.\.)?$")


class _Plain:
    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)  # type: ignore[misc]
        for p in params:
            if isinstance(p, TyperOption) and p.is_flag and p.metavar is None:
                p.metavar = ""
        return params

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = super().collect_usage_pieces(ctx)  # type: ignore[misc]
        return [_REQUIRED.sub(lambda m: m.group(1).upper() + (m.group(2) or ""), p) for p in pieces]


class Command(_Plain, TyperCommand):
    pass


class Group(_Plain, TyperGroup):
    pass


def apply(app: typer.Typer) -> None:
    """Uses :class:`Command` and :class:`Group` for every command and sub-app registered so far."""
    app.info.cls = Group
    for command in app.registered_commands:
        if command.cls in (None, TyperCommand):  # Typer fills in its own class by default
            command.cls = Command
    for group in app.registered_groups:
        if group.typer_instance is not None:
            apply(group.typer_instance)
