"""Sequential testing: a generalised SPRT on paired scores (Fishtest's method) and a stopping-aware estimate.

The runner calls :meth:`SPRT.decide` between shard waves with the per-deal paired scores played so
far; it answers continue / accept H0 / accept H1. After stopping, :func:`stopped_estimate` gives a
median-unbiased estimate and CI that account for the looks that were taken.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import polars as pl
from scipy import optimize

from simharness.stats.paired import paired_scores


class Decision(str, enum.Enum):
    CONTINUE = "continue"
    ACCEPT_H0 = "H0"
    ACCEPT_H1 = "H1"


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's LLR bounds: accept H0 below ln(β/(1−α)), accept H1 above ln((1−β)/α)."""
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not 0 < v < 0.5:
            raise ValueError(f"{name}: expected an error rate in (0, 0.5), got {v}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


# The LLR of a sample without spread (e.g. identical deterministic strategies under duplicate play,
# whose paired scores are all exactly 0): the likelihood of the farther hypothesis is zero, so the
# true LLR is infinite; a large finite value keeps it printable and JSON-safe.
DEGENERATE_LLR = 1e9


def llr_normal(x: np.ndarray, mu0: float, mu1: float) -> float:
    """Brownian approximation of the LLR of mean ``mu1`` vs ``mu0``: N(μ1−μ0)(2x̄−μ0−μ1)/(2σ̂²).

    Assumes independent scores with finite variance; ±``DEGENERATE_LLR`` when they have no spread.
    """
    x = np.asarray(x, dtype=float)
    if len(x) == 0:
        return 0.0
    side = (mu1 - mu0) * (2 * x.mean() - mu0 - mu1)
    var = x.var()
    if var == 0:
        return float(np.sign(side) * DEGENERATE_LLR)
    return float(len(x) * side / (2 * var))


def _lagrange(values: np.ndarray, p: np.ndarray, s: np.ndarray) -> np.ndarray:
    """λ per row solving Σ p_i(a_i − s)/(1 + λ(a_i − s)) = 0 (vectorised bisection: the sum falls in λ)."""
    d = values[None, :] - s[:, None]
    present = p > 0
    dmax = np.where(present, d, -np.inf).max(axis=1)
    dmin = np.where(present, d, np.inf).min(axis=1)
    lo, hi = -1 / dmax, -1 / dmin
    width = hi - lo
    lo, hi = lo + width * 1e-12, hi - width * 1e-12
    for _ in range(64):  # halves the bracket to 2^-64 of its width: beyond double precision
        mid = (lo + hi) / 2
        f = np.sum(np.where(present, p * d / (1 + mid[:, None] * d), 0.0), axis=1)
        lo, hi = np.where(f > 0, mid, lo), np.where(f > 0, hi, mid)
    return (lo + hi) / 2


def gsprt_llr_counts(
    values: np.ndarray, counts: np.ndarray, mu0: float, mu1: float, regularize: float = 0.0
) -> np.ndarray:
    """Generalised SPRT log-likelihood ratio on a finite support (Fishtest ``LLRcalc.LLR``).

    ``counts`` has one row per test (shape (R, K) or (K,)) over the support ``values`` (K,). For
    each hypothesis the distribution of maximum likelihood whose mean is μ_j is
    p_i = p̂_i/(1 + λ_j(a_i − μ_j)); LLR = N·Σ p̂_i ln(p_i^(1)/p_i^(0)). ``regularize`` is added to
    every count first (Fishtest uses 1e-3 for the pentanomial support so that empty cells cannot make
    the LLR infinite). Where a μ_j lies outside the observed range of scores the constrained MLE does
    not exist; those rows fall back to :func:`llr_normal`'s formula. Assumes independent scores.
    """
    values = np.asarray(values, dtype=float)
    c = np.atleast_2d(np.asarray(counts, dtype=float)) + regularize
    n = c.sum(axis=1)
    p = c / n[:, None]
    present = p > 0
    amin = np.where(present, values[None, :], np.inf).min(axis=1)
    amax = np.where(present, values[None, :], -np.inf).max(axis=1)
    ok = (amin < min(mu0, mu1)) & (max(mu0, mu1) < amax)
    llr = np.zeros(len(c))
    if ok.any():
        pk = p[ok]
        out = []
        for mu in (mu0, mu1):
            s = np.full(len(pk), mu)
            lam = _lagrange(values, pk, s)
            d = values[None, :] - s[:, None]
            out.append(np.log1p(lam[:, None] * d))
        terms = np.where(pk > 0, pk * (out[0] - out[1]), 0.0)
        llr[ok] = n[ok] * terms.sum(axis=1)
    if (~ok).any():
        mean = (p * values).sum(axis=1)
        var = np.maximum((p * values**2).sum(axis=1) - mean**2, 0.0)
        side = (mu1 - mu0) * (2 * mean - mu0 - mu1)
        with np.errstate(divide="ignore", invalid="ignore"):
            # No spread: every score is the same, certain evidence for the nearer hypothesis.
            spread = var > 1e-12 * (1 + mean**2)
            approx = np.where(spread, n * side / (2 * var), np.sign(side) * DEGENERATE_LLR)
        llr[~ok] = approx[~ok]
    return llr


def gsprt_llr(x: np.ndarray, mu0: float, mu1: float) -> float:
    """:func:`gsprt_llr_counts` on raw scores, with the observed values as the support."""
    values, counts = np.unique(np.asarray(x, dtype=float), return_counts=True)
    if len(values) == 0:
        return 0.0
    return float(gsprt_llr_counts(values, counts, mu0, mu1)[0])


@dataclass(frozen=True)
class SPRTResult:
    decision: Decision
    llr: float
    lower: float
    upper: float
    n: int
    mean: float

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["decision"] = self.decision.value
        return d


@dataclass(frozen=True)
class SPRT:
    """A GSPRT of mean paired score ``mu0`` (H0) against ``mu1`` (H1) with error rates alpha and beta.

    ``min_n``: no decision before this many scores (the empirical likelihood needs some spread, and
    early looks with a handful of deals are mostly noise). ``max_n``: the budget; reaching it without a
    decision ends the test with CONTINUE in the result so the caller knows it was truncated.
    """

    mu0: float
    mu1: float
    alpha: float = 0.05
    beta: float = 0.05
    min_n: int = 20
    max_n: int | None = None

    def __post_init__(self) -> None:
        if self.mu0 == self.mu1:
            raise ValueError("mu1: expected a value different from mu0")
        sprt_bounds(self.alpha, self.beta)

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    def decide(self, scores: np.ndarray) -> SPRTResult:
        """Continue, accept H0 or accept H1 given every paired score so far (one per deal)."""
        x = np.asarray(scores, dtype=float)
        lower, upper = self.bounds
        llr = gsprt_llr(x, self.mu0, self.mu1) if len(x) else 0.0
        decision = Decision.CONTINUE
        if len(x) >= self.min_n:
            if llr >= upper:
                decision = Decision.ACCEPT_H1
            elif llr <= lower:
                decision = Decision.ACCEPT_H0
        return SPRTResult(decision, llr, lower, upper, len(x), float(x.mean()) if len(x) else math.nan)

    def done(self, result: SPRTResult) -> bool:
        """Whether to stop adding games: a decision was reached or the budget is spent."""
        return result.decision is not Decision.CONTINUE or (self.max_n is not None and result.n >= self.max_n)


def look_scores(players: pl.DataFrame, until: Mapping[str, Any], games: int) -> np.ndarray:
    """The paired scores (per-deal A − B) of ``until``'s comparison over the games below ``games``."""
    rows = players.filter((pl.col("variant") == until["variant"]) & (pl.col("game") < games))
    return paired_scores(rows, str(until["a"]), str(until["b"]), str(until["metric"]))["d"].to_numpy()


def sprt_look(players: pl.DataFrame, until: Mapping[str, Any], games: int) -> tuple[SPRT, SPRTResult]:
    """One look of a run's sequential test: the data so far → continue / accept H0 / accept H1.

    ``until`` is the experiment's ``[until]`` section (``a``, ``b``, ``metric``, ``variant``, ``mu0``,
    ``mu1``, ``alpha``, ``beta``); ``games`` the games per variant played so far: only games below it
    are used, so the decision at a look depends on nothing but the look (a resumed run replays the
    same decisions). The score is the per-deal paired difference A − B (see ``paired_scores``).
    """
    test = SPRT(float(until["mu0"]), float(until["mu1"]), float(until["alpha"]), float(until["beta"]))
    return test, test.decide(look_scores(players, until, games))


@dataclass(frozen=True)
class StoppedEstimate:
    """Median-unbiased estimate of the mean paired score and its CI under the stagewise ordering."""

    estimate: float
    lo: float
    hi: float
    naive: float
    looks: int

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)


def stopped_estimate(
    looks: Sequence[int],
    scores: np.ndarray,
    test: SPRT,
    confidence: float = 0.95,
    sims: int = 20000,
    seed: int = 0,
) -> StoppedEstimate:
    """Estimate after a sequential test that looked at the data after ``looks`` (cumulative counts).

    The naive mean is biased when a test stops at a boundary. This models the running sum as a
    Brownian motion with drift μ and the observed σ (the Brownian LLR, in which the bounds are
    linear in the sum), orders outcomes stagewise (an earlier crossing of the upper bound is more
    extreme than any later outcome; an earlier lower crossing less extreme; the last look by its
    mean) and solves P_μ(outcome ≥ observed) = ½ for the estimate and α/2, 1−α/2 for the CI, by
    simulation with common random numbers (``sims`` paths, fixed ``seed``). Assumes independent
    scores and that only the listed looks were taken. With one look it is the ordinary z interval.
    """
    x = np.asarray(scores, dtype=float)
    ns = np.asarray([k for k in looks if k > 0], dtype=int)
    if len(ns) == 0 or ns[-1] != len(x):
        raise ValueError("looks: expected increasing cumulative counts ending at the number of scores")
    sigma = float(x.std(ddof=1)) if len(x) > 1 else 0.0
    naive = float(x.mean())
    if sigma == 0:
        return StoppedEstimate(naive, naive, naive, naive, len(ns))
    lower, upper = test.bounds
    k_scale = (test.mu1 - test.mu0) / (2 * sigma**2)

    def llr(total: np.ndarray, n: np.ndarray) -> np.ndarray:
        return k_scale * (2 * total - n * (test.mu0 + test.mu1))

    def outcome(sums: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(class, stage key, mean) per path: class 0 = lower stop, 1 = last look, 2 = upper stop."""
        lv = llr(sums, ns[None, :])
        can = ns[None, :] >= test.min_n
        up = (lv >= upper) & can
        dn = (lv <= lower) & can
        hit = up | dn
        first = np.where(hit.any(axis=1), hit.argmax(axis=1), len(ns) - 1)
        rows = np.arange(len(sums))
        cls = np.where(up[rows, first], 2, np.where(dn[rows, first], 0, 1))
        key = np.where(cls == 2, -first, np.where(cls == 0, first, 0))
        return cls, key, sums[rows, first] / ns[first]

    obs_cls, obs_key, obs_mean = (a[0] for a in outcome(np.cumsum(x)[ns - 1][None, :]))
    inc = np.diff(np.concatenate([[0], ns]))
    z = np.random.default_rng(seed).standard_normal((sims, len(ns)))
    noise = np.cumsum(z * np.sqrt(inc)[None, :] * sigma, axis=1)

    def p_ge(mu: float) -> float:
        cls, key, mean = outcome(mu * ns[None, :] + noise)
        ge = (cls > obs_cls) | (
            (cls == obs_cls) & ((key > obs_key) | ((key == obs_key) & (mean >= obs_mean)))
        )
        return float(ge.mean())

    se = sigma / math.sqrt(len(x))

    def solve(target: float) -> float:
        lo, hi = naive - 8 * se, naive + 8 * se
        while p_ge(lo) > target:
            lo -= 8 * se
        while p_ge(hi) < target:
            hi += 8 * se
        return float(optimize.brentq(lambda m: p_ge(m) - target, lo, hi, xtol=se * 1e-4))

    a = (1 - confidence) / 2
    return StoppedEstimate(solve(0.5), solve(a), solve(1 - a), naive, len(ns))
