"""What the games' ``summary_metrics`` share: the long-form row of one estimate and the typed frame
of rows, and the interval every per-row rate or mean of a game uses (clustered by deal: the hands of
a game and the duplicate tables of a deal are not independent)."""

from __future__ import annotations

from typing import Any, Protocol

import polars as pl

from simharness.stats.intervals import Interval, cluster_mean_ci


class Run(Protocol):
    """What a game's summary metrics need of :class:`simharness.store.Run`."""

    def table(self, name: str) -> pl.DataFrame: ...


def row(variant: str, strategy: str, metric: str, ci: Interval) -> dict[str, Any]:
    """One row of a ``summary_metrics`` frame (columns variant, strategy, metric, estimate, lo, hi, n)."""
    return {
        "variant": variant,
        "strategy": strategy,
        "metric": metric,
        "estimate": ci.estimate,
        "lo": ci.lo,
        "hi": ci.hi,
        "n": ci.n,
    }


def by_deal(values: pl.Series, deals: pl.Series) -> Interval:
    """The mean of ``values`` with its 95% interval clustered by deal (``n`` counts deals)."""
    return cluster_mean_ci(values.cast(pl.Float64).to_numpy(), deals.to_numpy())


SCHEMA = {
    "variant": pl.String,
    "strategy": pl.String,
    "metric": pl.String,
    "estimate": pl.Float64,
    "lo": pl.Float64,
    "hi": pl.Float64,
    "n": pl.Int64,
}


def frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    """The ``summary_metrics`` frame of ``rows`` (made by :func:`row`), typed even when empty."""
    return pl.DataFrame(rows, schema=SCHEMA, orient="row")
