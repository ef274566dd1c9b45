"""Hypothesis tests and effect sizes for strategy and rule-variant comparisons, plus multiplicity control.

Each result is a small dataclass with the statistic, p-value and an effect size, ready for JSON.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats


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

    def to_dict(self) -> dict[str, object]:
        return _clean(asdict(self))


def seat_advantage_test(wins_by_seat: np.ndarray) -> TestResult:
    """Chi-squared goodness of fit of winner-seat counts against a uniform split (df = seats − 1).

    Assumes each game has exactly one winner counted once and games are independent (with duplicate
    play, deals are shared but every seat gets every lineup slot, so seat effects stay identifiable;
    the p-value is then slightly conservative because rotations of one deal are negatively
    correlated). The effect size is Cohen's w = sqrt(χ²/N); 0.1 is "small".
    """
    wins = np.asarray(wins_by_seat, dtype=float)
    n = wins.sum()
    if n == 0 or len(wins) < 2:
        return TestResult("chi2 seat vs uniform", math.nan, math.nan, math.nan, "cohen_w", None, int(n))
    res = stats.chisquare(wins)
    return TestResult(
        "chi2 seat vs uniform",
        float(res.statistic),
        float(res.pvalue),
        math.sqrt(float(res.statistic) / n),
        "cohen_w",
        float(len(wins) - 1),
        int(n),
    )


def contingency_test(table: np.ndarray) -> TestResult:
    """Chi-squared test of independence of an r×c count table (e.g. seat × final rank) with Cramér's V.

    Assumes independent rows of the underlying data and expected counts of about 5 or more per cell
    (rows or columns that are entirely zero are dropped first). V lies in [0, 1].
    """
    t = np.asarray(table, dtype=float)
    t = t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0]
    n = int(t.sum())
    if t.shape[0] < 2 or t.shape[1] < 2:
        return TestResult("chi2 contingency", math.nan, math.nan, math.nan, "cramers_v", None, n)
    res = stats.chi2_contingency(t, correction=False)
    v = stats.contingency.association(np.rint(t).astype(np.int64), method="cramer", correction=False)
    return TestResult(
        "chi2 contingency", float(res.statistic), float(res.pvalue), float(v), "cramers_v", float(res.dof), n
    )


def paired_permutation_test(d: np.ndarray, n_resamples: int = 9999, seed: int = 0) -> TestResult:
    """Sign-flip permutation test that the mean paired difference ``d`` is zero (two-sided).

    Assumes the pairs are independent and, under H0, each difference is symmetric about zero
    (exchangeable within its pair), which holds when the two arms played the same deal. Exact
    when 2^n ≤ ``n_resamples``. The effect size is the standardised mean difference mean/sd.
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
    res = stats.permutation_test(
        (d,),
        np.mean,
        permutation_type="samples",
        n_resamples=n_resamples,
        vectorized=True,
        batch=max(1, 2_000_000 // n),
        rng=np.random.default_rng(seed),
    )
    return TestResult(
        "paired sign-flip permutation",
        float(res.statistic),
        float(res.pvalue),
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
    """Benjamini-Hochberg adjusted p-values (false discovery rate; ``scipy.stats.false_discovery_control``).

    Assumes independent or positively dependent tests. NaNs stay NaN and do not count towards m.
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full_like(p, np.nan)
    ok = np.isfinite(p)
    if ok.any():
        out[ok] = stats.false_discovery_control(p[ok], method="bh")
    return out
