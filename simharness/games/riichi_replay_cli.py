"""`simharness replay riichi FILE.mjlog ...`: real Tenhou games through the engine, hand by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from simharness.games import riichi_replay

out = Console(highlight=False, soft_wrap=True)


def replay_riichi(
    files: Annotated[list[Path], typer.Argument(help="Tenhou mjlog files (plain or gzip XML).")],
    preset: Annotated[
        str, typer.Option(help="Base rule preset; the log's game type sets red fives, kuitan and length.")
    ] = "tenhou",
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print only differing hands and the total.")
    ] = False,
) -> None:
    """Replay each hand with the recorded wall and actions; compare winners, han, fu, points, every
    seat's points after the hand and the next hand's state with the record. Exit status 1 if any
    hand differs or a recorded action is illegal for the engine, 2 for an unreadable file."""
    hands = differing = 0
    for path in files:
        try:
            checks = riichi_replay.replay_file(path, preset)
        except (OSError, ValueError, KeyError) as e:
            typer.echo(f"error: {path}: {e}", err=True)
            raise typer.Exit(2) from None
        for c in checks:
            hands += 1
            differing += not c.ok
            if c.ok and not quiet:
                wins = ", ".join(
                    f"seat {w['seat']} {w['han']}han {w['fu']}fu {w['points']}" for w in c.engine["wins"]
                )
                out.print(f"{escape(path.name)} {c.name:7} ok   {c.outcome:13} {wins}")
            elif not c.ok:
                out.print(
                    f"{escape(path.name)} {c.name:7} [red]DIFF[/red] {c.outcome:13} "
                    + escape("; ".join(c.problems))
                )
    out.print(
        f"{hands} hands in {len(files)} games: {hands - differing} equal to the record, {differing} differ"
    )
    if differing:
        raise typer.Exit(1)


def register(app: typer.Typer, score_app: typer.Typer) -> None:
    replay_app = typer.Typer(help="Replay recorded real games through the engine.", no_args_is_help=True)
    replay_app.command("riichi")(replay_riichi)
    app.add_typer(replay_app, name="replay")
    del score_app
