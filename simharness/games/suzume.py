"""Suzume-jong (すずめ雀): scoring one hand, and the game's summary metrics.

``score_hand`` is the same engine code the games use (``engine/src/games/suzume/scoring.rs``), so a
hand scored here scores the same in a simulation. ``summary_metrics`` turns a run's ``hands`` and
``players`` tables into long-form estimates with confidence intervals.
"""

from __future__ import annotations

import json
import math
from typing import Any, Protocol

import polars as pl
from scipy import stats

from simharness import _engine
from simharness.engine import _call

GAME = "suzume"

# `hands.yakuman` codes (see `simharness schema suzume`).
YAKUMAN = {1: "all_green", 2: "chinyao", 3: "super_red"}


def score_hand(
    hand: str,
    win: str,
    *,
    ron: bool = False,
    dealer: bool = False,
    dora: str | None = None,
    players: int = 4,
    rules: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Scores 6 tiles written in the spec's notation (``1r2r3rCCC``: digits 1-9, ``r`` after a
    digit for its red copy, ``F`` = 發, ``C`` = 中) won on ``win`` (one of them).

    Returns ``legal`` (bool), ``reason`` (why it does not win, else None), ``points`` (the score,
    dealer bonus included), ``base``, ``sets`` and every part (``set_points``, ``red``,
    ``dora_points``, ``tanyao``, ``chanta``, ``yakuman``, ``yakuman_points``, ``dealer_bonus``) and,
    for a legal win, ``payments``. ``rules`` are rule overrides (``simharness rules suzume``).

    Raises :class:`simharness.engine.OptionError` for a bad tile, a wrong count, more copies than
    exist, a winning tile not in the hand or a bad rule.
    """
    raw = _call(_engine.suzume_score, hand, win, ron, dealer, dora, players, json.dumps(rules or {}))
    result: dict[str, Any] = json.loads(raw)
    return result


class Run(Protocol):
    """What the summary needs of :class:`simharness.store.Run`."""

    def table(self, name: str) -> pl.DataFrame: ...


def _wilson(successes: int, trials: int) -> tuple[float, float, float]:
    if trials == 0:
        return math.nan, math.nan, math.nan
    ci = stats.binomtest(successes, trials).proportion_ci(confidence_level=0.95, method="wilson")
    return successes / trials, float(ci.low), float(ci.high)


def _mean_ci(values: pl.Series) -> tuple[float, float, float]:
    n = values.len()
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())  # type: ignore[arg-type]
    if n < 2:
        return mean, math.nan, math.nan
    half = float(stats.t.ppf(0.975, n - 1)) * float(values.std()) / math.sqrt(n)  # type: ignore[arg-type]
    return mean, mean - half, mean + half


def _row(variant: str, strategy: str, metric: str, est: tuple[float, float, float], n: int) -> dict[str, Any]:
    return {"variant": variant, "strategy": strategy, "metric": metric,
            "estimate": est[0], "lo": est[1], "hi": est[2], "n": n}


def summary_metrics(run: Run) -> pl.DataFrame:
    """Long-form metrics (columns variant, strategy, metric, estimate, lo, hi, n), 95% intervals.

    Per variant and strategy: ``win_rate`` and ``deal_in_rate`` (per hand played), ``tsumo_share``
    (of wins), ``mean_hand_value`` (points of a win, dealer bonus included), ``yakuman_rate`` (per
    hand played), ``mean_final_points`` and ``first_place_rate``. Per variant (strategy ``all``):
    ``exhaustive_draw_rate``, ``multi_ron_rate`` (per hand) and ``mean_final_points_dealer_order_<k>``
    (seat advantage: k seats after the first dealer). Proportions use Wilson intervals, means
    t intervals; both treat hands as independent, which understates the width a little since the
    hands of one game share the players' point totals.
    """
    players = run.table("players")
    hands = run.table("hands")
    slots = players.select("variant", "player", "strategy").unique()
    wins = hands.filter(pl.col("claims") > 0).join(
        slots, left_on=["variant", "winner_player"], right_on=["variant", "player"], how="left"
    )
    rows: list[dict[str, Any]] = []
    per_strategy = players.group_by("variant", "strategy").agg(
        pl.col("hands").cast(pl.Int64).sum().alias("hands"),
        pl.col("wins").cast(pl.Int64).sum(),
        pl.col("tsumo_wins").cast(pl.Int64).sum(),
        pl.col("deal_ins").cast(pl.Int64).sum(),
        pl.col("yakuman").cast(pl.Int64).sum(),
        (pl.col("rank") == 1).cast(pl.Int64).sum().alias("firsts"),
        pl.len().alias("games"),
    ).sort("variant", "strategy")
    for r in per_strategy.iter_rows(named=True):
        v, s = r["variant"], r["strategy"]
        rows.append(_row(v, s, "win_rate", _wilson(r["wins"], r["hands"]), r["hands"]))
        rows.append(_row(v, s, "deal_in_rate", _wilson(r["deal_ins"], r["hands"]), r["hands"]))
        rows.append(_row(v, s, "tsumo_share", _wilson(r["tsumo_wins"], r["wins"]), r["wins"]))
        rows.append(_row(v, s, "yakuman_rate", _wilson(r["yakuman"], r["hands"]), r["hands"]))
        rows.append(_row(v, s, "first_place_rate", _wilson(r["firsts"], r["games"]), r["games"]))
        mine = players.filter((pl.col("variant") == v) & (pl.col("strategy") == s))
        rows.append(_row(v, s, "mean_final_points", _mean_ci(mine["final_points"]), mine.height))
        values = wins.filter((pl.col("variant") == v) & (pl.col("strategy") == s))["points"]
        rows.append(_row(v, s, "mean_hand_value", _mean_ci(values.cast(pl.Float64)), values.len()))
    for v in sorted(hands["variant"].unique().to_list()):
        first = hands.filter((pl.col("variant") == v) & (pl.col("claim") == 0))
        n = first.height
        draws = int((first["claims"] == 0).sum())
        multi = int((first["claims"] > 1).sum())
        rows.append(_row(v, "all", "exhaustive_draw_rate", _wilson(draws, n), n))
        rows.append(_row(v, "all", "multi_ron_rate", _wilson(multi, n), n))
        mine = players.filter(pl.col("variant") == v)
        for k in sorted(mine["dealer_order"].unique().to_list()):
            pts = mine.filter(pl.col("dealer_order") == k)["final_points"].cast(pl.Float64)
            rows.append(_row(v, "all", f"mean_final_points_dealer_order_{k}", _mean_ci(pts), pts.len()))
    schema = {"variant": pl.String, "strategy": pl.String, "metric": pl.String,
              "estimate": pl.Float64, "lo": pl.Float64, "hi": pl.Float64, "n": pl.Int64}
    return pl.DataFrame(rows, schema=schema)
