"""Sample-size planning for win-rate comparisons (normal approximation, two-sided tests).

Formulas (statistics background §3.2), with z_a = z_{1-alpha/2} and z_b = z_{power}:
  one sample vs a known baseline p0:  n = [(z_a·√(p0q0) + z_b·√(p1q1))/δ]²
  two independent arms:               n per arm = [(z_a·√(2p̄q̄) + z_b·√(p1q1 + p2q2))/δ]²
  paired (shared deals):              n games = (z_a + z_b)²·(p1q1 + p2q2)/(E·δ²)
where E is the pairing efficiency in games measured by ``simharness compare``
(``stats.paired.pairing_efficiency``: the per-game variance of a − b in independent play with one row
of each arm per game, Var a + Var b, over the per-game variance of the paired design, games per deal ×
Var of the per-deal difference). With E = 1 the paired answer is the two-arm answer up to the
pooled-variance term. Paired games are played in deals of ``games_per_deal`` games (the rotations of a
duplicate deal), so deals = ⌈games / games_per_deal⌉. All assume independent games (or deals).

The SPRT rows are one-sided tests of p0 against p1 at α/2 (and β = 1 − power): the error a two-sided
level-α fixed design makes in the direction of the effect, so the two are compared like with like.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from simharness.stats import dist


def _z(alpha: float, power: float) -> tuple[float, float]:
    if not 0 < alpha < 1:
        raise ValueError(f"alpha: expected a probability in (0, 1), got {alpha}")
    if not 0 < power < 1:
        raise ValueError(f"power: expected a probability in (0, 1), got {power}")
    return dist.norm_ppf(1 - alpha / 2), dist.norm_ppf(power)


def _check(p0: float, p1: float) -> None:
    for name, p in (("baseline", p0), ("baseline + effect", p1)):
        if not 0 < p < 1:
            raise ValueError(f"{name}: expected a rate strictly between 0 and 1, got {p}")
    if p0 == p1:
        raise ValueError("effect: expected a non-zero difference")


def n_one_sample(p0: float, p1: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games to detect a true rate ``p1`` against a known rate ``p0``."""
    _check(p0, p1)
    za, zb = _z(alpha, power)
    return math.ceil(((za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / (p1 - p0)) ** 2)


def n_two_arms(p1: float, p2: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games per arm to tell two independently played rates apart."""
    _check(p1, p2)
    za, zb = _z(alpha, power)
    pbar = (p1 + p2) / 2
    v = p1 * (1 - p1) + p2 * (1 - p2)
    return math.ceil(((za * math.sqrt(2 * pbar * (1 - pbar)) + zb * math.sqrt(v)) / (p2 - p1)) ** 2)


def n_paired(p1: float, p2: float, efficiency: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games needed (in all, both arms seated in every game) at pairing efficiency ``efficiency``."""
    _check(p1, p2)
    if not efficiency > 0:
        raise ValueError(f"paired-efficiency: expected a positive number, got {efficiency}")
    za, zb = _z(alpha, power)
    v = p1 * (1 - p1) + p2 * (1 - p2)
    return math.ceil((za + zb) ** 2 * v / (efficiency * (p2 - p1) ** 2))


def min_detectable(se: float, alpha: float = 0.05, power: float = 0.8) -> float:
    """The smallest true difference a two-sided level-``alpha`` test detects with probability ``power``,
    for an estimate with standard error ``se``: (z_{1−α/2} + z_{power})·se (the normal approximation
    above, solved for δ)."""
    za, zb = _z(alpha, power)
    return (za + zb) * se


def sprt_expected_games(p0: float, p1: float, alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's approximate expected games of a Bernoulli SPRT of p0 vs p1, at H0 and at H1.

    E[N | H1] = ((1−β)·ln B + β·ln A)/KL(p1‖p0) and E[N | H0] = (α·ln B + (1−α)·ln A)/(−KL(p0‖p1)),
    with A = β/(1−α), B = (1−β)/α; ignores overshoot of the boundaries.
    """
    _check(p0, p1)
    la, lb = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)

    def kl(p: float, q: float) -> float:
        return p * math.log(p / q) + (1 - p) * math.log((1 - p) / (1 - q))

    return (alpha * lb + (1 - alpha) * la) / -kl(p0, p1), ((1 - beta) * lb + beta * la) / kl(p1, p0)


@dataclass(frozen=True)
class Plan:
    baseline: float
    effect: float
    alpha: float
    power: float
    one_sample: int
    two_arms_per_arm: int
    paired_efficiency: float | None
    games_per_deal: int
    paired_games: int | None
    paired_deals: int | None
    sprt_alpha: float
    sprt_expected_h0: float
    sprt_expected_h1: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def plan(
    effect: float,
    baseline: float,
    alpha: float = 0.05,
    power: float = 0.8,
    paired_efficiency: float | None = None,
    games_per_deal: int = 1,
) -> Plan:
    """Every sample size for detecting ``baseline`` → ``baseline + effect`` (games, and deals when paired)."""
    if games_per_deal < 1:
        raise ValueError(f"games-per-deal: expected a positive integer, got {games_per_deal}")
    p1 = baseline + effect
    h0, h1 = sprt_expected_games(baseline, p1, alpha / 2, 1 - power)
    games = n_paired(baseline, p1, paired_efficiency, alpha, power) if paired_efficiency is not None else None
    return Plan(
        baseline,
        effect,
        alpha,
        power,
        n_one_sample(baseline, p1, alpha, power),
        n_two_arms(baseline, p1, alpha, power),
        paired_efficiency,
        games_per_deal,
        games,
        -(-games // games_per_deal) if games is not None else None,
        alpha / 2,
        h0,
        h1,
    )


@dataclass(frozen=True)
class RunPlan:
    """Sample sizes for a paired comparison A − B whose spread was measured in a run (``plan --from``).

    ``var_deal``: the variance of the per-deal difference (one deal = ``games_per_deal`` games);
    ``var_independent``: Var a + Var b of single rows, the per-game variance of independent play
    (``stats.paired.pairing_efficiency``). The fixed-sample test is the two-sided paired t-test
    at ``alpha`` with ``power`` at |δ| = ``effect``: deals = (z_a + z_b)² · Var(d)/δ², games =
    deals × games per deal; with independent play (one row of each arm a game) the same test needs
    (z_a + z_b)² · (Var a + Var b)/δ² games. The sequential rows are the expected games of the
    three-outcome test at ±``effect`` (``stats.sequential.ThreeOutcome``, α and β = 1 − power)
    looking every ``look_deals`` deals, at δ = 0 and at |δ| = ``effect``, by simulation of the
    Brownian approximation of its LLRs.
    """

    effect: float
    alpha: float
    power: float
    var_deal: float
    games_per_deal: float
    var_independent: float | None
    efficiency: float | None
    deals: int
    games: int
    independent_games: int | None
    look_deals: int
    sequential_deals_none: float
    sequential_deals_effect: float
    sequential_games_none: float
    sequential_games_effect: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def sequential_expected_deals(
    effect: float,
    sd: float,
    alpha: float,
    beta: float,
    look_deals: int,
    horizon: int,
    sims: int = 4000,
    seed: int = 0,
) -> tuple[float, float]:
    """Expected deals of the three-outcome test at ±``effect`` on per-deal differences of spread
    ``sd``, looking every ``look_deals`` deals, at δ = 0 and at δ = ``effect`` (a path undecided
    at ``horizon`` deals counts as stopping there)."""
    from simharness.stats.sequential import ThreeOutcome

    test = ThreeOutcome.of(abs(effect), alpha, beta)
    ns = np.arange(look_deals, max(horizon, look_deals) + 1, look_deals)
    z = np.random.default_rng(seed).standard_normal((sims, len(ns)))
    noise = np.cumsum(z * np.sqrt(look_deals) * sd, axis=1)
    out = []
    for delta in (0.0, abs(effect)):
        _, stop = test.outcome(delta * ns[None, :] + noise, ns, sd)
        out.append(float(ns[stop].mean()))
    return out[0], out[1]


def plan_paired(
    var_deal: float,
    games_per_deal: float,
    effect: float,
    alpha: float = 0.05,
    power: float = 0.8,
    var_independent: float | None = None,
    look_deals: int | None = None,
) -> RunPlan:
    """The sample sizes of :class:`RunPlan` from a run's measured spread."""
    za, zb = _z(alpha, power)
    if effect == 0 or not math.isfinite(effect):
        raise ValueError(f"effect: expected a non-zero difference, got {effect}")
    if not var_deal > 0:
        raise ValueError(
            f"the per-deal differences have no spread (variance {var_deal}): any difference is told at once"
        )
    deals = math.ceil((za + zb) ** 2 * var_deal / effect**2)
    games = math.ceil(deals * games_per_deal)
    independent = None
    efficiency = None
    if var_independent is not None and var_independent > 0:
        independent = math.ceil((za + zb) ** 2 * var_independent / effect**2)
        efficiency = var_independent / (games_per_deal * var_deal)
    look = look_deals or max(1, deals // 50)
    none, hit = sequential_expected_deals(effect, math.sqrt(var_deal), alpha, 1 - power, look, 20 * deals)
    return RunPlan(
        abs(effect),
        alpha,
        power,
        var_deal,
        games_per_deal,
        var_independent,
        efficiency,
        deals,
        games,
        independent,
        look,
        none,
        hit,
        none * games_per_deal,
        hit * games_per_deal,
    )
