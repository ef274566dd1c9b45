"""Sample sizes, the GSPRT and the stopping-aware estimate against published numbers and simulation."""

from __future__ import annotations

import numpy as np
import pytest

from simharness.stats.power import n_one_sample, n_paired, n_two_arms, plan, sprt_expected_games
from simharness.stats.sequential import (
    SPRT,
    Decision,
    gsprt_llr,
    gsprt_llr_counts,
    llr_normal,
    sprt_bounds,
    stopped_estimate,
)


def test_sample_sizes_match_background_table() -> None:
    assert n_one_sample(0.25, 0.26) == 14832
    assert n_two_arms(0.25, 0.26) == 29821
    assert n_one_sample(0.50, 0.51) == 19620
    assert n_two_arms(0.50, 0.51) == 39240  # 39239.3 rounded up (the background rounds it to 39,239)
    assert n_one_sample(0.10, 0.11) == 7248
    # Paired with no gain is the two-arm variance without pooling; E divides it.
    base = n_paired(0.25, 0.26, 1.0)
    assert abs(base - 29821) < 10
    assert n_paired(0.25, 0.26, 2.0) == pytest.approx(base / 2, abs=1)
    h0, h1 = sprt_expected_games(0.50, 0.51)
    assert h0 == pytest.approx(13250, rel=0.01) and h1 == pytest.approx(13250, rel=0.01)
    assert plan(0.01, 0.25, paired_efficiency=2.5).paired_games == n_paired(0.25, 0.26, 2.5)


def test_plan_in_games_and_deals_against_hand_computed_values() -> None:
    # (z.975 + z.8)² (p1q1 + p2q2)/(E δ²) = 7.84888 × 0.3799/(E × 10⁻⁴) games: E = 1 gives 29,818
    # (the two-arm answer without pooling), E = 2 gives 14,909 games = ⌈14,909/4⌉ = 3,728 deals of a
    # four-seat duplicate deal.
    p = plan(0.01, 0.25, paired_efficiency=1, games_per_deal=4)
    assert (p.paired_games, p.paired_deals) == (29818, 7455)
    p = plan(0.01, 0.25, paired_efficiency=2, games_per_deal=4)
    assert (p.paired_games, p.paired_deals) == (14909, 3728)
    # Wald's SPRT at one-sided α/2 = 0.025 and β = 0.2, the error rates of the two-sided fixed design
    # in the effect's direction: ln B = ln(0.8/0.025), ln A = ln(0.2/0.975), KL(0.26‖0.25) = 2.6435e-4,
    # E[N | H1] = (0.8 ln B + 0.2 ln A)/KL = 9,290 games against the fixed design's 14,832.
    assert p.sprt_alpha == 0.025
    assert p.sprt_expected_h1 == pytest.approx(9289.8, abs=0.5)
    assert p.sprt_expected_h0 == pytest.approx(5562.6, abs=0.5)
    with pytest.raises(ValueError, match="games-per-deal"):
        plan(0.01, 0.25, paired_efficiency=2, games_per_deal=0)
    with pytest.raises(ValueError, match="baseline"):
        plan(0.01, 1.2)


def _logistic(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def test_gsprt_reproduces_fishtest_pentanomial_example() -> None:
    counts = np.array([10789, 19328, 33806, 19402, 10543])
    values = np.array([0, 0.25, 0.5, 0.75, 1.0])
    llr = gsprt_llr_counts(values, counts, _logistic(-3), _logistic(1))[0]
    assert llr == pytest.approx(2.13107, abs=5e-5)
    x = np.repeat(values, counts)
    assert gsprt_llr(x, _logistic(-3), _logistic(1)) == pytest.approx(2.13107, abs=5e-5)
    assert llr_normal(x, _logistic(-3), _logistic(1)) == pytest.approx(2.13124, abs=5e-5)
    assert sprt_bounds(0.05, 0.05) == pytest.approx((-2.944, 2.944), abs=1e-3)


def _simulate(mu: float, reps: int, seed: int, step: int = 50, looks: int = 200) -> np.ndarray:
    """Decisions of reps SPRTs (0 vs 0.05) on paired win differences in {-1, 0, 1} with mean mu."""
    rng = np.random.default_rng(seed)
    p = np.array([0.25 - mu / 2, 0.5, 0.25 + mu / 2])
    values = np.array([-1.0, 0.0, 1.0])
    lower, upper = sprt_bounds(0.05, 0.05)
    counts = np.zeros((reps, 3))
    decision = np.zeros(reps)  # 0 running, -1 H0, +1 H1
    for _ in range(looks):
        counts += rng.multinomial(step, p, size=reps)
        llr = gsprt_llr_counts(values, counts, 0.0, 0.05)
        running = decision == 0
        decision[running & (llr >= upper)] = 1
        decision[running & (llr <= lower)] = -1
        if not (decision == 0).any():
            break
    return decision


def test_sprt_error_rates_near_nominal() -> None:
    h0 = _simulate(0.0, 1000, 11)
    h1 = _simulate(0.05, 1000, 12)
    assert (h0 != 0).mean() > 0.99 and (h1 != 0).mean() > 0.99
    alpha_hat, beta_hat = (h0 == 1).mean(), (h1 == -1).mean()
    # Nominal 5%; looks every 50 games overshoot the bounds, which makes both errors a bit smaller.
    assert 0.01 <= alpha_hat <= 0.07
    assert 0.01 <= beta_hat <= 0.07


def test_sprt_decides_planted_effect_and_identical_strategies() -> None:
    rng = np.random.default_rng(5)
    test = SPRT(0.0, 0.05)
    planted = rng.choice([-1.0, 0.0, 1.0], p=[0.2, 0.5, 0.3], size=3000)  # mean 0.1
    assert test.decide(planted).decision is Decision.ACCEPT_H1
    same = rng.choice([-1.0, 0.0, 1.0], p=[0.25, 0.5, 0.25], size=6000)
    assert test.decide(same).decision is Decision.ACCEPT_H0
    assert test.decide(planted[:5]).decision is Decision.CONTINUE  # below min_n
    with pytest.raises(ValueError, match="mu1"):
        SPRT(0.1, 0.1)


def test_stopped_estimate_single_look_is_z_interval() -> None:
    rng = np.random.default_rng(6)
    x = rng.normal(0.02, 1, 2000)
    est = stopped_estimate([2000], x, SPRT(0.0, 0.5), sims=20000)
    se = x.std(ddof=1) / np.sqrt(len(x))
    assert est.estimate == pytest.approx(x.mean(), abs=0.02 * se + 1e-3)
    assert est.lo == pytest.approx(x.mean() - 1.96 * se, abs=0.05 * se)
    assert est.hi == pytest.approx(x.mean() + 1.96 * se, abs=0.05 * se)


def test_stopped_estimate_removes_most_of_the_stopping_bias() -> None:
    rng = np.random.default_rng(7)
    test = SPRT(0.0, 0.1, min_n=50)
    true = 0.1
    naive, corrected = [], []
    for _ in range(40):
        x = rng.normal(true, 1, 4000)
        looks = list(range(50, 4001, 50))
        for n in looks:
            if test.decide(x[:n]).decision is not Decision.CONTINUE:
                break
        used = [k for k in looks if k <= n]
        e = stopped_estimate(used, x[:n], test, sims=4000)
        naive.append(e.naive)
        corrected.append(e.estimate)
    # Early H1 stops overestimate the effect; the median-unbiased estimate is centred on the truth.
    assert abs(np.median(corrected) - true) < abs(np.median(naive) - true)


def test_identical_paired_scores_are_certain_evidence() -> None:
    # Identical deterministic strategies under duplicate play: every per-deal difference is 0.
    assert SPRT(0.0, 0.05).decide(np.zeros(30)).decision is Decision.ACCEPT_H0
    assert SPRT(0.0, 0.05).decide(np.full(30, 0.05)).decision is Decision.ACCEPT_H1
    assert SPRT(0.0, 0.05).decide(np.zeros(10)).decision is Decision.CONTINUE  # below min_n
