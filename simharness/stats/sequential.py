"""Sequential testing: a generalised SPRT on paired scores (Fishtest's method), the three-outcome
test built from two of them, and a stopping-aware estimate.

:meth:`SPRT.decide` answers continue / accept H0 / accept H1 for one one-sided test.
:class:`ThreeOutcome` is the test ``[until]`` and ``[sweep.until]`` both run between shard waves on
the per-deal paired scores played so far (one implementation for both): it decides "A better by
≥ mu1", "B better by ≥ mu1" or "no difference as large as mu1" (:class:`Verdict`). After stopping,
:func:`stopped_estimate` gives a median-unbiased estimate and CI that account for the looks taken.
The records of a run's tests (each look, a test's state) are :mod:`simharness.stats.looks`'s.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import polars as pl

from simharness.stats.looks import THREE_OUTCOME, Look, State, UntilRecord
from simharness.stats.paired import paired_scores


class Decision(str, enum.Enum):
    CONTINUE = "continue"
    ACCEPT_H0 = "H0"
    ACCEPT_H1 = "H1"


class Verdict(str, enum.Enum):
    """A three-outcome test's decision on the mean paired difference δ = A − B (in a sweep: the
    variant minus the base). The values are what manifests record."""

    CONTINUE = "continue"
    EFFECT_UP = "effect+"  # accepted δ = +mu1: A better (the variant raises the metric)
    EFFECT_DOWN = "effect-"  # accepted δ = −mu1: B better
    NO_EFFECT = "no effect"  # both sides accepted δ = 0: no difference as large as mu1


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


def _brownian_llr(total: np.ndarray, n: np.ndarray | int, mu0: float, mu1: float, sigma: float) -> np.ndarray:
    """:func:`llr_normal` of running sums ``total`` after ``n`` scores of spread ``sigma``."""
    return (mu1 - mu0) * (2 * total - n * (mu0 + mu1)) / (2 * sigma**2)


def _one_sided_outcome(
    test: SPRT, sums: np.ndarray, ns: np.ndarray, sigma: float
) -> tuple[np.ndarray, np.ndarray]:
    """Where each path of running sums stops (look index) and its class: 0 = accept H0, 1 = the last
    look, 2 = accept H1."""
    lower, upper = test.bounds
    lv = _brownian_llr(sums, ns[None, :], test.mu0, test.mu1, sigma)
    can = ns[None, :] >= test.min_n
    up, dn = (lv >= upper) & can, (lv <= lower) & can
    hit = up | dn
    first = np.where(hit.any(axis=1), hit.argmax(axis=1), len(ns) - 1)
    rows = np.arange(len(sums))
    return np.where(up[rows, first], 2, np.where(dn[rows, first], 0, 1)), first


@dataclass(frozen=True)
class ThreeOutcome:
    """Sobel and Wald's pair of one-sided SPRTs on the mean paired difference δ: ``up`` tests
    δ = 0 against δ = +mu1, ``down`` δ = 0 against δ = −mu1, each at ``alpha_side``.

    A side that decides keeps its decision. The verdict is "A better" when ``up`` accepts its H1,
    "B better" when ``down`` does, "no difference as large as mu1" when both accept H0. Under δ = 0
    the chance of declaring either difference is at most 2 · ``alpha_side``; at δ = ±mu1 the chance
    of missing it is about β. :meth:`of` sets ``alpha_side`` = α/(2m) for m tests run together (a
    sweep's variants; 1 for ``[until]``), so the chance of any wrong "better" is at most α.
    """

    up: SPRT
    down: SPRT

    @classmethod
    def of(cls, mu1: float, alpha: float, beta: float, tests: int = 1) -> ThreeOutcome:
        if not mu1 > 0:
            raise ValueError(f"mu1: expected a positive effect (both signs are tested), got {mu1}")
        side = alpha / (2 * tests)
        return cls(SPRT(0.0, mu1, side, beta), SPRT(0.0, -mu1, side, beta))

    @property
    def mu1(self) -> float:
        return self.up.mu1

    @property
    def min_n(self) -> int:
        return self.up.min_n

    def look(self, scores: np.ndarray, state: State, games: int) -> State:
        """The state after one look at the paired scores so far, after ``games`` games per variant:
        the look appended, each side's decision frozen once made, the verdict (``decision``)."""
        x = np.asarray(scores, dtype=float)
        llr = {side: gsprt_llr(x, t.mu0, t.mu1) if len(x) else 0.0 for side, t in self._sides()}
        sides = {"up": state.up, "down": state.down}
        decision = state.decision
        if len(x) >= self.min_n:
            moved = {side: np.array([_SIDE[sides[side]]]) for side in llr}
            cls = int(self.advance(moved["up"], moved["down"], *(np.array([v]) for v in llr.values()))[0])
            sides = {side: _SIDE_NAME[int(v[0])] for side, v in moved.items()}
            decision = _VERDICT[cls].value
        look = Look(
            games=games,
            n=len(x),
            mean=float(x.mean()) if len(x) else None,
            llr_up=llr["up"],
            llr_down=llr["down"],
            decision=decision,
        )
        return State(decision=decision, games=games, **sides, looks=(*state.looks, look))

    def _sides(self) -> tuple[tuple[str, SPRT], tuple[str, SPRT]]:
        return ("up", self.up), ("down", self.down)

    def advance(
        self, up: np.ndarray, down: np.ndarray, llr_up: np.ndarray, llr_down: np.ndarray
    ) -> np.ndarray:
        """One look of many tests at once, as :meth:`look` takes it for one: each side's state
        (0 running, −1 accepted H0, +1 accepted H1) moves by its LLR, in place (a decided side keeps
        its decision). Returns each test's verdict class: −1 running, 0 B better, 1 no difference,
        2 A better."""
        lower, upper = self.up.bounds
        for side, lv in ((up, llr_up), (down, llr_down)):
            running = side == 0
            side[running & (lv >= upper)] = 1
            side[running & (lv <= lower)] = -1
        none = (up == -1) & (down == -1)
        return np.where(up == 1, 2, np.where(down == 1, 0, np.where(none, 1, -1)))

    def outcome(self, sums: np.ndarray, ns: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
        """Where each path of running sums (Brownian LLRs) stops and its class: 0 = B better,
        1 = no difference or the last look, 2 = A better."""
        paths = len(sums)
        up, down = np.zeros(paths, dtype=int), np.zeros(paths, dtype=int)
        cls = np.ones(paths, dtype=int)
        stop = np.full(paths, len(ns) - 1)
        running = np.ones(paths, dtype=bool)
        for j, n in enumerate(ns):
            if n < self.min_n:
                continue
            llrs = (_brownian_llr(sums[:, j], n, t.mu0, t.mu1, sigma) for _, t in self._sides())
            now = self.advance(up, down, *llrs)
            decided = running & (now >= 0)
            cls[decided], stop[decided] = now[decided], j
            running &= ~decided
            if not running.any():
                break
        return cls, stop


# A side's state in a record (``stats.looks.State``) and in :meth:`ThreeOutcome.advance`; a verdict
# class and its verdict.
_SIDE = {Decision.CONTINUE.value: 0, Decision.ACCEPT_H0.value: -1, Decision.ACCEPT_H1.value: 1}
_SIDE_NAME = {v: k for k, v in _SIDE.items()}
_VERDICT = {-1: Verdict.CONTINUE, 0: Verdict.EFFECT_DOWN, 1: Verdict.NO_EFFECT, 2: Verdict.EFFECT_UP}


def look_scores(players: pl.DataFrame, until: UntilRecord, games: int) -> np.ndarray:
    """The paired scores (per-deal A − B) of ``until``'s comparison over the games below ``games``."""
    rows = players.filter((pl.col("variant") == until.variant) & (pl.col("game") < games))
    return paired_scores(rows, until.a, until.b, until.metric)["d"].to_numpy()


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
    test: SPRT | ThreeOutcome,
    confidence: float = 0.95,
    sims: int = 20000,
    seed: int = 0,
) -> StoppedEstimate:
    """Estimate after a sequential test that looked at the data after ``looks`` (cumulative counts).

    The naive mean is biased when a test stops at a boundary. This models the running sum as a
    Brownian motion with drift μ and the observed σ (the Brownian LLR, in which the bounds are
    linear in the sum), orders outcomes stagewise (an earlier stop at a high boundary is more
    extreme than any later outcome; an earlier stop at a low boundary less extreme; the rest by
    their mean) and solves P_μ(outcome ≥ observed) = ½ for the estimate and α/2, 1−α/2 for the CI,
    by simulation with common random numbers (``sims`` paths, fixed ``seed``). ``test`` is the
    one-sided SPRT (the high boundary is H1's when mu1 > mu0) or the three-outcome test ("A better"
    high, "B better" low). Assumes independent scores and that only the listed looks were taken.
    With one look it is the ordinary z interval.
    """
    x = np.asarray(scores, dtype=float)
    ns = np.asarray([k for k in looks if k > 0], dtype=int)
    if len(ns) == 0 or ns[-1] != len(x):
        raise ValueError("looks: expected increasing cumulative counts ending at the number of scores")
    sigma = float(x.std(ddof=1)) if len(x) > 1 else 0.0
    naive = float(x.mean())
    if sigma == 0:
        return StoppedEstimate(naive, naive, naive, naive, len(ns))

    def outcome(sums: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(class, stage key, mean) per path, ordered class, then key, then mean."""
        if isinstance(test, ThreeOutcome):
            cls, first = test.outcome(sums, ns, sigma)
        else:
            cls, first = _one_sided_outcome(test, sums, ns, sigma)
        key = np.where(cls == 2, -first, np.where(cls == 0, first, 0))
        return cls, key, sums[np.arange(len(sums)), first] / ns[first]

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
        from scipy import optimize  # loaded only here: the report of a run without a test never needs it

        lo, hi = naive - 8 * se, naive + 8 * se
        while p_ge(lo) > target:
            lo -= 8 * se
        while p_ge(hi) < target:
            hi += 8 * se
        return float(optimize.brentq(lambda m: p_ge(m) - target, lo, hi, xtol=se * 1e-4))

    a = (1 - confidence) / 2
    return StoppedEstimate(solve(0.5), solve(a), solve(1 - a), naive, len(ns))


# Metrics of which a lower A − B is the better for A (a rank: 1 is the best).
LOWER_IS_BETTER = frozenset({"rank"})


def _by(metric: str, mu1: float) -> str:
    """``mu1`` in the metric's words: percentage points of a share, else the metric's own unit."""
    return f"{abs(mu1) * 100:g} pp" if metric == "win" else f"{abs(mu1):g}"


def in_words(decision: str, a: str, b: str, metric: str, mu1: float) -> str:
    """A three-outcome decision (a :class:`Verdict` value) on A − B in ``metric``, said in words."""
    by = _by(metric, mu1)
    first, second = (b, a) if metric in LOWER_IS_BETTER else (a, b)
    return {
        Verdict.EFFECT_UP.value: f"{first} better than {second} by ≥ {by}",
        Verdict.EFFECT_DOWN.value: f"{second} better than {first} by ≥ {by}",
        Verdict.NO_EFFECT.value: f"no difference as large as {by} between {a} and {b}",
    }.get(decision, f"undecided: no difference of {by} either way could be told yet")


def _one_sided_words(decision: str, seq: UntilRecord) -> str:
    """The decision of a one-sided record (``[until]`` before the three-outcome test) in words:
    accepting H1 is a difference in mu1's direction; accepting H0 only says "not a difference of
    mu1 in that direction", never that there is none (the other direction was not tested)."""
    mu0, mu1 = seq.mu0, seq.mu1
    up = Verdict.EFFECT_UP if mu1 > mu0 else Verdict.EFFECT_DOWN
    if decision == Decision.ACCEPT_H1.value:
        said = in_words(up.value, seq.a, seq.b, seq.metric, mu1 - mu0)
        return f"{said} (one-sided test of {mu0:g} against {mu1:g})"
    if decision == Decision.ACCEPT_H0.value:
        said = in_words(up.value, seq.a, seq.b, seq.metric, mu1 - mu0)
        return (
            f"not: {said} (one-sided test of {mu0:g} against {mu1:g}, from before [until] was "
            "three-outcome: it cannot tell a difference the other way; see the interval)"
        )
    return in_words(Verdict.CONTINUE.value, seq.a, seq.b, seq.metric, mu1 - mu0)


def until_result(seq: UntilRecord, scores: np.ndarray) -> dict[str, Any]:
    """The run's ``[until]`` test (its manifest record ``seq``) read again from the per-deal paired
    ``scores`` of its comparison: the looks replayed, the decision in words (``verdict``) and the
    stopping-aware estimate at the stop (:func:`stopped_estimate`, for the looks actually taken).

    A record without ``design`` was written by the one-sided SPRT of mu0 against mu1 that ``[until]``
    ran before: it is read with that test, and its words say which direction it could not tell.
    """
    looks = [k for k in seq.looks if k.n > 0]
    test: SPRT | ThreeOutcome
    if seq.design == THREE_OUTCOME:
        test = ThreeOutcome.of(seq.mu1, seq.alpha, seq.beta)
        state = State()
        for k in looks:
            state = test.look(scores[: k.n], state, k.games)
        last: dict[str, Any] = {"n": 0, "mean": None, "decision": Verdict.CONTINUE.value}
        if state.looks:
            last = {k: v for k, v in state.looks[-1].to_json().items() if k != "games"}
        lower, upper = test.up.bounds
        result = {**last, "lower": lower, "upper": upper}
        words = in_words(result["decision"], seq.a, seq.b, seq.metric, seq.mu1)
    else:
        test = SPRT(seq.mu0, seq.mu1, seq.alpha, seq.beta)
        result = test.decide(scores).to_dict()
        words = _one_sided_words(str(result["decision"]), seq)
    ns = [k.n for k in looks]
    est = stopped_estimate(ns, scores, test) if len(scores) >= 2 and ns else None
    keys = ("a", "b", "metric", "variant", "mu0", "mu1", "alpha", "beta", "look_every")
    return {
        **{k: getattr(seq, k) for k in keys},
        "design": seq.design or "one-sided",
        "games": seq.games,
        "looks": [k.to_json() for k in seq.looks],
        "result": result,
        "verdict": words,
        "estimate": est.to_dict() if est is not None else None,
    }
