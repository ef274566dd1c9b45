"""Sugoroku's summary metrics: how each strategy races, per game, with 95% CIs clustered by deal.

A dice race has no hands, so the analyst's offence/defence picture (win rate per hand against
deal-in rate) has no direct counterpart. Its analogue (``PROFILE``) is per game: the goal rate
(the player reached the goal, the move that pays the winner bonus and the distance settlement: the
race's reward, as a hand win is mahjong's) against the last-place rate (the outcome that dealing in
produces in mahjong: the race's risk). The choices the strategies' knobs make are counted per game
too (offsets, pinzoro back re-rolls, 6-zoro extra rolls), with the rests served that offsets avoid.
"""

from __future__ import annotations

from typing import Any, Protocol

import polars as pl

from simharness.stats.intervals import cluster_mean_ci

# metric → per-player-row value; the mean over a strategy's rows is the metric.
PER_GAME: dict[str, pl.Expr] = {
    "goal_rate": pl.col("seat").cast(pl.Int64) == pl.col("winner").cast(pl.Int64),
    "rests_served": pl.col("rests_served"),
    "offsets": pl.col("offsets"),
    "back_rerolls": pl.col("back_rerolls"),
    "extra_rolls": pl.col("extra_rolls"),
}

METRIC_LABELS = {
    "goal_rate": "goal rate (per game)",
    "rests_served": "rests served (per game)",
    "offsets": "offsets (per game)",
    "back_rerolls": "pinzoro back re-rolls (per game)",
    "extra_rolls": "6-zoro extra rolls (per game)",
}
PROFILE = ("last_place_rate", "goal_rate")


class Run(Protocol):
    """What the summary needs of :class:`simharness.store.Run`."""

    def table(self, name: str) -> pl.DataFrame: ...


def summary_metrics(run: Run) -> pl.DataFrame:
    """Long-form per-game metrics of each variant and strategy (columns variant, strategy, metric,
    estimate, lo, hi, n; ``n`` is the number of deals)."""
    players = run.table("players").join(
        run.table("games").select("variant", "game", "winner"), on=["variant", "game"], how="left"
    )
    rows: list[dict[str, Any]] = []
    for (v, s), mine in sorted(players.group_by("variant", "strategy"), key=lambda g: g[0]):
        deals = mine["deal"].to_numpy()
        values = mine.select(*(e.cast(pl.Float64).alias(m) for m, e in PER_GAME.items()))
        for metric in PER_GAME:
            ci = cluster_mean_ci(values[metric].to_numpy(), deals)
            rows.append({"variant": v, "strategy": s, "metric": metric, **ci.to_dict()})
    schema = {"variant": pl.String, "strategy": pl.String, "metric": pl.String, "estimate": pl.Float64,
              "lo": pl.Float64, "hi": pl.Float64, "n": pl.Int64}  # fmt: skip
    return pl.DataFrame(rows, schema=schema, orient="row")
