"""The report at a glance: rank shares, the strategy profile and the game metrics by strategy.

Presentation around the numbers the summary already has: the profile and the metrics tables reshape
the game package's ``summary_metrics`` rows and the summary's rates (nothing is estimated twice);
rank shares are the one new estimate, each clustered by deal like every rate of the summary.
Names follow players: the rank-1 share is the "1st-place rate", a hand win rate is "per hand".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from simharness import vocabulary
from simharness.games import registry
from simharness.games.estimates import ratio_by_deal, row
from simharness.stats.keys import dense, group_codes, row_groups

# Metrics of every game, computed by the harness (the summary's and :func:`rank_shares`).
FIRST = "first_place_rate"
LAST = "last_place_rate"
# The columns of a game's summary_metrics rows (simharness.games.registry), which rank shares share.
LONG_FORM = {"variant": pl.String, "strategy": pl.String, "metric": pl.String, "estimate": pl.Float64,
             "lo": pl.Float64, "hi": pl.Float64, "n": pl.Int64}  # fmt: skip
# A game that names no profile: the generic reward (1st place) against the generic risk (last place).
DEFAULT_PROFILE = (LAST, FIRST)


def ordinal(rank: int) -> str:
    """1st, 2nd, 3rd, 4th, ..."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank if rank < 20 else rank % 10, "th")
    return f"{rank}{suffix}"


def label(game: str, metric: str) -> str:
    """The metric's name and unit (``simharness.vocabulary``), else the identifier in words."""
    return vocabulary.label(game, metric)


def is_share(game: str, metric: str) -> bool:
    """Whether the metric is a share (stored as a fraction, shown in %), by its unit."""
    return vocabulary.percent(game, metric)


def share_rows(players: pl.DataFrame) -> pl.DataFrame:
    """Per variant and strategy the share of each final position (1st … last) as long-form rows
    (variant, strategy, metric = "1st", "2nd", …, estimate, lo, hi, n), clustered by deal through
    ``games.estimates`` so that a run read chunk by chunk adds them up (``report.stream``).

    Every position up to the number of players appears (a share of 0 included). k players tied at
    rank r (``ties = shared``: ranks 1, 1, 3) share positions r … r+k−1, each holding 1/k of every
    one, so the 1st share is the summary's 1st-place rate and a game's positions add up to one each.
    """
    game, _games = row_groups(players, ["variant", "game"])
    rank = players["rank"].to_numpy().astype(np.int64)
    _ties, tie, counts = dense(game * (int(rank.max(initial=0)) + 1) + rank)
    tied = counts[tie]
    seats = np.bincount(game)
    deals = players["deal"].to_numpy()
    variants, variant = group_codes(players, ["variant"])
    strategies, strategy = group_codes(players, ["strategy"])
    rows: list[dict[str, Any]] = []
    for i, (v,) in enumerate(variants):
        mine = variant == i
        positions = range(1, int(seats[game[mine]].max(initial=0)) + 1)
        for j in sorted(range(len(strategies)), key=lambda j: strategies[j]):
            at = np.flatnonzero(mine & (strategy == j))
            if not len(at):
                continue
            r, k, d = rank[at], tied[at], deals[at]
            s = str(strategies[j][0])
            rows.extend(
                row(str(v), s, ordinal(p), ratio_by_deal(((r <= p) & (r + k > p)) / k, np.ones(len(at)), d))
                for p in positions
            )
    return pl.DataFrame(rows, schema=LONG_FORM, orient="row")


def rank_shares(rows: list[dict[str, Any]], variants: list[str]) -> dict[str, list[dict[str, Any]]]:
    """:func:`share_rows` as ``{variant: [{strategy, shares: {"1st": interval, ...}}]}``, strategies
    in the order of the summary's tables."""
    out: dict[str, list[dict[str, Any]]] = {}
    for v in variants:
        mine = sorted(
            (r for r in rows if r["variant"] == v), key=lambda r: (r["strategy"], int(r["metric"][:-2]))
        )
        strategies = dict.fromkeys(r["strategy"] for r in mine)
        out[v] = [
            {
                "strategy": s,
                "shares": {
                    r["metric"]: {k: r[k] for k in ("estimate", "lo", "hi", "n")}
                    for r in mine
                    if r["strategy"] == s
                },
            }
            for s in strategies
        ]
    return out


def _intervals(report: dict[str, Any]) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Every (variant, strategy, metric) interval the report holds that a profile axis can name."""
    found: dict[tuple[str, str, str], dict[str, Any]] = {}
    for r in report["game_metrics"]:
        found[(str(r["variant"]), str(r["strategy"]), str(r["metric"]))] = {
            k: r.get(k) for k in ("estimate", "lo", "hi", "n")
        }
    for v, block in report["variants"].items():
        for r in block["by_strategy"]:
            found[(v, r["strategy"], FIRST)] = r[FIRST]
    for v, rows in report.get("rank_shares", {}).items():
        for r in rows:
            found[(v, r["strategy"], LAST)] = list(r["shares"].values())[-1]
    return found


def profile(report: dict[str, Any]) -> dict[str, Any]:
    """The strategy profile: one point per variant and strategy, the game's ``PROFILE`` axes (x the
    risk, y the reward) with both intervals; strategies lacking either axis are left out."""
    game = str(report["run"].get("game"))
    x, y = registry.profile_axes(game) or DEFAULT_PROFILE
    found = _intervals(report)
    points = []
    for v in report["variant_order"]:
        for r in report["variants"][v]["by_strategy"]:
            ix, iy = found.get((v, r["strategy"], x)), found.get((v, r["strategy"], y))
            if ix and iy and ix.get("estimate") is not None and iy.get("estimate") is not None:
                points.append({"variant": v, "strategy": r["strategy"], "x": ix, "y": iy})
    return {
        "x": {"metric": x, "label": label(game, x), "percent": is_share(game, x)},
        "y": {"metric": y, "label": label(game, y), "percent": is_share(game, y)},
        "points": points,
    }


@dataclass(frozen=True)
class MetricsTable:
    """One variant's game metrics as strategies × metrics (``cells[(strategy, metric)]``: interval)."""

    variant: str
    strategies: list[str]
    metrics: list[str]
    cells: dict[tuple[str, str], dict[str, Any]]


def metrics_tables(
    game_metrics: list[dict[str, Any]], variants: list[str] | None = None
) -> list[MetricsTable]:
    """The long-form game metrics as tables with strategies as rows and metrics as columns.

    Per variant, rows that share no metric go to separate tables (Riichi's paired differences,
    Suzume-jong's whole-table rates under ``all``), so that no table is mostly empty cells. Rows and
    columns keep the order of first appearance, which is the game package's order; variants come in
    ``variants``' order (the config's: a game package may list them sorted by name).
    """
    tables: list[MetricsTable] = []
    seen = list(dict.fromkeys(str(r["variant"]) for r in game_metrics))
    order = [v for v in variants or [] if v in seen] + [v for v in seen if v not in (variants or [])]
    for v in order:
        rows = [r for r in game_metrics if str(r["variant"]) == v]
        groups: list[tuple[list[str], list[str]]] = []  # (strategies, metrics) of each table
        for s in dict.fromkeys(str(r["strategy"]) for r in rows):
            mine = list(dict.fromkeys(str(r["metric"]) for r in rows if str(r["strategy"]) == s))
            joined = [g for g in groups if set(g[1]) & set(mine)]
            strategies = [x for g in joined for x in g[0]] + [s]
            metrics = list(dict.fromkeys([m for g in joined for m in g[1]] + mine))
            groups = [g for g in groups if g not in joined] + [(strategies, metrics)]
        cells = {(str(r["strategy"]), str(r["metric"])): r for r in rows}
        tables.extend(MetricsTable(v, s, m, cells) for s, m in groups)
    return tables
