"""Hypothesis tests and effect sizes for strategy and rule-variant comparisons, plus multiplicity control.

Each result is a small dataclass with the statistic, p-value and an effect size, ready for JSON.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from simharness.stats import dist


def _clean(d: dict[str, object]) -> dict[str, object]:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in d.items()}


@dataclass(frozen=True)
class TestResult:
    """``test`` names the procedure; ``effect`` is its effect size, named by ``effect_name``."""

    test: str
    statistic: float
    pvalue: float
    effect: float
    effect_name: str
    df: float | None = None
    n: int = 0
    design_effect: float | None = None  # Rao-Scott δ̄ the statistic was divided by, where used

    def to_dict(self) -> dict[str, object]:
        return _clean(asdict(self))


@dataclass(frozen=True)
class ClusterCounts:
    """Category counts per cluster (deal), reduced to what Rao-Scott needs: clusters, totals, Σ c cᵀ.

    ``total`` has the categories' ``shape`` (seats, or seats × ranks); ``cross`` is Σ_g c_g c_gᵀ over
    the flattened categories. Sums of these over shards equal those of the whole run (deals never
    straddle shards), so a streaming report adds them up instead of keeping one row per deal.
    """

    clusters: int
    total: np.ndarray
    cross: np.ndarray

    @classmethod
    def of(cls, cells: np.ndarray) -> ClusterCounts:
        """From one row of counts per cluster: shape (clusters, *categories)."""
        cells = np.asarray(cells)
        flat = cells.reshape(len(cells), int(np.prod(cells.shape[1:])))  # also for no clusters
        # A float product is BLAS-fast and exact for integer counts below 2^53.
        flat = flat.astype(float)
        return cls(len(cells), cells.sum(axis=0), flat.T @ flat)

    def __add__(self, other: ClusterCounts) -> ClusterCounts:
        return ClusterCounts(
            self.clusters + other.clusters, self.total + other.total, self.cross + other.cross
        )

    def select(self, index: np.ndarray, shape: tuple[int, ...]) -> ClusterCounts:
        """The counts of the flattened categories ``index`` only (every cluster kept), as ``shape``."""
        index = np.asarray(index)
        return ClusterCounts(
            self.clusters, self.total.reshape(-1)[index].reshape(shape), self.cross[np.ix_(index, index)]
        )


def _rao_scott(counts: ClusterCounts, jac: np.ndarray) -> float:
    """Rao and Scott's mean generalised design effect δ̄ of the contrasts ``jac @ p``.

    ``counts``: the category counts per cluster (deal); p̂ = totals / N. δ̄ is tr(Σ₀⁻¹Σ)/q, where Σ₀
    is the covariance of the q contrasts if every counted row were an independent multinomial draw
    and Σ the cluster-robust (CR1) covariance of the linearised proportions,
    G/(G−1)·Σ_g z_g z_gᵀ/N² with z_g = c_g − n_g·p̂. Σ_g z_g z_gᵀ expands into Σ c cᵀ, Σ n_g c_g
    (its row sums) and Σ n_g² (its total), so per-deal counts are needed only through their sums.
    """
    g = counts.clusters
    n = float(counts.total.sum())
    if g < 2 or n == 0:
        return math.nan
    p = counts.total.reshape(-1) / n
    cross = counts.cross.astype(float)
    s = cross.sum(axis=1)
    zz = cross - np.outer(s, p) - np.outer(p, s) + cross.sum() * np.outer(p, p)
    clustered = jac @ (g / (g - 1) * zz / n**2) @ jac.T
    iid = jac @ ((np.diag(p) - np.outer(p, p)) / n) @ jac.T
    return float(np.trace(np.linalg.pinv(iid) @ clustered)) / len(jac)


def _corrected(
    name: str, pearson: float, deff: float, df: int, effect: float, effect_name: str, n: int
) -> TestResult:
    # First-order Rao-Scott: X²/δ̄ is referred to χ²(df). Without a usable δ̄ there is no valid test.
    if not (math.isfinite(deff) and deff > 0):
        return TestResult(name, math.nan, math.nan, effect, effect_name, float(df), n, deff)
    stat = pearson / deff
    return TestResult(name, stat, dist.chi2_sf(stat, df), effect, effect_name, float(df), n, deff)


def seat_advantage_test(wins_by_deal: np.ndarray | ClusterCounts) -> TestResult:
    """Rao-Scott corrected χ² of winner-seat counts against a uniform split (df = seats − 1).

    ``wins_by_deal``: one row per deal, one column per seat (wins of that seat in all the deal's games),
    or those rows reduced to :class:`ClusterCounts`. Pearson's X² assumes every win independent; under
    duplicate play a deal's rotations share their luck (each seat keeps its dice), so a deal often gives
    one seat all its wins and X² is inflated. Dividing by the mean design effect δ̄ (:func:`_rao_scott`,
    clustered by deal) restores the χ² reference; with one game per deal δ̄ ≈ 1. Assumes independent
    deals (tens or more). The effect size is Cohen's w = sqrt(X²/N) of the uncorrected X²; 0.1 is "small".
    """
    counts = (
        wins_by_deal
        if isinstance(wins_by_deal, ClusterCounts)
        else ClusterCounts.of(np.atleast_2d(np.asarray(wins_by_deal)))
    )
    wins = counts.total.astype(float)
    n = int(wins.sum())
    name = "Rao-Scott chi2 seat vs uniform"
    k = len(wins)
    if n == 0 or k < 2:
        return TestResult(name, math.nan, math.nan, math.nan, "cohen_w", None, n)
    pearson = dist.pearson(wins, wins.mean())
    deff = _rao_scott(counts, np.eye(k)[:-1])
    return _corrected(name, pearson, deff, k - 1, math.sqrt(pearson / n), "cohen_w", n)


def contingency_test(counts_by_deal: np.ndarray | ClusterCounts) -> TestResult:
    """Rao-Scott corrected χ² test of independence of an r×c table (e.g. seat × final rank), Cramér's V.

    ``counts_by_deal``: shape (deals, r, c), or :class:`ClusterCounts` of r × c categories. Rows or
    columns that are entirely zero are dropped. Pearson's X² assumes independent rows of the underlying
    data, which a seat × rank table never has (a game gives each seat a different rank) and duplicate
    play breaks further; X² is divided by the mean design effect of the interaction contrasts
    p_ij − p_i·p_j (i < r, j < c), clustered by deal. Assumes independent deals and expected counts of
    about 5 or more per cell. V (from the uncorrected X²) lies in [0, 1].
    """
    counts = counts_by_deal if isinstance(counts_by_deal, ClusterCounts) else ClusterCounts.of(counts_by_deal)
    t = counts.total.astype(float)
    keep_r, keep_c = t.sum(axis=1) > 0, t.sum(axis=0) > 0
    index = np.arange(t.size).reshape(t.shape)[keep_r][:, keep_c]
    t = t[keep_r][:, keep_c]
    counts = counts.select(index.reshape(-1), t.shape)
    n = int(t.sum())
    name = "Rao-Scott chi2 contingency"
    r, c = t.shape
    if r < 2 or c < 2:
        return TestResult(name, math.nan, math.nan, math.nan, "cramers_v", None, n)
    pearson = dist.pearson(t, np.outer(t.sum(axis=1), t.sum(axis=0)) / t.sum())
    v = math.sqrt(pearson / n / min(r - 1, c - 1))
    p = t / n
    row, col = p.sum(axis=1), p.sum(axis=0)
    jac = np.zeros(((r - 1) * (c - 1), r, c))
    for i in range(r - 1):
        for j in range(c - 1):
            q = i * (c - 1) + j
            jac[q, i, :] -= col[j]  # d(p_i. p_.j)/dp_il = p_.j
            jac[q, :, j] -= row[i]
            jac[q, i, j] += 1
    deff = _rao_scott(counts, jac.reshape(len(jac), r * c))
    return _corrected(name, pearson, deff, (r - 1) * (c - 1), float(v), "cramers_v", n)


# Replicates a tail share needs beyond the null value before it is trusted: with fewer, its
# relative Monte Carlo error exceeds 1/√10 and a count of 0 would read as the floor 1/resamples.
RESOLVED_TAIL = 10


def resolved_pvalue(beyond: int, resamples: int, z: float, *, plus_one: bool = False) -> float:
    """Two-sided p-value of a resampling test whose smaller tail holds ``beyond`` of ``resamples``
    replicates, with resolution where the count has none.

    While at least :data:`RESOLVED_TAIL` replicates lie beyond the null value, the p-value is their
    share, doubled (``plus_one``: (beyond + 1)/(resamples + 1), a permutation test's count that
    includes the observed pattern). Below that the share is mostly noise and reads a floor at 0 (a
    bootstrap of 1000 replicates then gives every clear effect p = 0.001, and Holm over 17 tests
    0.017), so the p-value is the normal tail 2Φ(−|z|) of ``z``, the estimate over the standard
    deviation of the same resampling distribution, capped at the share that
    :data:`RESOLVED_TAIL` replicates would give (the count says the tail is smaller than that).
    """

    def share(k: int) -> float:
        return 2 * (k + 1) / (resamples + 1) if plus_one else 2 * k / resamples

    if beyond >= RESOLVED_TAIL:
        return min(1.0, share(beyond))
    return min(share(RESOLVED_TAIL), 2 * dist.norm_sf(abs(z)))


def paired_permutation_test(d: np.ndarray, n_resamples: int = 9999, seed: int = 0) -> TestResult:
    """Sign-flip permutation test that the mean paired difference ``d`` is zero (two-sided).

    Assumes the pairs are independent and, under H0, each difference is symmetric about zero
    (exchangeable within its pair), which holds when the two arms played the same deal. Exact
    when 2^n ≤ ``n_resamples``; otherwise from random patterns, with the normal tail of the exact
    sign-flip distribution beyond their resolution (:func:`resolved_pvalue`). The effect size is the
    standardised mean difference mean/sd.
    """
    d = np.asarray(d, dtype=float)
    n = len(d)
    sd = d.std(ddof=1) if n > 1 else math.nan
    if n < 2 or sd == 0:
        return TestResult(
            "paired sign-flip permutation",
            float(d.mean()) if n else math.nan,
            1.0 if n else math.nan,
            0.0 if n else math.nan,
            "d_z",
            None,
            n,
        )
    observed = float(d.mean())
    # The sign-flip distribution of the mean has mean 0 and variance Σd²/n² exactly: the normal
    # tail beyond the resolution of the random patterns.
    z = float(d.sum() / math.sqrt(float(d @ d)))
    # Ties within floating-point error of the observed mean count as at least as extreme (scipy's rule).
    tol = abs(observed) * 1e-14
    if 2**n <= n_resamples:
        # Exact: every one of the 2^n sign patterns, the identity included.
        signs = ((np.arange(2**n)[:, None] >> np.arange(n)) & 1) * 2 - 1
        null = signs @ d / n
        greater, less = float(np.mean(null >= observed - tol)), float(np.mean(null <= observed + tol))
        pvalue = min(1.0, 2 * min(greater, less))
    else:
        # Random sign patterns in batches of about 2 million signs: one matrix product per batch
        # (scipy.stats.permutation_test calls the statistic per batch too, at ~50x the cost).
        rng = np.random.default_rng(seed)
        ge = le = 0
        batch = max(1, 2_000_000 // n)
        for start in range(0, n_resamples, batch):
            k = min(batch, n_resamples - start)
            null = (rng.integers(0, 2, size=(k, n), dtype=np.int8) * 2 - 1) @ d / n
            ge += int(np.count_nonzero(null >= observed - tol))
            le += int(np.count_nonzero(null <= observed + tol))
        pvalue = resolved_pvalue(min(ge, le), n_resamples, z, plus_one=True)
    return TestResult(
        "paired sign-flip permutation",
        observed,
        pvalue,
        float(d.mean() / sd),
        "d_z",
        None,
        n,
    )


def mann_whitney(x: np.ndarray, y: np.ndarray) -> TestResult:
    """Mann-Whitney U test (two-sided) of a shift between two independent samples.

    Assumes independent observations in both groups. The effect size is the common-language effect
    size CLES = U/(n₁n₂) = P(X > Y) + ½P(X = Y); the rank-biserial correlation is 2·CLES − 1.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(x) == 0 or len(y) == 0:
        return TestResult("Mann-Whitney U", math.nan, math.nan, math.nan, "cles", None, len(x) + len(y))
    from scipy import stats

    res = stats.mannwhitneyu(x, y, alternative="two-sided")
    return TestResult(
        "Mann-Whitney U",
        float(res.statistic),
        float(res.pvalue),
        float(res.statistic) / (len(x) * len(y)),
        "cles",
        None,
        len(x) + len(y),
    )


def kruskal_wallis(*groups: np.ndarray) -> TestResult:
    """Kruskal-Wallis H test that k independent samples share one distribution.

    Assumes independent observations. Effect size ε² = H/(N − 1) (Tomczak & Tomczak 2014).
    """
    gs = [np.asarray(g, dtype=float) for g in groups if len(g)]
    n = sum(len(g) for g in gs)
    if len(gs) < 2 or np.ptp(np.concatenate(gs)) == 0:
        return TestResult("Kruskal-Wallis H", math.nan, math.nan, math.nan, "epsilon2", None, n)
    from scipy import stats

    res = stats.kruskal(*gs)
    return TestResult(
        "Kruskal-Wallis H",
        float(res.statistic),
        float(res.pvalue),
        float(res.statistic) / (n - 1),
        "epsilon2",
        float(len(gs) - 1),
        n,
    )


def friedman(blocks: np.ndarray) -> TestResult:
    """Friedman test that k treatments measured on the same blocks (rows) share one distribution.

    For k ≥ 3 rule variants played on the same deals (blocks = deals, columns = variants). Assumes
    independent blocks; ties within a block get mid-ranks (scipy corrects the statistic for them).
    Effect size: Kendall's W = χ²/(n(k − 1)), 0 (no agreement) to 1.
    """
    b = np.asarray(blocks, dtype=float)
    n, k = b.shape if b.ndim == 2 else (0, 0)
    if n < 2 or k < 3 or np.all(b == b[:, :1]):
        return TestResult("Friedman", math.nan, math.nan, math.nan, "kendall_w", None, n)
    from scipy import stats

    res = stats.friedmanchisquare(*b.T)
    return TestResult(
        "Friedman",
        float(res.statistic),
        float(res.pvalue),
        float(res.statistic) / (n * (k - 1)),
        "kendall_w",
        float(k - 1),
        n,
    )


def mcnemar(b: int, c: int) -> TestResult:
    """Exact McNemar test for paired binary outcomes from the discordant counts ``b`` and ``c``.

    ``b``: pairs where only the first arm had the event, ``c``: only the second. Assumes independent
    pairs; it is a binomial test of b against b + c at ½. Effect: the discordant odds ratio b/c.
    """
    m = b + c
    if m == 0:
        return TestResult("McNemar exact", 0.0, 1.0, math.nan, "odds_ratio", None, 0)
    from scipy import stats

    p = stats.binomtest(b, m, 0.5).pvalue
    return TestResult("McNemar exact", float(b), float(p), b / c if c else math.inf, "odds_ratio", None, m)


def holm(pvalues: np.ndarray) -> np.ndarray:
    """Holm step-down adjusted p-values (family-wise error control, any dependence).

    Sort ascending, multiply the k-th smallest (0-based) by m − k, take the running maximum and cap
    at 1. NaNs stay NaN and do not count towards m.
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full_like(p, np.nan)
    ok = np.isfinite(p)
    q = p[ok]
    m = len(q)
    if m == 0:
        return out
    order = np.argsort(q)
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * q[order]))
    res = np.empty(m)
    res[order] = adj
    out[ok] = res
    return out


def benjamini_hochberg(pvalues: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (false discovery rate), as scipy's ``false_discovery_control``.

    Assumes independent or positively dependent tests. NaNs stay NaN and do not count towards m.
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full_like(p, np.nan)
    ok = np.isfinite(p)
    q = p[ok]
    m = len(q)
    if m > 1:
        # scipy's false_discovery_control: the k-th smallest times m/k, then the running minimum
        # from the largest down, capped at 1.
        order = np.argsort(q)
        adj = np.minimum.accumulate((q[order] * (m / np.arange(1, m + 1, dtype=float)))[::-1])[::-1]
        q = np.empty(m)
        q[order] = np.clip(adj, 0.0, 1.0)
    out[ok] = q
    return out
