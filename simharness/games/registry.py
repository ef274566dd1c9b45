"""The contract between the harness and the game packages, found through the engine's registry.

For every game the engine plays (``simharness.engine.games()``) there is a package
``simharness.games.<game>``. What a package offers, the harness takes:

- a ``cli`` module with ``register(app, score_app)``: the game's commands (``score <game>``, tools);
  a game without one adds no commands;
- ``summary_metrics(run) -> polars.DataFrame`` in the package: rows the report adds (columns
  variant, strategy, metric, estimate, lo, hi, n), each metric named in ``METRICS`` below;
- ``METRICS`` (a tuple of ``simharness.vocabulary.Term``: each metric's name, unit and definition,
  e.g. ``win_rate`` → "win rate", % of hands) and
  ``PROFILE`` ((x, y) metrics of the report's strategy profile figure, the risk then the reward;
  default: last-place against 1st-place rate) in the package;
- ``RULE_COUNTERS`` (rule option → the metrics counting how often it applied: "kuitan" → open
  tanyao's share of wins; ``simharness rules GAME`` shows them) and ``DISTRIBUTIONS`` (a title →
  the metrics that are its bins, e.g. the han of a win; the HTML report draws each as a chart);
- ``notable_hand(hands) -> polars.DataFrame`` in the package: per variant the game holding its
  biggest hand (a yakuman or limit hand; columns variant, game, hand, score: larger is bigger, why),
  for the report's list of extreme games;
- a ``python`` module: its Python-strategy protocol, present exactly when the engine layer
  implements it (``_engine.python_games()``);
- ``MIN_SHARD`` in the package: the fewest games a default shard holds (about 10 ms of play with
  knob strategies), since a shard also writes its Parquet files;
- ``REPORT_CHUNK`` in the package: the games of every variant together that the report holds in
  memory at once (whole shards, at least one), so that its peak stays under 1 GB;
- ``RANK_POINTS`` in the package (player count → points of 1st, 2nd, ... place): the game's
  customary rank points (Riichi's 4-player [90, 45, 0, -135]); default :func:`linear_rank_points`.

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


def _package_or_none(game: str) -> ModuleType | None:
    """The game's package, or None for a game the engine plays without one (the tests' toy game,
    or a run of a game this installation has no package for): the harness's part still works."""
    try:
        return package(game)
    except ModuleNotFoundError as e:
        if e.name != f"{__package__}.{game}":
            raise
        return None


def submodule(game: str, name: str) -> ModuleType | None:
    """``simharness.games.<game>.<name>`` if the game has that module, else None."""
    if _package_or_none(game) is None:
        return None
    full = f"{__package__}.{game}.{name}"
    return importlib.import_module(full) if importlib.util.find_spec(full) is not None else None


def _offered(game: str, name: str) -> Any:
    """The package's attribute ``name``, or None when it has none or no package."""
    return getattr(_package_or_none(game), name, None)


def summary_metrics(game: str) -> MetricsFn | None:
    """The game's ``summary_metrics``, or None for a game whose report is the harness's alone."""
    fn: MetricsFn | None = _offered(game, "summary_metrics")
    return fn


def metric_terms(game: str) -> tuple[Any, ...]:
    """The game's ``METRICS`` (``simharness.vocabulary.Term``s); empty when it names none."""
    return tuple(_offered(game, "METRICS") or ())


def rule_counters(game: str) -> dict[str, tuple[str, ...]]:
    """The game's ``RULE_COUNTERS``: rule option → the metrics that count how often it applied."""
    return {str(k): tuple(v) for k, v in (_offered(game, "RULE_COUNTERS") or {}).items()}


def distributions(game: str) -> dict[str, tuple[str, ...]]:
    """The game's ``DISTRIBUTIONS``: a title → the metrics that are its bins, in order (drawn as
    one chart instead of table rows)."""
    return {str(k): tuple(v) for k, v in (_offered(game, "DISTRIBUTIONS") or {}).items()}


def profile_axes(game: str) -> tuple[str, str] | None:
    """The game's ``PROFILE``: the (x, y) metrics of the strategy profile, or None for the default."""
    axes = _offered(game, "PROFILE")
    return (str(axes[0]), str(axes[1])) if axes else None


def notable_hand(game: str) -> MetricsFn | None:
    """The game's ``notable_hand(hands)``, or None for a game without hands to rank."""
    fn: MetricsFn | None = _offered(game, "notable_hand")
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
    return int(_offered(game, "MIN_SHARD") or MIN_SHARD)


# The games (of every variant together) the report reads at once, of a game whose package does not
# say. The report works on several times a chunk's tables, so a game with a table of hands (1-2 KB a
# game in memory) takes 25,000-60,000 and one without (sugoroku, 0.5 KB) this, for a peak under
# 1 GB (benchmarks/report.py).
REPORT_CHUNK = 100_000


def report_chunk(game: str) -> int:
    """The game package's ``REPORT_CHUNK`` (games of all variants in one chunk of the report), else
    :data:`REPORT_CHUNK`."""
    return int(_offered(game, "REPORT_CHUNK") or REPORT_CHUNK)


def linear_rank_points(players: int) -> list[float]:
    """Rank points of a game without customary ones: 2·((n+1)/2 − rank), i.e. [3, 1, −1, −3] for four
    players, [2, 0, −2] for three, [1, −1] for two. Equally spaced, so that every place gained is
    worth the same and the metric is a linear function of the mean rank (no tactic is favoured that
    trades a 2nd place for a 1st-or-last gamble); zero-sum, so that a field of equal strategies
    averages 0; integers, with a two-player game's win worth +1 and its loss −1."""
    return [float(players + 1 - 2 * r) for r in range(1, players + 1)]


def rank_points(game: str, players: int) -> list[float]:
    """The default rank points of ``game`` for ``players`` seats: the package's ``RANK_POINTS``
    for that count, else :func:`linear_rank_points`."""
    own = (_offered(game, "RANK_POINTS") or {}).get(players)
    return [float(x) for x in own] if own is not None else linear_rank_points(players)
