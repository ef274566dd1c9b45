"""Paired comparisons on shared deals (duplicate tables and common random numbers).

The unit is the **deal**: every table that played the same keyed walls and dice. A strategy's score
on a deal is its mean over all its rows on that deal (all seats and rotations), the "quad score" Y_q
of duplicate play; two arms are compared through the per-deal differences, which is cluster-robust
by construction (deals are independent, rows within a deal are not).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats

from simharness.stats.intervals import Interval, mean_ci


def per_deal(frame: pl.DataFrame, value: str | pl.Expr) -> pl.DataFrame:
    """Mean of ``value`` per deal: columns ``deal``, ``y`` and ``m`` (the rows averaged)."""
    expr = pl.col(value) if isinstance(value, str) else value
    return (
        frame.group_by("deal").agg(expr.cast(pl.Float64).mean().alias("y"), pl.len().alias("m")).sort("deal")
    )


def row_variance(frame: pl.DataFrame, value: str) -> float:
    """Variance of ``value`` over single rows (one game's result), the unit of independent play."""
    v = frame[value].cast(pl.Float64).var()
    return float(v) if v is not None else math.nan


@dataclass(frozen=True)
class PairedResult:
    """Mean difference a − b with a CI, a p-value and what pairing bought.

    ``paired`` says whether shared deals were used; otherwise the comparison is Welch's on per-deal
    means. ``efficiency`` E = Var(independent design)/Var(a − b) per deal: the factor by which this
    design divides the games needed for the same precision (1 = no gain; below 1 it hurts, as for two
    strategies at the same table of a zero-sum game). The independent design plays each of a deal's
    rows as a fresh game: variance σ²_a/m_a + σ²_b/m_b from the row variances (when given; else the
    per-deal variances, which then measures pairing alone). ``rho``: correlation of the per-deal means.
    """

    difference: Interval
    pvalue: float
    paired: bool
    efficiency: float
    rho: float
    mean_a: float
    mean_b: float

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"difference": self.difference.to_dict()}
        for k in ("pvalue", "paired", "efficiency", "rho", "mean_a", "mean_b"):
            v = getattr(self, k)
            out[k] = None if isinstance(v, float) and not math.isfinite(v) else v
        return out


def paired_difference(
    a: pl.DataFrame, b: pl.DataFrame, confidence: float = 0.95, row_var: tuple[float, float] | None = None
) -> PairedResult:
    """Compare two per-deal frames (``deal``, ``y``) from :func:`per_deal`.

    Deals present in both are paired: the estimate is the mean of the per-deal differences with a t
    interval and a paired t-test (assumes independent deals; the t approximation needs tens of deals).
    With fewer than two shared deals the arms are treated as independent samples of deals (Welch).
    """
    joined = a.join(b, on="deal", suffix="_b")
    ya_all, yb_all = a["y"].to_numpy(), b["y"].to_numpy()
    if joined.height >= 2:
        ya, yb = joined["y"].to_numpy(), joined["y_b"].to_numpy()
        d = ya - yb
        ci = mean_ci(d, confidence)
        var_d = d.var(ddof=1)
        if row_var is not None:
            var_ind = row_var[0] / joined["m"].mean() + row_var[1] / joined["m_b"].mean()
        else:
            var_ind = ya.var(ddof=1) + yb.var(ddof=1)
        if var_d > 0:
            p = float(stats.ttest_1samp(d, 0.0).pvalue)
            eff = var_ind / var_d
        else:
            p = 1.0 if ci.estimate == 0 else 0.0
            eff = math.inf if var_ind > 0 else 1.0
        sa, sb = ya.std(ddof=1), yb.std(ddof=1)
        rho = float(np.corrcoef(ya, yb)[0, 1]) if sa > 0 and sb > 0 else math.nan
        return PairedResult(ci, p, True, float(eff), rho, float(ya.mean()), float(yb.mean()))
    if len(ya_all) < 2 or len(yb_all) < 2:
        est = float(ya_all.mean() - yb_all.mean()) if len(ya_all) and len(yb_all) else math.nan
        return PairedResult(
            Interval(est, math.nan, math.nan, 0),
            math.nan,
            False,
            math.nan,
            math.nan,
            float(ya_all.mean()) if len(ya_all) else math.nan,
            float(yb_all.mean()) if len(yb_all) else math.nan,
        )
    res = stats.ttest_ind(ya_all, yb_all, equal_var=False)
    ci = res.confidence_interval(confidence)
    est = float(ya_all.mean() - yb_all.mean())
    lo, hi = float(ci.low), float(ci.high)
    p = float(res.pvalue)
    if not math.isfinite(p):  # both arms constant
        lo = hi = est
        p = 1.0 if est == 0 else 0.0
    return PairedResult(
        Interval(est, lo, hi, len(ya_all) + len(yb_all)),
        p,
        False,
        1.0,
        math.nan,
        float(ya_all.mean()),
        float(yb_all.mean()),
    )


# A first place shared by k tied players (a game's `ties = shared` rule) counts 1/k to each, so
# every game's wins add up to one; with ranks broken by seat it is the plain rank-1 indicator.
# Evaluated on the rows of one variant (games are numbered per variant).
FIRST_SHARE: pl.Expr = (pl.col("rank") == 1).cast(pl.Float64) / (pl.col("rank") == 1).sum().over("game")

# Per-row outcomes a paired comparison can be made on (A − B; for rank lower is better).
METRIC_EXPRS: dict[str, pl.Expr] = {
    "win": FIRST_SHARE,
    "final_points": pl.col("final_points").cast(pl.Float64),
    "rank": pl.col("rank").cast(pl.Float64),
}


def paired_scores(players: pl.DataFrame, a: str, b: str, metric: str) -> pl.DataFrame:
    """Per complete deal: ``deal``, ``y_a``, ``y_b`` and ``d = y_a − y_b`` (means over the deal's rows).

    A deal is complete when it has as many games as the fullest deal (all rotations of a duplicate
    deal), so a look taken while a deal is half played never uses a one-sided subset of its seats.
    """
    if metric not in METRIC_EXPRS:
        raise ValueError(f'metric: expected one of {", ".join(METRIC_EXPRS)}, got "{metric}"')
    games_per_deal = players.group_by("deal").agg(pl.col("game").n_unique().alias("k"))
    full = games_per_deal.filter(pl.col("k") == pl.col("k").max()).select("deal")
    rows = players.join(full, on="deal").with_columns(METRIC_EXPRS[metric].alias("y"))
    ya = per_deal(rows.filter(pl.col("strategy") == a), "y").select("deal", pl.col("y").alias("y_a"))
    yb = per_deal(rows.filter(pl.col("strategy") == b), "y").select("deal", pl.col("y").alias("y_b"))
    return ya.join(yb, on="deal").with_columns(d=pl.col("y_a") - pl.col("y_b")).sort("deal")
