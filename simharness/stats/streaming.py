"""Sufficient statistics of the deal-clustered report, accumulated chunk by chunk.

A chunk is a set of whole shards, so it holds whole deals (a deal never straddles a shard, and
variants share their deal ranges). Every number of ``simharness report`` is a function of sums over
deals of per-deal quantities; this module holds those sums and turns them back into the intervals
and tests of ``stats.intervals``, ``stats.paired`` and ``stats.hypotheses``:

- :class:`Moments`: count, means and centred cross-products of a few per-deal variables (Chan's
  parallel update, so sums of a 10^8-game run lose no precision to cancellation). Ratio intervals
  need the moments of (numerator, denominator) per deal; paired comparisons those of (a, b).
- :class:`Histogram`: per distinct value, the rows, Σ of the row's deal size and Σ of the row's
  pair weight; the inverse empirical CDF and Woodruff's interval need nothing else. Memory is the
  number of distinct values (scores and lengths are integers), not of rows.
- :class:`FriedmanSums`: rank sums and tie counts of blocks (deals) across variants.
- :func:`poisson_weights`: keyed Poisson(1) bootstrap weights per (deal, replicate).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from simharness.stats import dist
from simharness.stats.hypotheses import TestResult
from simharness.stats.intervals import Interval, ratio_interval
from simharness.stats.keys import dense, group_codes, value_ranks
from simharness.stats.paired import Baseline, PairedResult, pairing_efficiency


@dataclass
class Moments:
    """Count ``n``, means and centred cross-product sums ``m2`` of k variables."""

    n: int
    mean: np.ndarray
    m2: np.ndarray

    @classmethod
    def empty(cls, k: int) -> Moments:
        return cls(0, np.zeros(k), np.zeros((k, k)))

    @classmethod
    def of(cls, *columns: np.ndarray) -> Moments:
        xs = [np.asarray(c, dtype=float) for c in columns]
        n = len(xs[0]) if xs else 0
        if n == 0:
            return cls.empty(len(xs))
        mean = np.array([x.mean() for x in xs])
        cs = [x - mu for x, mu in zip(xs, mean, strict=True)]
        # Elementwise, not np.dot: a multithreaded BLAS dot of one chunk is slower than the products.
        m2 = np.empty((len(cs), len(cs)))
        for i, a in enumerate(cs):
            for j in range(i, len(cs)):
                m2[i, j] = m2[j, i] = float((a * cs[j]).sum())
        return cls(n, mean, m2)

    def __iadd__(self, other: Moments) -> Moments:
        if other.n == 0:
            return self
        n = self.n + other.n
        delta = other.mean - self.mean
        self.m2 = self.m2 + other.m2 + np.outer(delta, delta) * (self.n * other.n / n)
        self.mean = self.mean + delta * (other.n / n)
        self.n = n
        return self

    def total(self, i: int) -> float:
        return float(self.mean[i] * self.n)

    def var(self, i: int, ddof: int = 1) -> float:
        return float(self.m2[i, i] / (self.n - ddof)) if self.n > ddof else math.nan


def add_into(total: dict[Any, Any], part: Mapping[Any, Any]) -> None:
    """Adds each sum of ``part`` (one chunk's) to ``total``'s sum of the same key; a key new to
    ``total`` takes ``part``'s sum itself. A sum started from zero holds exactly its first term, so
    chunks summed apart and added up in chunk order give the numbers of adding them one by one."""
    for key, sums in part.items():
        if key in total:
            total[key] += sums
        else:
            total[key] = sums


def ratio_from_moments(
    m: Moments, confidence: float = 0.95, *, lower: float = -math.inf, upper: float = math.inf
) -> Interval:
    """``stats.intervals.ratio_ci`` from the moments of per-deal (numerator, denominator)."""
    if m.n == 0 or m.mean[1] == 0:
        return Interval.empty()
    r = float(m.mean[0] / m.mean[1])
    # Σ(n − r·d)² about the means; the mean residual is zero because r is the ratio of the means.
    ss = float(m.m2[0, 0] - 2 * r * m.m2[0, 1] + r * r * m.m2[1, 1])
    return ratio_interval(r, ss, m.total(1), m.n, confidence, lower=lower, upper=upper)


@dataclass
class PairedSums:
    """A paired comparison's sums: moments of (a, b) on the shared deals and of each arm alone."""

    pairs: Moments = field(default_factory=lambda: Moments.empty(2))
    a: Moments = field(default_factory=lambda: Moments.empty(1))
    b: Moments = field(default_factory=lambda: Moments.empty(1))
    d_min: float = math.inf
    d_max: float = -math.inf

    def __iadd__(self, other: PairedSums) -> PairedSums:
        self.pairs += other.pairs
        self.a += other.a
        self.b += other.b
        self.d_min, self.d_max = min(self.d_min, other.d_min), max(self.d_max, other.d_max)
        return self

    def add(self, ya: np.ndarray, yb: np.ndarray, a_all: np.ndarray, b_all: np.ndarray) -> None:
        """Per-deal means of the two arms on their shared deals (aligned), and on all their deals."""
        self.pairs += Moments.of(ya, yb)
        self.a += Moments.of(a_all)
        self.b += Moments.of(b_all)
        if len(ya):
            d = np.asarray(ya, dtype=float) - np.asarray(yb, dtype=float)
            self.d_min, self.d_max = min(self.d_min, float(d.min())), max(self.d_max, float(d.max()))

    def result(self, confidence: float = 0.95, baseline: Baseline | None = None) -> PairedResult:
        """``stats.paired.paired_difference`` of the per-deal means added, from these sums."""
        p = self.pairs
        nan = math.nan
        if p.n >= 2:
            mean_d = float(p.mean[0] - p.mean[1])
            var_d = max(float((p.m2[0, 0] + p.m2[1, 1] - 2 * p.m2[0, 1]) / (p.n - 1)), 0.0)
            # mean_ci's truncation: a difference that is never negative has a mean that is not either.
            bounded = self.d_min >= 0
            ci = ratio_interval(
                mean_d,
                var_d * (p.n - 1),
                float(p.n),
                p.n,
                confidence,
                lower=0.0 if bounded else -math.inf,
                upper=1.0 if bounded and self.d_max <= 1 else math.inf,
            )
            if var_d > 0:
                pvalue = 2 * dist.t_sf(abs(mean_d) / math.sqrt(var_d / p.n), p.n - 1)
            else:
                pvalue = 1.0 if mean_d == 0 else 0.0
            eff, v_ind, v_pair = pairing_efficiency(baseline, var_d) if baseline else (nan,) * 3
            sa, sb = p.m2[0, 0], p.m2[1, 1]
            rho = float(p.m2[0, 1] / math.sqrt(sa * sb)) if sa > 0 and sb > 0 else nan
            return PairedResult(ci, pvalue, True, eff, v_ind, v_pair, rho, float(p.mean[0]), float(p.mean[1]))
        mean_a = float(self.a.mean[0]) if self.a.n else math.nan
        mean_b = float(self.b.mean[0]) if self.b.n else math.nan
        if self.a.n < 2 or self.b.n < 2:
            diff = Interval(mean_a - mean_b, nan, nan, 0)
            return PairedResult(diff, nan, False, nan, nan, nan, nan, mean_a, mean_b)
        va, vb = self.a.var(0), self.b.var(0)
        from scipy import stats

        res = stats.ttest_ind_from_stats(
            mean_a, math.sqrt(va), self.a.n, mean_b, math.sqrt(vb), self.b.n, equal_var=False
        )
        est = mean_a - mean_b
        p_value = float(res.pvalue)
        if not math.isfinite(p_value):  # both arms constant
            lo = hi = est
            p_value = 1.0 if est == 0 else 0.0
        else:
            se2a, se2b = va / self.a.n, vb / self.b.n
            dof = (se2a + se2b) ** 2 / (se2a**2 / (self.a.n - 1) + se2b**2 / (self.b.n - 1))
            half = dist.t_ppf(0.5 + confidence / 2, dof) * math.sqrt(se2a + se2b)
            lo, hi = est - half, est + half
        diff = Interval(est, lo, hi, self.a.n + self.b.n)
        return PairedResult(diff, p_value, False, nan, nan, nan, nan, mean_a, mean_b)


def inverted_cdf_index(n: int, q: float) -> int:
    """0-based order statistic of numpy's ``quantile(method="inverted_cdf")`` for ``n`` values."""
    v = n * q - 1
    prev = math.floor(v)
    k = prev if v - prev == 0 else prev + 1
    return min(max(k, 0), n - 1)


def linear_quantile(values: np.ndarray, counts: np.ndarray, q: float) -> float:
    """numpy's default (``linear``) quantile of the sample with ``counts[i]`` copies of ``values[i]``."""
    cum = np.cumsum(counts)
    n = int(cum[-1])
    v = (n - 1) * q
    prev = math.floor(v)
    gamma = v - prev

    def at(k: int) -> float:
        return float(values[np.searchsorted(cum, min(max(k, 0), n - 1), side="right")])

    a, b = at(prev), at(prev + 1)
    return b - (b - a) * (1 - gamma) if gamma >= 0.5 else a + (b - a) * gamma


@dataclass
class Histogram:
    """One group's values: rows per distinct value, with the Woodruff weights, and the deal sums.

    Per distinct value x: ``count`` rows; ``deal_rows`` Σ over those rows of m_d (rows of the same
    group in the row's deal); ``pairs`` Σ of 2·(rank of the row within its deal) − 1. Then for any
    threshold t, with b_d the rows ≤ t in deal d: Σ_d b_d·m_d and Σ_d b_d² are the cumulative sums of
    ``deal_rows`` and ``pairs`` up to t (a deal's b_d² counts the ordered pairs of its rows ≤ t, and
    the row of rank k in its deal is the larger of 2k − 1 of them). ``deals`` and ``deal_rows2``
    (Σ m_d²) complete the sums of the CR1 interval of the empirical CDF at t.
    """

    frame: pl.DataFrame  # value, count, deal_rows, pairs (sorted by value after compact())
    deals: int = 0
    deal_rows2: int = 0

    def __iadd__(self, other: Histogram) -> Histogram:
        self.frame = pl.concat([self.frame, other.frame], how="vertical")
        self.deals += other.deals
        self.deal_rows2 += other.deal_rows2
        if self.frame.height > 4 * max(other.frame.height, 1024):
            self.compact()
        return self

    def compact(self) -> Histogram:
        self.frame = self.frame.group_by("value").agg(pl.all().sum()).sort("value")
        return self

    def row_variance(self) -> float:
        """The variance of the values over rows (ddof 1), as if every row were independent."""
        h = self.compact().frame
        n = int(h["count"].sum()) if h.height else 0
        if n < 2:
            return math.nan
        x, c = h["value"].to_numpy(), h["count"].to_numpy()
        mean = float((x * c).sum() / n)
        return float((c * (x - mean) ** 2).sum() / (n - 1))

    def quantiles(self, qs: tuple[float, ...], confidence: float = 0.95) -> dict[float, Interval]:
        """``stats.intervals.describe``'s quantiles: inverse empirical CDF with Woodruff's interval."""
        h = self.compact().frame
        if h.height == 0:
            return {q: Interval.empty() for q in qs}
        values = h["value"].to_numpy()
        cum = np.cumsum(h["count"].to_numpy().astype(np.int64))
        cum_rows = np.cumsum(h["deal_rows"].to_numpy().astype(np.int64))
        cum_pairs = np.cumsum(h["pairs"].to_numpy().astype(np.int64))
        n, g = int(cum[-1]), self.deals

        def value_at(q: float) -> tuple[float, int]:
            i = int(np.searchsorted(cum, inverted_cdf_index(n, q), side="right"))
            return float(values[i]), i

        out: dict[float, Interval] = {}
        for q in qs:
            est, i = value_at(q)
            if g < 2:
                out[q] = Interval(est, math.nan, math.nan, g)
                continue
            below = int(cum[i])
            # n²·Σ_d(b_d − F·m_d)² with F = below/n, exactly in integers.
            ss = (
                n * n * int(cum_pairs[i]) - 2 * below * n * int(cum_rows[i]) + below * below * self.deal_rows2
            ) / (n * n)
            f = ratio_interval(below / n, ss, float(n), g, confidence)
            half = (f.hi - f.lo) / 2
            lo, _ = value_at(min(max(q - half, 0.0), 1.0))
            hi, _ = value_at(min(max(q + half, 0.0), 1.0))
            out[q] = Interval(est, min(lo, est), max(hi, est), g)
        return out


@dataclass
class Reduced:
    """A chunk's rows reduced per group: one row per (group, deal) and one histogram per group.

    ``keys[i]`` is group i's value of the ``by`` columns; ``per_deal`` has ``_g`` (the group index),
    ``deal``, ``x`` (Σ value), ``w`` (Σ win), ``w2`` (Σ win²), ``m`` (rows) and the sum of each
    column ``reduce_groups`` was asked for, sorted by group and deal; ``games[i]`` counts group i's
    distinct games, ``low``/``high`` its value range.
    """

    keys: list[tuple[Any, ...]]
    per_deal: dict[str, np.ndarray]
    hists: list[Histogram]
    games: np.ndarray
    low: np.ndarray
    high: np.ndarray


def reduce_groups(
    frame: pl.DataFrame, by: list[str], value: str, win: str | None = None, also: tuple[str, ...] = ()
) -> Reduced:
    """Reduce the rows of whole deals per group ``by`` (in counting passes over integer keys; no
    per-row state is kept).

    ``win`` names a column in [0, 1] (a share of first place) summed per deal beside ``value``
    (None: no such column); ``also`` more columns summed per deal (``per_deal`` under their names).
    """
    keys, g = group_codes(frame, by)
    k = len(keys)
    d = frame["deal"].to_numpy().astype(np.int64)
    x = frame[value].cast(pl.Float64).to_numpy()
    w = frame[win].cast(pl.Float64).to_numpy() if win else np.zeros(len(x))
    game = frame["game"].to_numpy().astype(np.int64)
    lowest_deal = int(d.min()) if len(d) else 0
    span = int(d.max()) - lowest_deal + 1 if len(d) else 1
    # Cells are (group, deal), in that order.
    cells, cell, sizes = dense(g * span + (d - lowest_deal))
    cell_group = cells // span
    m = sizes[cell]
    values, xi = value_ranks(x)
    # Each row's rank by value within its cell (ties in any order: their pair weights add up alike).
    rank = np.zeros(len(x), dtype=np.int64)
    if len(cells) < len(x):
        order = np.argsort(cell * len(values) + xi, kind="stable")
        starts = np.r_[0, np.cumsum(sizes)[:-1]]
        rank[order] = np.arange(len(x)) - starts[cell[order]]
    per_deal = {
        "_g": cell_group,
        "deal": cells % span + lowest_deal,
        "x": np.bincount(cell, weights=x, minlength=len(cells)),
        "w": np.bincount(cell, weights=w, minlength=len(cells)),
        "w2": np.bincount(cell, weights=w * w, minlength=len(cells)),
        "m": sizes.astype(float),
        **{
            c: np.bincount(cell, weights=frame[c].cast(pl.Float64).to_numpy(), minlength=len(cells))
            for c in also
        },
    }
    bins, hist_bin, counts = dense(g * len(values) + xi)
    deal_rows = np.bincount(hist_bin, weights=m, minlength=len(bins)).astype(np.int64)
    pairs = np.bincount(hist_bin, weights=2 * rank + 1, minlength=len(bins)).astype(np.int64)
    bin_group = bins // len(values)
    bounds = np.searchsorted(bin_group, np.arange(k + 1))
    deals = np.bincount(cell_group, minlength=k)
    m2 = np.bincount(cell_group, weights=sizes.astype(float) ** 2, minlength=k)
    low = np.full(k, np.inf)
    high = np.full(k, -np.inf)
    np.minimum.at(low, g, x)
    np.maximum.at(high, g, x)
    first_game = int(game.min()) if len(game) else 0
    game_span = int(game.max()) - first_game + 1 if len(game) else 1
    played, _, _ = dense(g * game_span + (game - first_game))
    games = np.bincount(played // game_span, minlength=k)
    hists = []
    for i in range(k):
        at = slice(bounds[i], bounds[i + 1])
        part = pl.DataFrame(
            {
                "value": values[bins[at] % len(values)],
                "count": counts[at].astype(np.int64),
                "deal_rows": deal_rows[at],
                "pairs": pairs[at],
            }
        )
        hists.append(Histogram(part, int(deals[i]), int(m2[i])))
    return Reduced(keys, per_deal, hists, games, low, high)


@dataclass
class FriedmanSums:
    """Rank sums, blocks and ties of a Friedman test, accumulated over chunks of blocks (deals)."""

    rank_sums: np.ndarray
    blocks: int = 0
    ties: float = 0.0
    varies: bool = False

    def add(self, b: np.ndarray) -> None:
        """``b``: one row per block, one column per treatment (variant)."""
        if len(b) == 0:
            return
        t = (b[:, :, None] == b[:, None, :]).sum(axis=2)
        # Mid-ranks within each block (scipy's rankdata): the values below, then the middle of the ties.
        ranks = (b[:, :, None] > b[:, None, :]).sum(axis=2) + (t + 1) / 2
        self.rank_sums = self.rank_sums + ranks.sum(axis=0)
        self.blocks += len(b)
        self.ties += float((t * t - 1).sum())
        self.varies = self.varies or bool(np.any(b != b[:, :1]))

    def __iadd__(self, other: FriedmanSums) -> FriedmanSums:
        """The blocks of another chunk (``add`` on fresh sums), as ``add`` would have counted them."""
        self.rank_sums = self.rank_sums + other.rank_sums
        self.blocks += other.blocks
        self.ties += other.ties
        self.varies = self.varies or other.varies
        return self

    def result(self) -> TestResult:
        """``stats.hypotheses.friedman`` on every block added (scipy's statistic with tie correction)."""
        n, k = self.blocks, len(self.rank_sums)
        if n < 2 or k < 3 or not self.varies:
            return TestResult("Friedman", math.nan, math.nan, math.nan, "kendall_w", None, n)
        c = 1 - self.ties / (k * (k * k - 1) * n)
        stat = (12.0 / (k * n * (k + 1)) * float((self.rank_sums**2).sum()) - 3 * n * (k + 1)) / c
        return TestResult(
            "Friedman",
            stat,
            dist.chi2_sf(stat, k - 1),
            stat / (n * (k - 1)),
            "kendall_w",
            float(k - 1),
            n,
        )


POISSON_BLOCK = 1024  # units per keyed block of bootstrap weights
# Poisson(1) by inverse CDF from a uniform 16-bit draw: P(w = j) is exact to 2^-16.
_POISSON_TABLE = np.searchsorted(
    np.cumsum([math.exp(-1) / math.factorial(j) for j in range(12)]),
    (np.arange(65536) + 0.5) / 65536,
).astype(np.uint8)


def poisson_weights(seed: int, units: np.ndarray, resamples: int) -> np.ndarray:
    """Poisson(1) bootstrap weights, shape (resamples, len(units)), keyed by (seed, unit, replicate).

    A unit is a deal, or a fixed block of consecutive deals (``stats.balance.bootstrap_unit``).
    Units are keyed in blocks of :data:`POISSON_BLOCK` (one generator per block, the draw of a unit
    at its offset in the block), so a unit's weights never depend on which other units a chunk
    holds, how the run was cut into shards or in which order the chunks are read; every variant of
    a deal gets the same weights, which pairs the variants.
    """
    units = np.asarray(units, dtype=np.int64)
    out = np.empty((resamples, len(units)), dtype=np.float64)
    blocks = units // POISSON_BLOCK
    for b in np.unique(blocks, sorted=True):
        at = np.flatnonzero(blocks == b)
        rng = np.random.default_rng([seed, 0x5EED_B007, int(b)])
        draws = rng.integers(0, 65536, size=(resamples, POISSON_BLOCK), dtype=np.uint16)
        offsets = units[at] % POISSON_BLOCK
        whole = len(at) == POISSON_BLOCK and bool(np.all(offsets == np.arange(POISSON_BLOCK)))
        out[:, at] = _POISSON_TABLE[draws if whole else draws[:, offsets]]
    return out
