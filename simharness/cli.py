"""The `simharness` command line (Typer).

Harness commands are defined here; each game with hand-level tools adds its own subcommands from
``simharness/games/<game>_cli.py`` through a ``register(app, score_app)`` function, so that games
stay in their own modules.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="simharness",
    help="Reproducible Monte Carlo tournaments of mahjong-family games between scripted strategies.",
    no_args_is_help=True,
    add_completion=False,
)
score_app = typer.Typer(help="Score one hand of a game and show every part of its value.", no_args_is_help=True)
app.add_typer(score_app, name="score")

# Games that contribute commands (score GAME ..., and game-specific tools).
_GAME_CLIS: tuple[str, ...] = ("suzume",)

for _game in _GAME_CLIS:
    importlib.import_module(f"simharness.games.{_game}_cli").register(app, score_app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
