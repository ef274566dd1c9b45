"""A run's tables as the report reads them: the players with their derived columns (first-place
share, rank points, strategy), game lengths, the variants in order, the game's own metrics and the
run's provenance. The bottom of the report: every stage above (``sums``, ``stream``, the
presentation modules) reads runs through these, and this module imports none of them."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import polars as pl

from simharness.games import registry
from simharness.manifest import Manifest
from simharness.report.sums import SummarySums
from simharness.stats.keys import row_groups
from simharness.stats.paired import rank_points


class RunLike(Protocol):
    """What the report needs from ``simharness.store.Run``."""

    path: Path
    manifest: Manifest

    def table(self, name: str) -> pl.DataFrame: ...


def optional_table(run: RunLike, name: str) -> pl.DataFrame | None:
    """The table ``name`` if the run wrote it (a directory of that name in the run directory)."""
    if not (Path(run.path) / name).is_dir():
        return None
    return run.table(name)


def variant_names(run: RunLike, players: pl.DataFrame) -> list[str]:
    """Variants in manifest order (the first is the baseline of every comparison)."""
    declared = list(run.manifest.variants)
    present = set(players["variant"].unique().to_list())
    ordered = [v for v in declared if v in present]
    return ordered + sorted(present - set(ordered))


def run_rank_points(manifest: Manifest, players: int) -> list[float]:
    """The rank points a run is scored with: its manifest's (the config's ``rank_points``), else
    the game's default for ``players`` seats (a run made before they were recorded)."""
    own = manifest.rank_points
    return [float(x) for x in own] if own else registry.rank_points(manifest.game, players)


class CachedRun:
    """A chunk whose tables, and players frame, are read and built once, however many parts of the
    report ask for them (the sums, the rank shares, the extreme games, a game's metrics)."""

    def __init__(self, run: RunLike) -> None:
        self.path = run.path
        self.manifest = run.manifest
        self._run = run
        self._tables: dict[str, pl.DataFrame] = {}
        self._players: pl.DataFrame | None = None

    def __reduce__(self) -> tuple[type[CachedRun], tuple[RunLike]]:
        # A chunk sent to a worker process is the shards it names, read there; never the tables
        # read here.
        return CachedRun, (self._run,)

    def table(self, name: str) -> pl.DataFrame:
        if name not in self._tables:
            self._tables[name] = self._run.table(name)
        return self._tables[name]

    def players(self) -> pl.DataFrame:
        """:func:`players_frame` of the chunk."""
        if self._players is None:
            self._players = _players_frame(self)
        return self._players


def players_frame(run: RunLike) -> pl.DataFrame:
    """The players table with ``win`` (the share of first place: 1 for a sole first, 1/k for each of
    k players tied for first under a game's ``ties = shared``), ``rank_points`` (see
    ``stats.paired.rank_points``) and ``strategy`` (from the lineup if not stored)."""
    return run.players() if isinstance(run, CachedRun) else _players_frame(run)


def _players_frame(run: RunLike) -> pl.DataFrame:
    players = run.table("players")
    if "strategy" not in players.columns:
        slots = {s.slot: s.strategy for s in run.manifest.lineup}
        players = players.with_columns(
            pl.col("player").replace_strict(slots, return_dtype=pl.String, default="?").alias("strategy")
        )
    game, _games = row_groups(players, ["variant", "game"])
    first = (players["rank"] == 1).to_numpy()
    share = first / np.bincount(game, weights=first)[game]
    points = run_rank_points(run.manifest, int(np.bincount(game).max(initial=0)))
    return players.with_columns(
        pl.Series("win", share, dtype=pl.Float64), rank_points(players, points, ["variant", "game"])
    )


def seat_axis(players: pl.DataFrame) -> str:
    """The turn-order column for seat-advantage questions.

    ``dealer_order`` (seats after the first dealer) when the game records it, since seat 0 need not
    move first; otherwise ``seat``.
    """
    return "dealer_order" if "dealer_order" in players.columns else "seat"


def game_lengths(run: RunLike) -> tuple[pl.DataFrame, str] | None:
    """Per game length (``variant``, ``game``, ``deal``, ``length``) and its unit.

    In order of preference: the ``turns`` column of the games table, its ``hands`` column, the
    number of distinct ``hand`` values (else rows) per game of the ``hands`` table; None when the
    run has none of these.
    """
    games = run.table("games")
    for col in ("turns", "hands"):
        if col in games.columns:
            return games.select("variant", "game", "deal", pl.col(col).cast(pl.Float64).alias("length")), col
    hands = optional_table(run, "hands")
    if hands is None:
        return None
    count = pl.col("hand").n_unique() if "hand" in hands.columns else pl.len()
    counts = hands.group_by("variant", "game").agg(count.cast(pl.Float64).alias("length"))
    lengths = games.select("variant", "game", "deal").join(counts, on=["variant", "game"], how="left")
    return lengths.with_columns(pl.col("length").fill_null(0.0)), "hands"


def variant_block(players: pl.DataFrame, lengths: pl.DataFrame | None, unit: str | None) -> dict[str, Any]:
    """One variant's tables, from its ``players`` frame (with ``win`` and ``strategy``) and lengths.

    ``games``, ``deals``, ``by_strategy`` and ``by_seat`` (rows, games, deals, win rate, mean and
    quantiles of final points), ``seat_axis``, ``seat_test`` and ``length``: computed by the same
    sums as the streaming report (``report.sums``), in one chunk.
    """
    players = players if "variant" in players.columns else players.with_columns(variant=pl.lit(""))
    variant = str(players["variant"][0]) if players.height else ""
    if lengths is not None and "variant" not in lengths.columns:
        lengths = lengths.with_columns(variant=pl.lit(variant))
    sums = SummarySums(seat_axis(players), players_per_game(players))
    sums.unit = unit
    sums.add(players, lengths, [variant])
    return sums.variant_block(variant)


def players_per_game(players: pl.DataFrame) -> int:
    """The most rows any game has: the seats of the game."""
    game, _games = row_groups(players, ["variant", "game"])
    return int(np.bincount(game).max(initial=0))


def game_metrics(run: RunLike) -> list[dict[str, Any]]:
    """Rows of ``simharness.games.<game>.summary_metrics(run)`` if the game package defines it, on the
    whole run in memory (the report streams them instead: ``report.stream``)."""
    fn = registry.summary_metrics(run.manifest.game)
    if fn is None:
        return []
    frame: pl.DataFrame = fn(run)
    return json_rows(frame.to_dicts())


def json_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Metric rows with every non-finite number as None (JSON has no NaN)."""
    return [
        {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()}
        for r in rows
    ]


def provenance(run: RunLike) -> dict[str, Any]:
    """What the report says of the run: ``games`` per variant as played (a sequential test may
    stop before the config's ``planned_games``; in a sweep each variant's block says its own)."""
    m = run.manifest
    return {
        "path": str(run.path),
        "game": m.game,
        "name": m.name,
        "description": m.description,
        "seed": m.seed,
        "duplicate": m.duplicate,
        "games": m.expected_games(),
        "planned_games": m.games,
        "lineup": [s.to_json() for s in m.lineup],
        "variants": m.variants,
        "provenance": m.provenance,
        # Set when the run is partial (store.open_run(partial=True)): what is missing.
        "warning": getattr(run, "warning", None),
    }
