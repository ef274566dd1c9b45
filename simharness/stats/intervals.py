"""Confidence intervals: proportions, bootstrap, cluster-robust means.

Every function returns an :class:`Interval` (estimate, lo, hi, n) and states what it assumes. The
default confidence is 95% two-sided.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from simharness.stats import dist


@dataclass(frozen=True)
class Interval:
    """A point estimate with a two-sided confidence interval over ``n`` observations (or clusters)."""

    estimate: float
    lo: float
    hi: float
    n: int

    def to_dict(self) -> dict[str, float | int | None]:
        return {
            k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in asdict(self).items()
        }

    @classmethod
    def empty(cls) -> Interval:
        return cls(math.nan, math.nan, math.nan, 0)


def proportion_ci(k: int, n: int, confidence: float = 0.95, method: str = "wilson") -> Interval:
    """CI of a binomial proportion ``k/n`` (scipy ``binomtest(...).proportion_ci``).

    ``method``: ``wilson`` (default: near-nominal coverage even at small n or extreme p),
    ``wilsoncc`` (continuity-corrected) or ``exact`` (Clopper-Pearson, conservative).
    Assumes ``n`` independent trials with a common success probability: when several rows share a
    game or deal (a strategy in two seats, duplicate tables) use :func:`cluster_mean_ci` instead.
    """
    if n <= 0:
        return Interval.empty()
    from scipy import stats

    ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=confidence, method=method)
    return Interval(k / n, float(ci.low), float(ci.high), int(n))


def clopper_pearson_ci(k: int, n: int, confidence: float = 0.95) -> Interval:
    """Exact (Clopper-Pearson) CI: coverage is at least ``confidence`` for every p; assumes iid trials."""
    return proportion_ci(k, n, confidence, method="exact")


def bootstrap_ci(
    samples: Sequence[np.ndarray],
    statistic: Callable[..., float],
    *,
    confidence: float = 0.95,
    method: str = "BCa",
    paired: bool = False,
    n_resamples: int = 2000,
    seed: int = 0,
) -> Interval:
    """Bootstrap CI of ``statistic(*samples)`` with ``scipy.stats.bootstrap`` (BCa by default).

    Assumes the rows of each sample are independent draws (``paired=True``: the samples are
    aligned row by row and resampled together). ``statistic`` must accept ``axis``. A sample with
    no spread has no bootstrap distribution: the interval is then the point estimate itself. The
    resampling seed is fixed, so a report is reproducible.
    """
    arrays = [np.asarray(s, dtype=float) for s in samples]
    n = min(len(a) for a in arrays)
    if n == 0:
        return Interval.empty()
    est = float(statistic(*arrays, axis=-1))
    if n < 2 or all(np.ptp(a) == 0 for a in arrays):
        return Interval(est, est, est, n)
    from scipy import stats

    with warnings.catch_warnings():
        # BCa warns (and returns nan) when the bootstrap distribution is degenerate; handled below.
        warnings.simplefilter("ignore")
        res = stats.bootstrap(
            tuple(arrays),
            statistic,
            confidence_level=confidence,
            method=method,
            paired=paired,
            n_resamples=n_resamples,
            vectorized=True,
            rng=np.random.default_rng(seed),
        )
    lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        lo = hi = est
    return Interval(est, lo, hi, n)


def resample_counts(rng: np.random.Generator, counts: np.ndarray, size: int) -> np.ndarray:
    """``size`` ordinary bootstrap resamples of ``counts.sum()`` rows, as counts per category.

    Row ``i`` of the result has the multinomial distribution of resampling the rows with
    replacement. Few categories: one multinomial draw each (cost per resample ∝ categories); many
    (deals, continuous scores): resample row indices and count them (cost ∝ rows, cheap per row).
    """
    counts = np.asarray(counts, dtype=np.int64)
    n, k = int(counts.sum()), len(counts)
    if k * 8 < n:
        return rng.multinomial(n, counts / n, size=size)
    category = np.repeat(np.arange(k), counts)
    out = np.empty((size, k), dtype=np.int64)
    step = max(1, 4_000_000 // n)  # resamples per chunk, bounding memory at a few million indices
    for start in range(0, size, step):
        b = min(step, size - start)
        cells = np.arange(b)[:, None] * k + category[rng.integers(0, n, (b, n))]
        out[start : start + b] = np.bincount(cells.ravel(), minlength=b * k).reshape(b, k)
    return out


@dataclass(frozen=True)
class Distribution:
    """Mean and quantiles of a sample, each with a deal-clustered CI."""

    mean: Interval
    quantiles: dict[float, Interval]


def describe(
    x: np.ndarray,
    clusters: np.ndarray,
    quantiles: Sequence[float] = (0.05, 0.25, 0.5, 0.75, 0.95),
    *,
    confidence: float = 0.95,
) -> Distribution:
    """Mean and quantiles of ``x`` with CIs clustered by ``clusters`` (deals); ``n`` counts clusters.

    The mean's interval is :func:`cluster_mean_ci`. Quantiles are the inverse empirical CDF (the
    smallest value with F(x) >= q; numpy's ``inverted_cdf``), always an observed score, with
    Woodruff's interval: a cluster-robust CI of the CDF at the estimate, F ± t·se, mapped back
    through the inverse CDF. It is the survey-sampling interval for quantiles of clustered data and
    needs only per-cluster counts of rows at or below the estimate. Assumes independent clusters
    (tens or more); rows within a cluster may be correlated in any way.
    """
    x = np.asarray(x, dtype=float)
    if len(x) == 0:
        return Distribution(Interval.empty(), {q: Interval.empty() for q in quantiles})
    _, inv = np.unique(np.asarray(clusters), return_inverse=True)
    rows = np.bincount(inv).astype(float)
    g = len(rows)
    qs: dict[float, Interval] = {}
    for q in quantiles:
        est = float(np.quantile(x, q, method="inverted_cdf"))
        below = np.bincount(inv, weights=(x <= est).astype(float), minlength=g)
        f = ratio_ci(below, rows, confidence)
        if g < 2:
            qs[q] = Interval(est, math.nan, math.nan, g)
            continue
        half = (f.hi - f.lo) / 2  # ratio_ci without bounds is symmetric; q ± half is clipped to [0, 1] below
        lo = float(np.quantile(x, min(max(q - half, 0.0), 1.0), method="inverted_cdf"))
        hi = float(np.quantile(x, min(max(q + half, 0.0), 1.0), method="inverted_cdf"))
        qs[q] = Interval(est, min(lo, est), max(hi, est), g)
    return Distribution(cluster_mean_ci(x, clusters, confidence), qs)


def cluster_ratio_ci(
    num: np.ndarray, den: np.ndarray, clusters: np.ndarray, confidence: float = 0.95
) -> Interval:
    """Σnum/Σden with a cluster-robust CI (clusters = deals, games or quads); ``n`` is the number of
    clusters.

    Rows that share a cluster (the players of one game, the tables of one duplicate deal) may be
    correlated; clusters are assumed independent. The variance is the CR1 sandwich of the
    linearised ratio, G/(G−1)·Σ_g(N_g − R·D_g)²/(ΣD)², and the interval uses a t distribution with
    G−1 degrees of freedom. Needs at least two clusters; assumes many clusters (tens or more) for the
    normal approximation. Rates such as wins per hand played are ratios of this kind. When every
    row has 0 ≤ num (≤ den) the interval is truncated to [0, ∞) ([0, 1]).
    """
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    if len(num) == 0:
        return Interval.empty()
    _, inv = np.unique(np.asarray(clusters), return_inverse=True)
    bounded = (num >= 0).all() and (den >= 0).all()
    return ratio_ci(
        np.bincount(inv, weights=num),
        np.bincount(inv, weights=den),
        confidence,
        lower=0.0 if bounded else -math.inf,
        upper=1.0 if bounded and (num <= den).all() else math.inf,
    )


def ratio_ci(
    n_g: np.ndarray,
    d_g: np.ndarray,
    confidence: float = 0.95,
    *,
    lower: float = -math.inf,
    upper: float = math.inf,
) -> Interval:
    """:func:`cluster_ratio_ci` from per-cluster sums ``n_g`` and ``d_g`` (one entry per cluster).

    Only these sums are needed, so shards holding whole deals can be reduced separately and
    concatenated. The interval is truncated to [``lower``, ``upper``], the range the ratio can take:
    a symmetric interval can leave it (a rare event's rate below 0), and truncating keeps the
    coverage and never reports an impossible value.
    """
    n_g = np.asarray(n_g, dtype=float)
    d_g = np.asarray(d_g, dtype=float)
    g = len(n_g)
    if g == 0 or d_g.sum() == 0:
        return Interval.empty()
    r = n_g.sum() / d_g.sum()
    ss = float(np.sum((n_g - r * d_g) ** 2)) if g >= 2 else math.nan
    return ratio_interval(float(r), ss, float(d_g.sum()), g, confidence, lower=lower, upper=upper)


def ratio_interval(
    r: float,
    ss: float,
    total_d: float,
    g: int,
    confidence: float = 0.95,
    *,
    lower: float = -math.inf,
    upper: float = math.inf,
) -> Interval:
    """:func:`ratio_ci` from the ratio ``r`` = Σn/Σd, ``ss`` = Σ_g(n_g − r·d_g)², Σd and the clusters ``g``.

    These are all the CR1 interval needs, so a streaming report can accumulate them (as moments of
    (n_g, d_g)) without keeping one entry per cluster.
    """
    if g == 0 or total_d == 0:
        return Interval.empty()
    if g < 2:
        return Interval(r, math.nan, math.nan, g)
    var = g / (g - 1) * max(ss, 0.0) / total_d**2
    half = dist.t_ppf(0.5 + confidence / 2, g - 1) * math.sqrt(var)
    return Interval(r, float(max(r - half, lower)), float(min(r + half, upper)), g)


def cluster_mean_ci(values: np.ndarray, clusters: np.ndarray, confidence: float = 0.95) -> Interval:
    """Mean of ``values`` with a cluster-robust CI: :func:`cluster_ratio_ci` with one unit of
    denominator per row. With one row per cluster this is the usual t interval."""
    values = np.asarray(values, dtype=float)
    return cluster_ratio_ci(values, np.ones(len(values)), clusters, confidence)


def mean_ci(x: np.ndarray, confidence: float = 0.95) -> Interval:
    """t interval of the mean of independent observations (used for paired per-deal differences)."""
    x = np.asarray(x, dtype=float)
    return cluster_mean_ci(x, np.arange(len(x)), confidence)
