"""p-values with resolution: a resampling test's p-value follows the exact one far below its floor of
1/resamples, and stays calibrated under the null (docs/statistics.md, "p-values beyond the
resolution")."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simharness.stats.balance import scorecard
from simharness.stats.hypotheses import RESOLVED_TAIL, holm, paired_permutation_test, resolved_pvalue

EXACT = 1e-8
Z_EXACT = float(stats.norm.isf(EXACT / 2))  # 5.73: the z whose two-sided normal p is 1e-8


def test_a_bootstrap_of_a_normal_difference_reads_its_exact_p_far_below_one_over_the_replicates() -> None:
    """1000 bootstrap replicates of a difference distributed N(est, se) with 2Φ(−est/se) = 1e-8: no
    replicate crosses 0, and the p-value is the exact one within the Monte Carlo error of the
    replicates' standard deviation (2.2% at 1000 replicates: a factor e^{±0.13·5.7·2} at 2 sd)."""
    se = 0.7
    est = Z_EXACT * se
    draws = np.random.default_rng(3).normal(est, se, 1000)
    beyond = int(min(np.count_nonzero(draws <= 0), np.count_nonzero(draws >= 0)))
    assert beyond == 0
    p = resolved_pvalue(beyond, len(draws), est / draws.std(ddof=1))
    assert EXACT / 3 < p < 3 * EXACT
    # Holm over 17 such tests stays far below what the floor gave (17 × 1/1000 = 0.017).
    assert holm(np.full(17, p)).max() < 1e-6


def test_a_resolved_tail_is_the_resampling_share_and_the_extrapolation_never_exceeds_it() -> None:
    # 40 of 1000 replicates beyond 0: the share, whatever the normal tail says.
    assert resolved_pvalue(40, 1000, 0.1) == pytest.approx(0.08)
    # 3 replicates: the normal tail, but never above the share RESOLVED_TAIL replicates would give.
    assert resolved_pvalue(3, 1000, 2.9) == pytest.approx(2 * stats.norm.sf(2.9))
    assert resolved_pvalue(3, 1000, 0.5) == pytest.approx(2 * RESOLVED_TAIL / 1000)
    # A difference with no spread at all is exact: p = 0 off zero.
    assert resolved_pvalue(0, 1000, math.inf) == 0.0


def test_the_sign_flip_test_of_a_normal_mean_difference_reads_the_exact_p_below_its_resolution() -> None:
    """Paired differences N(μ, 1) whose t-test p is about 1e-8 (n = 400: at this n the sign-flip and
    t distributions of the mean agree to a few % in z): 9,999 random patterns give no tail at all,
    and the p-value is the normal tail of the exact sign-flip distribution."""
    n = 400
    d = np.random.default_rng(11).normal(0.0, 1.0, n)
    d = d - d.mean() + Z_EXACT * d.std(ddof=1) / math.sqrt(n)  # a t statistic of exactly 5.73
    exact = float(stats.ttest_1samp(d, 0.0).pvalue)
    assert 0.5 * EXACT < exact < 3 * EXACT
    got = paired_permutation_test(d).pvalue
    assert exact / 3 < got < 3 * exact


def test_the_sign_flip_test_is_calibrated_under_the_null_including_beyond_its_resolution() -> None:
    """400 null samples with 999 patterns each: the share of p below 0.05 and below 0.01 (where the
    normal extrapolation takes over from the count) is the level, within 3 binomial sd."""
    rng = np.random.default_rng(5)
    ps = np.array([paired_permutation_test(rng.normal(0, 1, 60), 999, seed=i).pvalue for i in range(400)])
    for level in (0.05, 0.01):
        sd = math.sqrt(level * (1 - level) / len(ps))
        assert abs(np.mean(ps < level) - level) < 3 * sd + 1 / len(ps), level
    assert ps.min() > 0


def _two_variant_players(deals: int, base: float, variant: float, seed: int) -> pl.DataFrame:
    """Two-seat games, one per deal and variant; seat 0 wins with probability ``base`` or
    ``variant``, independently per deal."""
    rng = np.random.default_rng(seed)
    frames = []
    for name, rate in (("base", base), ("v", variant)):
        first = rng.random(deals) < rate
        frames.append(
            pl.DataFrame(
                {
                    "variant": name,
                    "game": np.repeat(np.arange(deals), 2),
                    "deal": np.repeat(np.arange(deals), 2),
                    "seat": np.tile([0, 1], deals),
                    "final_points": np.column_stack([first, ~first]).reshape(-1).astype(np.int64),
                    "rank": np.column_stack([2 - first, 1 + first]).reshape(-1).astype(np.int64),
                    "strategy": np.tile(["A", "B"], deals),
                }
            )
        )
    return pl.concat(frames)


def _exact_first_seat_p(players: pl.DataFrame) -> float:
    """The normal p of the paired per-deal difference of seat 0's wins (the clustered paired test)."""
    wins = players.filter(pl.col("seat") == 0).with_columns(w=(pl.col("rank") == 1).cast(pl.Float64))
    d = (
        wins.filter(pl.col("variant") == "v")["w"].to_numpy()
        - wins.filter(pl.col("variant") == "base")["w"].to_numpy()
    )
    return float(2 * stats.norm.sf(abs(d.mean()) / (d.std(ddof=1) / math.sqrt(len(d)))))


def test_the_scorecard_p_of_a_clear_effect_follows_the_paired_normal_p_not_the_floor() -> None:
    """4000 deals, seat 0 winning 50% against 56.4%: the paired normal p of the per-deal differences
    is 3e-7 (z = 5.1). The scorecard's p rests on its 1000 replicates' standard deviation, whose own
    error (about 2.2%) moves z by ±0.11 and p by a factor of about 1.8 per sd: within a factor of 5."""
    players = _two_variant_players(4000, 0.5, 0.564, seed=2)
    exact = _exact_first_seat_p(players)
    assert 1e-7 < exact < 1e-6
    for seed in (0, 1):
        sc = scorecard(players, None, None, ["base", "v"], resamples=1000, seed=seed)
        (d,) = [d for d in sc["differences"] if d["metric"] == "first_seat_win_rate"]
        assert exact / 5 < d["pvalue"] < 5 * exact
    assert d["p_holm"] < 1e-5  # no longer "0.0xx" after Holm over the scorecard's metrics


def test_the_scorecard_p_under_the_null_is_the_bootstrap_tail_and_agrees_with_the_paired_p() -> None:
    players = _two_variant_players(3000, 0.5, 0.5, seed=4)
    exact = _exact_first_seat_p(players)
    sc = scorecard(players, None, None, ["base", "v"], resamples=1000)
    (d,) = [d for d in sc["differences"] if d["metric"] == "first_seat_win_rate"]
    assert d["pvalue"] > 2 * RESOLVED_TAIL / 1000  # a resolved tail: the share itself
    assert abs(d["pvalue"] - exact) < 0.08
    same = scorecard(players.filter(pl.col("variant") == "base").vstack(
        players.filter(pl.col("variant") == "base").with_columns(variant=pl.lit("v"))
    ), None, None, ["base", "v"], resamples=200)  # fmt: skip
    assert all(d["pvalue"] == 1.0 for d in same["differences"] if d["pvalue"] is not None)
