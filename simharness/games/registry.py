"""The contract between the harness and the game packages, found through the engine's registry.

For every game the engine plays (``simharness.engine.games()``) there is a package
``simharness.games.<game>``. What a package offers, the harness takes:

- a ``cli`` module with ``register(app, score_app)``: the game's commands (``score <game>``, tools);
  a game without one adds no commands;
- ``summary_metrics(run) -> polars.DataFrame`` in the package: rows the report adds (columns
  variant, strategy, metric, estimate, lo, hi, n);
- a ``python`` module: its Python-strategy protocol, present exactly when the engine layer exports
  ``<game>_play_batch_python``;
- ``MIN_SHARD`` in the package: the fewest games a default shard holds (about 10 ms of play with
  knob strategies), since a shard also writes its Parquet files.

So adding a game touches no harness module: its engine module tree and its package are all.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from types import ModuleType
from typing import Any

import polars as pl
import typer

from simharness import engine

MetricsFn = Callable[[Any], pl.DataFrame]


def package(game: str) -> ModuleType:
    """``simharness.games.<game>``; every game of the engine has one."""
    return importlib.import_module(f"{__package__}.{game}")


def submodule(game: str, name: str) -> ModuleType | None:
    """``simharness.games.<game>.<name>`` if the game has that module, else None."""
    full = f"{__package__}.{game}.{name}"
    return importlib.import_module(full) if importlib.util.find_spec(full) is not None else None


def summary_metrics(game: str) -> MetricsFn | None:
    """The game's ``summary_metrics``, or None for a game whose report is the harness's alone (also
    a run of a game this installation has no package for: its report still has the harness's part)."""
    try:
        module = package(game)
    except ModuleNotFoundError as e:
        if e.name != f"{__package__}.{game}":
            raise
        return None
    fn: MetricsFn | None = getattr(module, "summary_metrics", None)
    return fn


def register_commands(app: typer.Typer, score_app: typer.Typer) -> list[str]:
    """Lets each game with a ``cli`` module add its commands; returns those games' names."""
    added = []
    for info in engine.games():
        cli = submodule(info.name, "cli")
        if cli is not None:
            cli.register(app, score_app)
            added.append(info.name)
    return added


# A default shard of a game whose package does not say how costly its games are.
MIN_SHARD = 1000


def min_shard(game: str) -> int:
    """The game package's ``MIN_SHARD`` (see above), else :data:`MIN_SHARD`."""
    return int(getattr(package(game), "MIN_SHARD", MIN_SHARD))
