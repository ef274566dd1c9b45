"""Today's in-memory report, kept as the reference the streaming report is tested against.

This is the summary as ``simharness report`` computed it before it streamed (every table read into
memory, every interval from per-row arrays through ``simharness.stats``): the differential tests in
``test_report_stream.py`` check that the streaming path gives the same numbers.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from simharness.report.extremes import extreme_games
from simharness.report.glance import rank_shares, share_rows
from simharness.report.summary import (
    RunLike,
    game_lengths,
    game_metrics,
    players_frame,
    provenance,
    seat_axis,
    sequential_block,
    variant_names,
)
from simharness.report.sums import QUANTILES
from simharness.stats.balance import seat_rank_cells
from simharness.stats.hypotheses import benjamini_hochberg, friedman, holm, seat_advantage_test
from simharness.stats.intervals import cluster_mean_ci, describe
from simharness.stats.paired import Baseline, games_per_deal, paired_difference, per_deal, row_variance


def seat_wins(ranks: list[int], cells: np.ndarray) -> np.ndarray:
    """Wins (rank 1) per (deal, seat) from ``seat_rank_cells``."""
    return cells[:, :, ranks.index(1)] if 1 in ranks else np.zeros(cells.shape[:2])


def _dist(x: np.ndarray, deals: np.ndarray) -> dict[str, Any]:
    d = describe(x, deals, QUANTILES)
    return {
        "mean": d.mean.to_dict(),
        "quantiles": {f"p{round(q * 100)}": i.to_dict() for q, i in d.quantiles.items()},
    }


def _group_rows(players: pl.DataFrame, key: str) -> list[dict[str, Any]]:
    # Every interval is clustered by deal: a strategy in two seats, the rotations of a duplicate deal
    # and the variants of a deal share luck, so rows are not independent trials.
    rows = []
    for (k,), g in players.sort(key).group_by(key, maintain_order=True):
        deals = g["deal"].to_numpy()
        wins = float(g["win"].sum())
        rows.append(
            {
                key: k,
                "rows": g.height,
                "games": g["game"].n_unique(),
                "deals": len(np.unique(deals)),
                # Shared first places (ties = shared) make fractional wins; the rate is a mean.
                "first_places": wins,
                "first_place_rate": cluster_mean_ci(g["win"].cast(pl.Float64).to_numpy(), deals).to_dict(),
                "points": _dist(g["final_points"].to_numpy(), deals),
            }
        )
    return rows


def variant_block(players: pl.DataFrame, lengths: pl.DataFrame | None, unit: str | None) -> dict[str, Any]:
    """One variant's tables: by strategy and by seat (win rate, points), the seat test and game length."""
    axis = seat_axis(players)
    _seats, ranks, cells = seat_rank_cells(players, axis)
    block: dict[str, Any] = {
        "games": players["game"].n_unique(),
        "deals": players["deal"].n_unique(),
        "by_strategy": _group_rows(players, "strategy"),
        "seat_axis": axis,
        "by_seat": _group_rows(players.with_columns(pl.col(axis).alias("seat")), "seat"),
        "seat_test": seat_advantage_test(seat_wins(ranks, cells)).to_dict(),
        "length": None,
    }
    if lengths is not None and lengths.height:
        block["length"] = {"unit": unit, **_dist(lengths["length"].to_numpy(), lengths["deal"].to_numpy())}
    return block


def _differences(
    players: pl.DataFrame, lengths: pl.DataFrame | None, variants: list[str]
) -> list[dict[str, Any]]:
    """Main metrics of every variant minus the first, paired by deal where deals are shared."""
    base = variants[0]
    out: list[dict[str, Any]] = []

    def add(variant: str, strategy: str | None, metric: str, a: pl.DataFrame, b: pl.DataFrame) -> None:
        baseline = Baseline(row_variance(a, metric), row_variance(b, metric), games_per_deal(b))
        r = paired_difference(per_deal(a, metric), per_deal(b, metric), baseline=baseline)
        out.append(
            {"variant": variant, "baseline": base, "strategy": strategy, "metric": metric, **r.to_dict()}
        )

    strategies = players["strategy"].unique().sort().to_list()
    for v in variants[1:]:
        for s in strategies:
            a = players.filter((pl.col("variant") == v) & (pl.col("strategy") == s))
            b = players.filter((pl.col("variant") == base) & (pl.col("strategy") == s))
            if a.height and b.height:
                add(v, s, "win", a, b)
                add(v, s, "final_points", a, b)
        if lengths is not None:
            add(
                v,
                None,
                "length",
                lengths.filter(pl.col("variant") == v),
                lengths.filter(pl.col("variant") == base),
            )
    ps = np.array([r["pvalue"] if r["pvalue"] is not None else math.nan for r in out], dtype=float)
    for r, h, bh in zip(out, holm(ps), benjamini_hochberg(ps), strict=True):
        r["p_holm"] = None if math.isnan(h) else float(h)
        r["p_bh"] = None if math.isnan(bh) else float(bh)
    return out


def _omnibus(players: pl.DataFrame, variants: list[str]) -> list[dict[str, Any]]:
    """With three or more variants: a Friedman test per strategy and metric over the shared deals."""
    out = []
    for s in players["strategy"].unique().sort().to_list():
        mine = players.filter(pl.col("strategy") == s)
        for metric in ("win", "final_points"):
            wide = None
            for v in variants:
                d = per_deal(mine.filter(pl.col("variant") == v), metric).select("deal", pl.col("y").alias(v))
                wide = d if wide is None else wide.join(d, on="deal")
            if wide is not None:
                r = friedman(wide.select(variants).to_numpy())
                out.append({"strategy": s, "metric": metric, **r.to_dict()})
    return out


def build_summary(run: RunLike) -> dict[str, Any]:
    """``report.summary.build_summary`` (which documents every field), every table in memory."""
    players = players_frame(run)
    variants = variant_names(run, players)
    gl = game_lengths(run)
    lengths, unit = gl if gl is not None else (None, None)
    blocks = {}
    for v in variants:
        pv = players.filter(pl.col("variant") == v)
        lv = lengths.filter(pl.col("variant") == v) if lengths is not None else None
        blocks[v] = variant_block(pv, lv, unit)
    return {
        "run": provenance(run),
        "variant_order": variants,
        "variants": blocks,
        "differences": _differences(players, lengths, variants) if len(variants) > 1 else [],
        "omnibus": _omnibus(players, variants) if len(variants) > 2 else [],
        "rank_shares": rank_shares(share_rows(players).to_dicts(), variants),
        "game_metrics": game_metrics(run),
        "sequential": sequential_block(run, players),
        "extreme_games": extreme_games(run),
    }
