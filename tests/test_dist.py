"""The report's statistics without scipy.stats give scipy.stats' numbers: the distribution functions
of ``stats.dist``, the χ² statistics and Cramér's V of the seat tests, Benjamini-Hochberg and the
Friedman sums."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from simharness.stats import dist
from simharness.stats.hypotheses import (
    ClusterCounts,
    benjamini_hochberg,
    contingency_test,
    seat_advantage_test,
)
from simharness.stats.streaming import FriedmanSums


@pytest.mark.parametrize("df", [0.5, 1, 2, 3.7, 29, 1e6])
def test_distribution_functions_are_scipy_stats(df: float) -> None:
    for q in (0.025, 0.5, 0.975, 0.9995):
        assert dist.t_ppf(q, df) == stats.t.ppf(q, df)
        assert dist.norm_ppf(q) == stats.norm.ppf(q)
    for x in (-3.0, 0.0, 0.4, 2.5, np.inf):
        assert dist.t_sf(x, df) == stats.t.sf(x, df)
        assert dist.norm_sf(x) == stats.norm.sf(x)
        if x >= 0:
            assert dist.chi2_sf(x, df) == stats.chi2.sf(x, df)
    assert np.isnan(dist.t_ppf(0.975, 0))


def test_seat_tests_use_scipy_statistics() -> None:
    rng = np.random.default_rng(3)
    cells = rng.integers(0, 4, (200, 4, 4))
    t = cells.sum(axis=0)
    got = contingency_test(ClusterCounts.of(cells))
    want = stats.chi2_contingency(t, correction=False).statistic
    v = stats.contingency.association(t, method="cramer", correction=False)
    assert got.effect == pytest.approx(v, rel=1e-13)
    assert got.statistic * got.design_effect == pytest.approx(want, rel=1e-13)
    wins = cells[:, :, 0]
    seat = seat_advantage_test(ClusterCounts.of(wins))
    assert seat.statistic * seat.design_effect == pytest.approx(stats.chisquare(wins.sum(axis=0)).statistic)


def test_benjamini_hochberg_is_false_discovery_control() -> None:
    p = np.array([0.01, np.nan, 0.04, 0.03, 0.2, 0.03, 0.9, 0.0005])
    got = benjamini_hochberg(p)
    ok = np.isfinite(p)
    assert np.isnan(got[~ok]).all()
    assert np.array_equal(got[ok], stats.false_discovery_control(p[ok], method="bh"))
    assert np.array_equal(benjamini_hochberg(np.array([0.3])), [0.3])


def test_friedman_sums_are_scipy_friedman() -> None:
    rng = np.random.default_rng(8)
    blocks = rng.integers(0, 4, (300, 4)).astype(float)  # many ties within blocks
    sums = FriedmanSums(np.zeros(4))
    for part in np.array_split(blocks, 3):
        sums.add(part)
    got = sums.result()
    want = stats.friedmanchisquare(*blocks.T)
    assert got.statistic == pytest.approx(want.statistic, rel=1e-12)
    assert got.pvalue == pytest.approx(want.pvalue, rel=1e-9)
