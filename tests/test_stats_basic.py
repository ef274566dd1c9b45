"""Intervals, tests and multiplicity control against closed forms, scipy references and published examples."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from simharness.stats.hypotheses import (
    benjamini_hochberg,
    contingency_test,
    holm,
    kruskal_wallis,
    mann_whitney,
    mcnemar,
    paired_permutation_test,
    seat_advantage_test,
)
from simharness.stats.intervals import (
    bootstrap_ci,
    clopper_pearson_ci,
    cluster_mean_ci,
    cluster_ratio_ci,
    describe,
    mean_ci,
    proportion_ci,
)


def test_wilson_matches_published_example_and_closed_form() -> None:
    # 7 Wonders Duel start player: 97 wins of 156 → Wilson [0.544, 0.694] (statistics background §2.2).
    iv = proportion_ci(97, 156)
    assert (round(iv.lo, 3), round(iv.hi, 3)) == (0.544, 0.694)
    k, n, z = 97, 156, stats.norm.ppf(0.975)
    p = k / n
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z / (1 + z**2 / n) * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    assert iv.lo == pytest.approx(centre - half, abs=1e-9)
    assert iv.hi == pytest.approx(centre + half, abs=1e-9)


def test_clopper_pearson_is_the_beta_quantile_interval() -> None:
    iv = clopper_pearson_ci(7, 40)
    assert iv.lo == pytest.approx(stats.beta.ppf(0.025, 7, 34), rel=1e-6)
    assert iv.hi == pytest.approx(stats.beta.ppf(0.975, 8, 33), rel=1e-6)
    assert proportion_ci(0, 0).n == 0 and math.isnan(proportion_ci(0, 0).estimate)


def test_describe_quantile_intervals_match_a_row_bootstrap_for_one_row_per_deal() -> None:
    from simharness.stats.intervals import resample_counts

    rng = np.random.default_rng(1)
    x = np.round(rng.gamma(2.0, 10.0, 3000))  # skewed integer scores with ties
    d = describe(x, np.arange(len(x)))
    values, counts = np.unique(x, return_counts=True)
    cum = np.cumsum(resample_counts(np.random.default_rng(9), counts, 20000), axis=1)
    for q, iv in d.quantiles.items():
        assert iv.estimate == np.quantile(x, q, method="inverted_cdf")
        idx = (cum < max(1, int(np.ceil(q * len(x))))).sum(axis=1)
        lo, hi = np.quantile(values[idx], [0.025, 0.975], method="inverted_cdf")
        # Woodruff's interval and the percentile bootstrap agree for independent rows up to one or
        # two value steps (the two discretise the CDF differently).
        step = np.diff(values).max()
        assert abs(iv.lo - lo) <= 2 * step and abs(iv.hi - hi) <= 2 * step, q
        assert iv.lo <= iv.estimate <= iv.hi
    assert (d.mean.lo, d.mean.hi) == pytest.approx(stats.t.interval(0.95, 2999, x.mean(), stats.sem(x)))


def test_describe_clusters_by_deal_so_copies_of_a_deal_add_no_information() -> None:
    rng = np.random.default_rng(4)
    x = np.round(rng.pareto(2.2, 500) * 100)
    one = describe(x, np.arange(500))
    # Four rotations of a deal with one outcome each (a seat keeps its dice): four times the rows,
    # the same information. Row-level intervals would shrink by half; the deal-level ones must not.
    four = describe(np.repeat(x, 4), np.repeat(np.arange(500), 4))
    assert (four.mean.lo, four.mean.hi) == pytest.approx((one.mean.lo, one.mean.hi), rel=1e-9)
    for q in one.quantiles:
        assert (four.quantiles[q].lo, four.quantiles[q].hi) == (one.quantiles[q].lo, one.quantiles[q].hi)
        assert four.quantiles[q].n == 500


def test_bootstrap_bca_close_to_t_interval_and_degenerate_sample() -> None:
    rng = np.random.default_rng(2)
    x = rng.normal(5, 2, 400)
    b = bootstrap_ci([x], np.mean)
    t = mean_ci(x)
    assert b.lo == pytest.approx(t.lo, abs=0.06) and b.hi == pytest.approx(t.hi, abs=0.06)
    flat = bootstrap_ci([np.full(10, 3.0)], np.mean)
    assert (flat.estimate, flat.lo, flat.hi) == (3.0, 3.0, 3.0)


def test_cluster_ci_equals_t_interval_per_row_and_ignores_duplicated_rows() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, 50)
    t = stats.t.interval(0.95, 49, loc=x.mean(), scale=stats.sem(x))
    iv = cluster_mean_ci(x, np.arange(50))
    assert (iv.lo, iv.hi) == pytest.approx(t, abs=1e-12)
    # Four identical rows per cluster carry no more information than one: the CI must not shrink.
    rep = cluster_mean_ci(np.repeat(x, 4), np.repeat(np.arange(50), 4))
    assert (rep.lo, rep.hi) == pytest.approx(t, rel=1e-9) and rep.n == 50
    naive = mean_ci(np.repeat(x, 4))
    assert naive.hi - naive.lo < 0.6 * (rep.hi - rep.lo)


def _one_hot(counts: list[int]) -> np.ndarray:
    """One row per game, a 1 in the column of the seat that won it."""
    return np.repeat(np.eye(len(counts)), counts, axis=0)


def test_seat_chi_square_and_cramers_v_by_hand() -> None:
    # One game per deal: the CR1 covariance of one-hot rows is N/(N − 1) times the multinomial one,
    # so the Rao-Scott statistic is Pearson's X² = (25 + 25)/25 = 2 times 99/100.
    r = seat_advantage_test(_one_hot([30, 20, 25, 25]))
    assert r.design_effect == pytest.approx(100 / 99)
    assert r.statistic == pytest.approx(2.0 * 99 / 100)
    assert r.pvalue == pytest.approx(stats.chi2.sf(1.98, 3))
    assert r.effect == pytest.approx(math.sqrt(2 / 100))  # Cohen's w of the uncorrected X²
    cells = np.zeros((60, 2, 2))
    for g, (i, j) in enumerate([(0, 0)] * 20 + [(0, 1)] * 10 + [(1, 0)] * 10 + [(1, 1)] * 20):
        cells[g, i, j] = 1
    c = contingency_test(cells)
    assert c.statistic == pytest.approx(4 * 25 / 15 * 59 / 60)  # expected 15 per cell
    assert c.effect == pytest.approx(1 / 3)  # V = sqrt(χ²/n) for a 2×2 table
    assert c.df == 1


def test_seat_test_counts_a_duplicate_deal_once_when_its_rotations_agree() -> None:
    # The case: every deal gave the same seat all four of its wins. Pearson's X² on the
    # 4·G wins is four times X² on the G deals; the clustered test gives the deal-level answer.
    deals = _one_hot([280, 240, 250, 230])
    once = seat_advantage_test(deals)
    four = seat_advantage_test(4 * deals)
    assert four.statistic == pytest.approx(once.statistic) and four.pvalue == pytest.approx(once.pvalue)
    assert four.design_effect == pytest.approx(4 * 1000 / 999)
    assert stats.chisquare(4 * deals.sum(axis=0)).statistic == pytest.approx(
        4 * stats.chisquare(deals.sum(axis=0)).statistic
    )


def test_paired_permutation_exact_small_sample() -> None:
    # 4 positive differences: only all-plus and all-minus sign patterns are as extreme → p = 2/16.
    r = paired_permutation_test(np.array([1.0, 2.0, 3.0, 4.0]))
    assert r.pvalue == pytest.approx(0.125)
    assert paired_permutation_test(np.zeros(5)).pvalue == 1.0


def test_paired_permutation_agrees_with_scipy() -> None:
    """The vectorised sign-flip test against scipy.stats.permutation_test: equal when both are exact
    (2^n sign patterns), within 4 sd of the Monte Carlo difference of two runs of 9,999 resamples
    otherwise (p is twice a tail share q: sd of the difference 2·sqrt(2q(1 − q)/9,999))."""
    for n, shift in ((10, 0.5), (13, -0.2), (300, 0.1), (2000, 0.0), (2000, 0.06)):
        d = np.random.default_rng(n).normal(shift, 1.0, size=n)
        ref = stats.permutation_test(
            (d,), np.mean, permutation_type="samples", n_resamples=9999, vectorized=True,
            rng=np.random.default_rng(1),
        )  # fmt: skip
        got = paired_permutation_test(d)
        assert got.statistic == pytest.approx(ref.statistic)
        if 2**n <= 9999:
            assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
        else:
            q = ref.pvalue / 2
            assert abs(got.pvalue - ref.pvalue) < 8 * math.sqrt(2 * q * (1 - q) / 9999), (n, got, ref)


def test_rank_tests_effect_sizes() -> None:
    m = mann_whitney(np.array([3.0, 4.0]), np.array([1.0, 2.0]))
    assert m.statistic == 4 and m.effect == 1.0
    k = kruskal_wallis(np.array([1.0, 2, 3]), np.array([4.0, 5, 6]), np.array([7.0, 8, 9]))
    ref = stats.kruskal([1, 2, 3], [4, 5, 6], [7, 8, 9])
    assert k.statistic == pytest.approx(ref.statistic) and k.effect == pytest.approx(ref.statistic / 8)
    mc = mcnemar(10, 2)
    assert mc.pvalue == pytest.approx(stats.binomtest(10, 12).pvalue) and mc.effect == 5


def test_holm_and_bh_by_hand() -> None:
    p = np.array([0.01, 0.04, 0.03, 0.005])
    # sorted 0.005, 0.01, 0.03, 0.04 × (4, 3, 2, 1) = 0.02, 0.03, 0.06, 0.04 → running max.
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # × m/rank = 0.02, 0.02, 0.04, 0.04 → running min from the top.
    assert benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    withnan = holm(np.array([0.01, np.nan, 0.02]))
    assert math.isnan(withnan[1]) and withnan[0] == pytest.approx(0.02)


def test_resample_counts_both_paths_are_the_row_bootstrap() -> None:
    from simharness.stats.intervals import resample_counts

    rng = np.random.default_rng(4)
    counts = np.array([50, 30, 20])  # few categories: multinomial path
    few = resample_counts(rng, counts, 4000)
    many = resample_counts(rng, np.ones(100, dtype=np.int64), 4000)  # one row per category: index path
    assert (few.sum(axis=1) == 100).all() and (many.sum(axis=1) == 100).all()
    # Multinomial moments: mean n·p and variance n·p·(1 − p).
    assert few.mean(axis=0) == pytest.approx([50, 30, 20], rel=0.02)
    assert few.var(axis=0) == pytest.approx([25, 21, 16], rel=0.1)
    assert many.mean() == pytest.approx(1.0, rel=0.01) and many.var(axis=0).mean() == pytest.approx(
        0.99, rel=0.05
    )


def test_friedman_by_hand() -> None:
    from simharness.stats.hypotheses import friedman

    # Every block ranks the treatments 1 < 2 < 3: χ² = 12/(nk(k+1))·ΣR² − 3n(k+1) = 6 and W = 1.
    r = friedman(np.array([[1.0, 2, 3], [1, 2, 3], [1, 2, 3]]))
    assert r.statistic == pytest.approx(6.0) and r.effect == pytest.approx(1.0) and r.df == 2
    assert math.isnan(friedman(np.ones((5, 3))).pvalue)


def test_cluster_ratio_of_counts_equals_the_clustered_mean_of_the_rows_behind_them() -> None:
    # Wins over hands played per game (a ratio of sums) is the mean of the per-hand 0/1 outcomes
    # with the game as cluster: the two routes must give the same estimate and interval.
    rng = np.random.default_rng(5)
    hands = rng.integers(4, 15, 60)
    outcomes = [rng.random(h) < 0.25 for h in hands]
    wins = np.array([o.sum() for o in outcomes])
    ratio = cluster_ratio_ci(wins, hands, np.arange(60))
    rows = cluster_mean_ci(np.concatenate(outcomes), np.repeat(np.arange(60), hands))
    assert ratio.estimate == pytest.approx(wins.sum() / hands.sum())
    assert ratio.n == rows.n == 60
    assert (ratio.estimate, ratio.lo, ratio.hi) == pytest.approx((rows.estimate, rows.lo, rows.hi))
    assert math.isnan(cluster_ratio_ci(np.zeros(3), np.zeros(3), np.arange(3)).estimate)


def test_cluster_ratio_ci_stays_in_the_range_of_a_rate() -> None:
    # One yakuman in 2,000 hands: the symmetric interval would dip below 0.
    hands = np.full(200, 10.0)
    wins = np.zeros(200)
    wins[7] = 1
    rare = cluster_ratio_ci(wins, hands, np.arange(200))
    assert rare.estimate == 0.0005 and rare.lo == 0.0 and rare.hi > 0.0005
    # Almost every hand won: capped at 1. Point deltas (negative rows) are left symmetric.
    sure = cluster_ratio_ci(hands - np.eye(200)[3], hands, np.arange(200))
    assert sure.hi == 1.0 and sure.lo < sure.estimate
    deltas = cluster_mean_ci(np.r_[np.full(199, 0.001), -0.3], np.arange(200))
    assert deltas.lo < 0 < deltas.hi
