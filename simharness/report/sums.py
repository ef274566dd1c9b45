"""The summary's sufficient statistics, added up chunk by chunk of whole deals.

:class:`SummarySums` turns a chunk's ``players`` (and game lengths) into per-deal sums and keeps only
their moments, histograms of distinct values and (seat, rank) cross-products
(``simharness.stats.streaming``), so its memory depends on the groups and distinct scores, not on
the games. Its outputs have the shapes the in-memory statistics gave (``report.summary``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from simharness.stats.balance import seat_rank_cells
from simharness.stats.hypotheses import ClusterCounts, benjamini_hochberg, holm, seat_advantage_test
from simharness.stats.intervals import Interval
from simharness.stats.keys import shared_deals
from simharness.stats.paired import Baseline, per_deal
from simharness.stats.streaming import (
    FriedmanSums,
    Histogram,
    Moments,
    PairedSums,
    add_into,
    ratio_from_moments,
    reduce_groups,
)

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
METRICS = ("win", "final_points")


@dataclass(frozen=True)
class DealMeans:
    """One group's per-deal means in a chunk: ``deals`` (sorted), the value's ``y`` and ``win``'s."""

    deals: np.ndarray
    y: np.ndarray
    win: np.ndarray


@dataclass
class GroupSums:
    """One group's rows (a variant's strategy, seat or games): counts, per-deal moments, histogram."""

    rows: int = 0
    games: int = 0
    wins: float = 0.0  # Σ win: shares of first place (1/k each for k players tied for first)
    wins_sq: float = 0.0  # Σ win², for the row variance
    win: Moments = field(default_factory=lambda: Moments.empty(2))  # (wins, rows) per deal
    value: Moments = field(default_factory=lambda: Moments.empty(2))  # (Σ value, rows) per deal
    rank_points: Moments = field(default_factory=lambda: Moments.empty(2))  # (Σ rank points, rows) per deal
    low: float = math.inf
    high: float = -math.inf
    hist: Histogram | None = None

    def __iadd__(self, other: GroupSums) -> GroupSums:
        """Another chunk's rows of the group, added as ``SummarySums.add`` adds a chunk's."""
        self.rows += other.rows
        self.games += other.games
        self.wins += other.wins
        self.wins_sq += other.wins_sq
        self.win += other.win
        self.value += other.value
        self.rank_points += other.rank_points
        self.low, self.high = min(self.low, other.low), max(self.high, other.high)
        if other.hist is not None:
            if self.hist is None:
                self.hist = other.hist
            else:
                self.hist += other.hist
        return self

    def row_variance(self, metric: str) -> float:
        """Variance over single rows of ``win`` or of the value (``stats.paired.row_variance``)."""
        if metric != "win":
            return self.hist.row_variance() if self.hist is not None else math.nan
        n, w = self.rows, self.wins
        return (self.wins_sq - w * w / n) / (n - 1) if n > 1 else math.nan

    def distribution(self) -> dict[str, Any]:
        """Mean and quantiles of the value, as ``stats.intervals.describe`` gives them."""
        if self.hist is None or self.rows == 0:
            return {
                "mean": Interval.empty().to_dict(),
                "quantiles": {f"p{round(q * 100)}": Interval.empty().to_dict() for q in QUANTILES},
            }
        # cluster_mean_ci's truncation: a value that is never negative (or a share) has such a mean.
        bounded = self.low >= 0
        mean = ratio_from_moments(
            self.value,
            lower=0.0 if bounded else -math.inf,
            upper=1.0 if bounded and self.high <= 1 else math.inf,
        )
        qs = self.hist.quantiles(QUANTILES)
        return {
            "mean": mean.to_dict(),
            "quantiles": {f"p{round(q * 100)}": i.to_dict() for q, i in qs.items()},
        }


class SummarySums:
    """The summary's sums over the chunks added; ``variant_block``/``differences``/``omnibus`` read them.

    ``seat_axis`` is the turn-order column; ``players`` the players per game (the seat categories).
    """

    def __init__(self, seat_axis: str, players: int) -> None:
        self.seat_axis = seat_axis
        self.players = players
        self.groups: dict[tuple[str, str, Any], GroupSums] = {}  # (variant, kind, key)
        self.seats: dict[str, ClusterCounts] = {}
        self.games: dict[str, int] = {}
        self.deals: dict[str, int] = {}
        self.paired: dict[tuple[str, str | None, str], PairedSums] = {}
        self.friedman: dict[tuple[str, str], FriedmanSums] = {}
        self.unit: str | None = None

    def add(self, players: pl.DataFrame, lengths: pl.DataFrame | None, variants: list[str]) -> None:
        """A chunk: every variant's ``players`` rows (with ``win`` and ``strategy``) of some whole deals,
        and their game lengths (``variant, game, deal, length``) if the run has them."""
        for v, pv in players.partition_by("variant", as_dict=True).items():
            self.games[v[0]] = self.games.get(v[0], 0) + pv["game"].n_unique()
            self.deals[v[0]] = self.deals.get(v[0], 0) + pv["deal"].n_unique()
            _seats, _ranks, cells = seat_rank_cells(pv, self.seat_axis, self.players)
            counts = ClusterCounts.of(cells)
            self.seats[v[0]] = self.seats[v[0]] + counts if v[0] in self.seats else counts
        also = ("rank_points",) if "rank_points" in players.columns else ()
        strategy = self._groups(players, "strategy", "strategy", "final_points", True, also)
        by_seat = players.with_columns(pl.col(self.seat_axis).alias("seat"))
        self._groups(by_seat, "seat", "seat", "final_points", True, also)
        length = None
        if lengths is not None and lengths.height:
            length = self._groups(lengths.with_columns(key=pl.lit(None)), "length", "key", "length", False)
        self._pairs(strategy, length, variants)

    def __iadd__(self, other: SummarySums) -> SummarySums:
        """The sums of a later chunk (``add`` on fresh sums): chunks summed apart (in worker
        processes) and added up in chunk order give the numbers of ``add`` called chunk by chunk
        (``stats.streaming.add_into``)."""
        for mine, theirs in (
            (self.games, other.games),
            (self.deals, other.deals),
            (self.seats, other.seats),
            (self.groups, other.groups),
            (self.paired, other.paired),
            (self.friedman, other.friedman),
        ):
            add_into(mine, theirs)
        self.unit = other.unit
        return self

    def _groups(
        self, frame: pl.DataFrame, kind: str, key: str, value: str, win: bool, also: tuple[str, ...] = ()
    ) -> dict[tuple[str, Any], DealMeans]:
        """Adds the chunk's groups of ``kind`` (and the per-deal sums of rank points, when ``also``
        names them); returns each (variant, key)'s per-deal means for the paired comparisons."""
        red = reduce_groups(frame, ["variant", key], value, "win" if win else None, also)
        per = red.per_deal
        bounds = np.searchsorted(per["_g"], np.arange(len(red.keys) + 1))
        means: dict[tuple[str, Any], DealMeans] = {}
        for i, k in enumerate(red.keys):
            at = slice(bounds[i], bounds[i + 1])
            acc = self.groups.setdefault((k[0], kind, k[1]), GroupSums())
            w, m, x = per["w"][at], per["m"][at], per["x"][at]
            acc.rows += int(m.sum())
            acc.wins += float(w.sum())
            acc.wins_sq += float(per["w2"][at].sum())
            acc.games += int(red.games[i])
            acc.win += Moments.of(w, m)
            acc.value += Moments.of(x, m)
            if also:
                acc.rank_points += Moments.of(per[also[0]][at], m)
            acc.low, acc.high = min(acc.low, float(red.low[i])), max(acc.high, float(red.high[i]))
            if acc.hist is None:
                acc.hist = red.hists[i]
            else:
                acc.hist += red.hists[i]
            means[(k[0], k[1])] = DealMeans(per["deal"][at], x / m, w / m)
        return means

    def _pairs(
        self,
        strategy: dict[tuple[str, Any], DealMeans],
        length: dict[tuple[str, Any], DealMeans] | None,
        variants: list[str],
    ) -> None:
        base = variants[0]
        none = DealMeans(np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0))

        def add(key: tuple[str, str | None, str], a: DealMeans, b: DealMeans, col: str) -> None:
            ia, ib = shared_deals(a.deals, b.deals)
            ya, yb = getattr(a, col), getattr(b, col)
            self.paired.setdefault(key, PairedSums()).add(ya[ia], yb[ib], ya, yb)

        strategies = list(dict.fromkeys(s for _v, s in strategy))
        for v in variants[1:]:
            for s in strategies:
                for metric, col in (("win", "win"), ("final_points", "y")):
                    add((v, s, metric), strategy.get((v, s), none), strategy.get((base, s), none), col)
            if length is not None:
                add((v, None, "length"), length.get((v, None), none), length.get((base, None), none), "y")
        if len(variants) > 2:
            for s in strategies:
                arms = [strategy.get((v, s), none) for v in variants]
                common = arms[0].deals
                for arm in arms[1:]:
                    common = np.intersect1d(common, arm.deals, assume_unique=True)
                for metric, col in (("win", "win"), ("final_points", "y")):
                    wide = np.column_stack(
                        [getattr(arm, col)[np.searchsorted(arm.deals, common)] for arm in arms]
                    )
                    acc = self.friedman.setdefault((s, metric), FriedmanSums(np.zeros(len(variants))))
                    acc.add(wide)

    def _rows(self, variant: str, kind: str, out_key: str) -> list[dict[str, Any]]:
        keys = sorted(k for (v, kd, k) in self.groups if v == variant and kd == kind)
        rows = []
        for k in keys:
            g = self.groups[(variant, kind, k)]
            rows.append(
                {
                    out_key: k,
                    "rows": g.rows,
                    "games": g.games,
                    "deals": g.win.n,
                    # Shared first places (ties = shared) make fractional wins; the rate is a mean.
                    "first_places": g.wins,
                    "first_place_rate": ratio_from_moments(g.win, lower=0.0, upper=1.0).to_dict(),
                    "points": g.distribution(),
                    # The mean of rank points (config rank_points), clustered by deal like the rest.
                    "rank_points": ratio_from_moments(g.rank_points).to_dict(),
                }
            )
        return rows

    def variant_block(self, variant: str) -> dict[str, Any]:
        """One variant's tables, as ``report.frames.variant_block`` describes them."""
        seats = self.seats[variant]
        total = np.asarray(seats.total)
        present = np.flatnonzero(total.sum(axis=1) > 0)
        # Wins per (deal, seat): the rank-1 column of every seat that has rows.
        wins = seats.select(present * self.players, (len(present),))
        length = self.groups.get((variant, "length", None))
        return {
            "games": self.games[variant],
            "deals": self.deals[variant],
            "by_strategy": self._rows(variant, "strategy", "strategy"),
            "seat_axis": self.seat_axis,
            "by_seat": self._rows(variant, "seat", "seat"),
            "seat_test": seat_advantage_test(wins).to_dict(),
            "length": {"unit": self.unit, **length.distribution()}
            if length is not None and length.rows
            else None,
        }

    def histograms(self, kind: str) -> pl.DataFrame:
        """Rows per distinct value of every group of ``kind`` (``strategy``, ``seat`` or ``length``):
        ``variant``, ``key``, ``value``, ``count``, sorted; what ECDFs and survival curves draw."""
        parts = [
            g.hist.compact().frame.select("value", "count").with_columns(variant=pl.lit(v), key=pl.lit(k))
            for (v, kd, k), g in self.groups.items()
            if kd == kind and g.hist is not None
        ]
        if not parts:
            return pl.DataFrame(
                schema={"variant": pl.String, "key": pl.String, "value": pl.Float64, "count": pl.Int64}
            )
        return pl.concat(parts, how="vertical_relaxed").select("variant", "key", "value", "count")

    def differences(self, variants: list[str]) -> list[dict[str, Any]]:
        """Every variant minus the first, per strategy (win, final points) and for length, paired by deal,
        with Holm and BH adjusted p-values (``report.summary.build_summary``'s ``differences``)."""
        base = variants[0]
        out: list[dict[str, Any]] = []
        strategies = sorted({k for (_v, kind, k) in self.groups if kind == "strategy"})
        for v in variants[1:]:
            for s in strategies:
                a, b = self.groups.get((v, "strategy", s)), self.groups.get((base, "strategy", s))
                if a is None or b is None:
                    continue
                for metric in METRICS:
                    out.append(self._difference(v, base, s, metric, a, b))
            a, b = self.groups.get((v, "length", None)), self.groups.get((base, "length", None))
            if a is not None and b is not None:
                out.append(self._difference(v, base, None, "length", a, b))
        ps = np.array([r["pvalue"] if r["pvalue"] is not None else math.nan for r in out], dtype=float)
        for r, h, bh in zip(out, holm(ps), benjamini_hochberg(ps), strict=True):
            r["p_holm"] = None if math.isnan(h) else float(h)
            r["p_bh"] = None if math.isnan(bh) else float(bh)
        return out

    def _difference(
        self, v: str, base: str, s: str | None, metric: str, a: GroupSums, b: GroupSums
    ) -> dict[str, Any]:
        baseline = Baseline(
            a.row_variance(metric), b.row_variance(metric), b.games / b.win.n if b.win.n else math.nan
        )
        r = self.paired[(v, s, metric)].result(baseline=baseline)
        return {"variant": v, "baseline": base, "strategy": s, "metric": metric, **r.to_dict()}

    def omnibus(self) -> list[dict[str, Any]]:
        """Friedman tests per strategy and metric over the deals shared by every variant (none for a
        strategy that does not play in every variant: a lineup variant's, a challenger)."""
        return [
            {"strategy": s, "metric": metric, **self.friedman[(s, metric)].result().to_dict()}
            for s in sorted({s for s, _m in self.friedman})
            for metric in METRICS
            if (s, metric) in self.friedman and self.friedman[(s, metric)].blocks
        ]


class Arm:
    """One strategy's rows, reduced: moments of single rows (the unit of independent play), of the
    per-deal (sum, count) pairs (its deal-clustered mean) and the range of a row's value."""

    def __init__(self) -> None:
        self.rows = Moments.empty(1)
        self.deals = Moments.empty(2)
        self.lo, self.hi = math.inf, -math.inf

    def __iadd__(self, other: Arm) -> Arm:
        """Another chunk's rows of the arm (``add`` on a fresh arm)."""
        self.rows += other.rows
        self.deals += other.deals
        self.lo, self.hi = min(self.lo, other.lo), max(self.hi, other.hi)
        return self

    def add(self, rows: pl.DataFrame) -> pl.DataFrame:
        """Adds a chunk's rows of this arm; returns their per-deal means (``per_deal``)."""
        y = rows["y"].cast(pl.Float64).to_numpy()
        self.rows += Moments.of(y)
        if len(y):
            self.lo, self.hi = min(self.lo, float(y.min())), max(self.hi, float(y.max()))
        deals = per_deal(rows, "y")
        self.deals += Moments.of((deals["y"] * deals["m"]).to_numpy(), deals["m"].to_numpy())
        return deals

    def mean(self) -> Interval:
        """``cluster_mean_ci`` of the rows by deal, from the per-deal sums."""
        bounded = self.lo >= 0
        return ratio_from_moments(
            self.deals,
            lower=0.0 if bounded else -math.inf,
            upper=1.0 if bounded and self.hi <= 1 else math.inf,
        )
