"""Calibration of the report's intervals and tests, for independent and duplicate designs.

Each check plays RUNS small runs of DEALS deals (one engine call; the runs are disjoint deal ranges of
one keyed stream, so they are independent samples) and computes, per run, exactly what ``report``
and ``compare`` compute. Coverage of 95% intervals and A/A false positives at 5% are counted over the
runs and asserted inside a binomial band wide enough to fail by chance about once in 10⁵ per check,
yet narrow enough to catch the 68% coverage of row-level intervals under duplicate play. Interval
widths are also checked against the spread of the estimates across runs, which catches intervals
that are too wide (all-covering) as well as too narrow.

The truth of a coverage check is the pooled estimate over all runs (its error is a fraction 1/√RUNS
of one run's); A/A checks use lineups whose symmetry makes the null exact.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simharness import engine
from simharness.report.frames import variant_block
from simharness.stats.paired import paired_difference, per_deal
from simharness.strategies import load

RUNS = 200
DEALS = 100
STRATEGIES = Path(__file__).resolve().parents[1] / "strategies"


def band(p: float) -> tuple[int, int]:
    """Counts out of RUNS consistent with rate ``p`` (each tail about 10⁻⁵)."""
    return int(stats.binom.ppf(1e-5, RUNS, p)), int(stats.binom.isf(1e-5, RUNS, p))


def test_band_is_wide_enough_and_catches_undercoverage() -> None:
    lo, hi = band(0.95)
    assert lo < 0.95 * RUNS <= hi and lo - 3 * np.sqrt(RUNS * 0.68 * 0.32) > 0.68 * RUNS
    assert band(0.05)[1] < 0.15 * RUNS  # 32% false positives (the analogue of 68% coverage) fail


def _knobs(game: str, name: str) -> dict[str, object]:
    return dict(load(STRATEGIES / game / f"{name}.toml").knobs)


@cache
def runs(game: str, duplicate: bool) -> tuple[pl.DataFrame, ...]:
    """RUNS player tables of DEALS deals with the lineup a, random, b, random (a and b the default knobs).

    Rotating a duplicate deal by two seats swaps a and b, so they are exchangeable there.
    """
    labels = ["a", "random", "b", "random"]
    lineup = [{}, _knobs(game, "random"), {}, _knobs(game, "random")]
    per_deal_games = 4 if duplicate else 1
    games = RUNS * DEALS * per_deal_games
    players = engine.play_batch(game, {}, lineup, seed=16, first_game=0, count=games, duplicate=duplicate)[
        "players"
    ]
    players = players.with_columns(
        pl.col("player").replace_strict(list(range(4)), labels, return_dtype=pl.String).alias("strategy"),
        (pl.col("rank") == 1).alias("win"),
        (pl.col("deal") // DEALS).alias("run"),
    )
    return tuple(g for _, g in players.sort("run").group_by("run", maintain_order=True))


@cache
def blocks(game: str, duplicate: bool) -> tuple[dict, ...]:
    return tuple(variant_block(p, None, None) for p in runs(game, duplicate))


def _check(estimates: np.ndarray, lo: np.ndarray, hi: np.ndarray, what: str) -> None:
    truth = estimates.mean()
    covered = int(((lo <= truth) & (truth <= hi)).sum())
    low, high = band(0.95)
    assert low <= covered <= high, f"{what}: {covered}/{RUNS} intervals cover {truth:.4g}"
    # Honest width: the mean half-width is about 1.96 standard deviations of the estimate across runs.
    ratio = np.mean(hi - lo) / (2 * 1.96 * estimates.std(ddof=1))
    assert 0.8 < ratio < 1.25, f"{what}: intervals {ratio:.2f} times the width of the estimates' spread"


FIELDS = {  # where a report table row keeps each interval
    "first_place_rate": lambda row: row["first_place_rate"],
    "mean": lambda row: row["points"]["mean"],
    "p50": lambda row: row["points"]["quantiles"]["p50"],
}


def _rows(game: str, duplicate: bool, table: str, key: str, value: object, field: str) -> np.ndarray:
    """(estimate, lo, hi) per run of one table row's interval."""
    out = []
    for b in blocks(game, duplicate):
        row = next(r for r in b[table] if r[key] == value)
        iv = FIELDS[field](row)
        out.append((iv["estimate"], iv["lo"], iv["hi"]))
    return np.array(out, dtype=float)


@pytest.mark.parametrize("duplicate", [False, True], ids=["independent", "duplicate"])
@pytest.mark.parametrize(
    ("table", "key", "values"),
    [("by_strategy", "strategy", ["a", "random"]), ("by_seat", "seat", [0, 3])],
)
@pytest.mark.parametrize("field", ["first_place_rate", "mean"])
def test_sugoroku_intervals_cover_95_percent(
    duplicate: bool, table: str, key: str, values: list[object], field: str
) -> None:
    for value in values:
        r = _rows("sugoroku", duplicate, table, key, value, field)
        _check(r[:, 0], r[:, 1], r[:, 2], f"{table} {value} {field}")


@pytest.mark.parametrize("duplicate", [False, True], ids=["independent", "duplicate"])
def test_suzume_first_place_rate_by_seat_covers_95_percent(duplicate: bool) -> None:
    for seat in (0, 2):
        r = _rows("suzume", duplicate, "by_seat", "seat", seat, "first_place_rate")
        _check(r[:, 0], r[:, 1], r[:, 2], f"suzume dealer order {seat}")


@pytest.mark.parametrize("duplicate", [False, True], ids=["independent", "duplicate"])
def test_sugoroku_median_points_interval_covers(duplicate: bool) -> None:
    # Woodruff's interval of a quantile of a discrete score: coverage only (the width of an interval
    # between observed scores does not track the spread of the estimate).
    r = _rows("sugoroku", duplicate, "by_strategy", "strategy", "a", "p50")
    truth = np.quantile(
        pl.concat(runs("sugoroku", duplicate)).filter(pl.col("strategy") == "a")["final_points"], 0.5
    )
    covered = int(((r[:, 1] <= truth) & (truth <= r[:, 2])).sum())
    assert band(0.95)[0] <= covered, f"{covered}/{RUNS}"


@pytest.mark.parametrize("duplicate", [False, True], ids=["independent", "duplicate"])
def test_suzume_seat_test_false_positives_at_5_percent(duplicate: bool) -> None:
    # Suzume-jong seats by dealer order are exchangeable, so every rejection is a false positive.
    # Under duplicate play, Pearson's χ² counted every deal's winner up to four times.
    p = np.array([b["seat_test"]["pvalue"] for b in blocks("suzume", duplicate)])
    rejected = int((p < 0.05).sum())
    lo, hi = band(0.05)
    assert lo <= rejected <= hi, f"{rejected}/{RUNS} false positives"


@pytest.mark.parametrize("game", ["sugoroku", "suzume"])
def test_compare_a_a_false_positives_at_5_percent(game: str) -> None:
    # a and b play the same knobs; under duplicate play they are exchangeable by construction.
    rejected = 0
    for p in runs(game, True):
        r = paired_difference(
            per_deal(p.filter(pl.col("strategy") == "a"), "win"),
            per_deal(p.filter(pl.col("strategy") == "b"), "win"),
        )
        rejected += r.pvalue < 0.05
    lo, hi = band(0.05)
    assert lo <= rejected <= hi, f"{rejected}/{RUNS} false positives"


def test_seat_test_of_sugoroku_finds_its_real_seat_advantage_with_enough_deals() -> None:
    # Power, not only size: the pooled duplicate runs (20,000 deals) show sugoroku's first-seat edge.
    b = variant_block(pl.concat(runs("sugoroku", True)), None, None)
    assert b["seat_test"]["pvalue"] < 1e-3 and b["seat_test"]["design_effect"] > 2
