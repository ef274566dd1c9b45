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
from scipy import stats


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


@dataclass(frozen=True)
class Distribution:
    """Mean and quantiles of a sample, each with a percentile-bootstrap CI."""

    mean: Interval
    quantiles: dict[float, Interval]


def describe(
    x: np.ndarray,
    quantiles: Sequence[float] = (0.05, 0.25, 0.5, 0.75, 0.95),
    *,
    confidence: float = 0.95,
    n_resamples: int = 2000,
    seed: int = 0,
) -> Distribution:
    """Mean and quantiles of ``x`` with percentile-bootstrap CIs from one set of resamples.

    Quantiles are the inverse empirical CDF (the smallest value with F(x) >= q; numpy's
    ``inverted_cdf``), which is always an observed score. The bootstrap resamples the *counts* of
    the distinct values (a multinomial draw), which has exactly the distribution of an ordinary
    row bootstrap but costs O(distinct values) per resample, so it scales to millions of rows of
    integer scores. Assumes independent rows.
    """
    x = np.asarray(x, dtype=float)
    n = len(x)
    if n == 0:
        return Distribution(Interval.empty(), {q: Interval.empty() for q in quantiles})
    values, counts = np.unique(x, return_counts=True)
    rng = np.random.default_rng(seed)
    boot = rng.multinomial(n, counts / n, size=n_resamples)
    alpha = (1 - confidence) / 2

    def interval(est: float, reps: np.ndarray) -> Interval:
        lo, hi = np.quantile(reps, [alpha, 1 - alpha])
        return Interval(float(est), float(lo), float(hi), n)

    mean = interval(float(x.mean()), boot @ values / n)
    cum = np.cumsum(boot, axis=1)
    qs: dict[float, Interval] = {}
    for q in quantiles:
        # Smallest value whose cumulative count reaches q*n (ceil: F(x) >= q).
        target = max(1, math.ceil(q * n - 1e-9))
        idx = (cum < target).sum(axis=1)
        est = float(np.quantile(x, q, method="inverted_cdf"))
        qs[q] = interval(est, values[np.minimum(idx, len(values) - 1)])
    return Distribution(mean, qs)


def cluster_mean_ci(values: np.ndarray, clusters: np.ndarray, confidence: float = 0.95) -> Interval:
    """Mean of ``values`` with a cluster-robust CI (clusters = deals, games or quads).

    Rows that share a cluster (the players of one game, the tables of one duplicate deal) may be
    correlated; clusters are assumed independent. The estimate is the ratio Σy/Σm over clusters;
    its variance is the CR1 sandwich G/(G-1)·Σ_g(y_g − μ·m_g)²/(Σm)², and the interval uses a t
    distribution with G−1 degrees of freedom. With one row per cluster this is the usual t interval.
    Needs at least two clusters; assumes many clusters (tens or more) for the normal approximation.
    """
    values = np.asarray(values, dtype=float)
    clusters = np.asarray(clusters)
    if len(values) == 0:
        return Interval.empty()
    _, inv = np.unique(clusters, return_inverse=True)
    y = np.bincount(inv, weights=values)
    m = np.bincount(inv).astype(float)
    g = len(y)
    mu = y.sum() / m.sum()
    if g < 2:
        return Interval(float(mu), math.nan, math.nan, g)
    var = g / (g - 1) * np.sum((y - mu * m) ** 2) / m.sum() ** 2
    half = stats.t.ppf(0.5 + confidence / 2, g - 1) * math.sqrt(var)
    return Interval(float(mu), float(mu - half), float(mu + half), g)


def mean_ci(x: np.ndarray, confidence: float = 0.95) -> Interval:
    """t interval of the mean of independent observations (used for paired per-deal differences)."""
    x = np.asarray(x, dtype=float)
    return cluster_mean_ci(x, np.arange(len(x)), confidence)
