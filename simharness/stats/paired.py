"""Paired comparisons on shared deals (duplicate tables and common random numbers).

The unit is the **deal**: every table that played the same keyed walls and dice. A strategy's score
on a deal is its mean over all its rows on that deal (all seats and rotations), the "quad score" Y_q
of duplicate play; two arms are compared through the per-deal differences, which is cluster-robust
by construction (deals are independent, rows within a deal are not).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

import numpy as np
import polars as pl

from simharness.stats.intervals import Interval, mean_ci
from simharness.stats.keys import dense, row_groups


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


def games_per_deal(frame: pl.DataFrame) -> float:
    """Mean number of games per deal (the rotations of a duplicate deal; 1 for independent play)."""
    return cast(float, frame.group_by("deal").agg(pl.col("game").n_unique())["game"].mean() or math.nan)


@dataclass(frozen=True)
class Baseline:
    """What independent play would give: the row variances of the two arms and the design's games per deal."""

    var_a: float
    var_b: float
    games_per_deal: float


def pairing_efficiency(baseline: Baseline, var_d: float) -> tuple[float, float, float]:
    """E, the per-game variance of independent play and of this design, all in games.

    Independent play: each game gives one row of A and one of B, so a − b has variance
    Var_row(a) + Var_row(b) per game. This design: the mean of the k games of a deal has the variance
    Var(d) of the per-deal differences, that is k·Var(d) per game. E is their ratio: the factor by
    which this design divides the *games* needed for the same precision (``simharness plan``'s
    ``--paired-efficiency``). It includes every gain of the design: pairing on shared luck, duplicate
    rotations, and a strategy seated more than once. E < 1 when the arms are negatively correlated
    (two strategies at one table of a zero-sum game).
    """
    independent = baseline.var_a + baseline.var_b
    paired = baseline.games_per_deal * var_d
    if paired > 0:
        return independent / paired, independent, paired
    return (math.inf if independent > 0 else 1.0), independent, paired


@dataclass(frozen=True)
class PairedResult:
    """Mean difference a − b with a CI, a p-value and what pairing bought.

    ``paired`` says whether shared deals were used; otherwise the comparison is Welch's on per-deal
    means. ``efficiency``, ``var_independent`` and ``var_paired``: see :func:`pairing_efficiency`
    (NaN without a :class:`Baseline` or without pairing). ``rho``: correlation of the per-deal means.
    """

    difference: Interval
    pvalue: float
    paired: bool
    efficiency: float
    var_independent: float
    var_paired: float
    rho: float
    mean_a: float
    mean_b: float

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"difference": self.difference.to_dict()}
        for k in (
            "pvalue",
            "paired",
            "efficiency",
            "var_independent",
            "var_paired",
            "rho",
            "mean_a",
            "mean_b",
        ):
            v = getattr(self, k)
            out[k] = None if isinstance(v, float) and not math.isfinite(v) else v
        return out


def paired_difference(
    a: pl.DataFrame, b: pl.DataFrame, confidence: float = 0.95, baseline: Baseline | None = None
) -> PairedResult:
    """Compare two per-deal frames (``deal``, ``y``) from :func:`per_deal`.

    Deals present in both are paired: the estimate is the mean of the per-deal differences with a t
    interval and a paired t-test (assumes independent deals; the t approximation needs tens of deals).
    With fewer than two shared deals the arms are treated as independent samples of deals (Welch).
    """
    from scipy import stats

    joined = a.join(b, on="deal", suffix="_b")
    ya_all, yb_all = a["y"].to_numpy(), b["y"].to_numpy()
    if joined.height >= 2:
        ya, yb = joined["y"].to_numpy(), joined["y_b"].to_numpy()
        d = ya - yb
        ci = mean_ci(d, confidence)
        var_d = float(d.var(ddof=1))
        p = float(stats.ttest_1samp(d, 0.0).pvalue) if var_d > 0 else (1.0 if ci.estimate == 0 else 0.0)
        eff, v_ind, v_pair = pairing_efficiency(baseline, var_d) if baseline else (math.nan,) * 3
        sa, sb = ya.std(ddof=1), yb.std(ddof=1)
        rho = float(np.corrcoef(ya, yb)[0, 1]) if sa > 0 and sb > 0 else math.nan
        return PairedResult(ci, p, True, eff, v_ind, v_pair, rho, float(ya.mean()), float(yb.mean()))
    mean_a = float(ya_all.mean()) if len(ya_all) else math.nan
    mean_b = float(yb_all.mean()) if len(yb_all) else math.nan
    if len(ya_all) < 2 or len(yb_all) < 2:
        diff = Interval(mean_a - mean_b, math.nan, math.nan, 0)
        return PairedResult(diff, math.nan, False, math.nan, math.nan, math.nan, math.nan, mean_a, mean_b)
    res = stats.ttest_ind(ya_all, yb_all, equal_var=False)
    ci = res.confidence_interval(confidence)
    est = mean_a - mean_b
    lo, hi = float(ci.low), float(ci.high)
    p = float(res.pvalue)
    if not math.isfinite(p):  # both arms constant
        lo = hi = est
        p = 1.0 if est == 0 else 0.0
    diff = Interval(est, lo, hi, len(ya_all) + len(yb_all))
    return PairedResult(diff, p, False, math.nan, math.nan, math.nan, math.nan, mean_a, mean_b)


# A first place shared by k tied players (a game's `ties = shared` rule) counts 1/k to each, so
# every game's wins add up to one; with ranks broken by seat it is the plain rank-1 indicator.
# Evaluated on the rows of one variant (games are numbered per variant).
FIRST_SHARE: pl.Expr = (pl.col("rank") == 1).cast(pl.Float64) / (pl.col("rank") == 1).sum().over("game")


def rank_points(frame: pl.DataFrame, points: list[float], by: list[str]) -> pl.Series:
    """Each row's rank points: ``points[rank − 1]``; k players sharing a rank (a game's
    ``ties = shared``: ranks 1, 1, 3) split the points of the k places they hold, as tied players
    split the uma, so that every game pays out the same total. ``by``: the columns of one game."""
    rank = frame["rank"].to_numpy().astype(np.int64)
    if not len(rank):
        return pl.Series("rank_points", [], dtype=pl.Float64)
    game, _games = row_groups(frame, by)
    _ties, tie, counts = dense(game * (int(rank.max()) + 1) + rank)
    tied = counts[tie]
    prefix = np.r_[0.0, np.cumsum(np.asarray(points, dtype=np.float64))]
    return pl.Series("rank_points", (prefix[rank - 1 + tied] - prefix[rank - 1]) / tied)


# Per-row outcomes a paired comparison can be made on (A − B; for rank lower is better).
# ``rank_points`` is a column the report adds to the players table (``report.frames.players_frame``).
METRIC_EXPRS: dict[str, pl.Expr] = {
    "win": FIRST_SHARE,
    "final_points": pl.col("final_points").cast(pl.Float64),
    "rank": pl.col("rank").cast(pl.Float64),
    "rank_points": pl.col("rank_points").cast(pl.Float64),
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
