"""The report of a ``[challengers]`` design: each challenger against the field and against each other.

The design (``designs.challengers``) plays one variant per challenger (the challenger in one seat,
copies of the field in the others; duplicate play seats it in every seat of every deal) and the
field's own variant (the field in every seat), all on the same keyed deals. A challenger's score on
a deal is its mean over its rows there, one per seat; the field's is its mean over its variant's
rows on that deal, so that a difference compares the challenger with the field in the same seats
of the same deals (the duplicate-bridge comparison). Every interval is the paired t interval of
the per-deal differences (``stats.paired``); p-values are Holm-adjusted within each metric over all
its comparisons (each challenger against the field, and every pair of challengers).

Read chunk by chunk like the rest of the report: the sums are moments, never the deals.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import polars as pl
from rich.console import Console
from rich.markup import escape

from simharness import vocabulary
from simharness.report.htmlkit import esc, html_table
from simharness.report.sums import Arm
from simharness.report.textfit import Col, fmt_ci, print_fitted
from simharness.stats.hypotheses import holm
from simharness.stats.paired import Baseline
from simharness.stats.streaming import Moments, PairedSums, add_into

# The report's columns a challenger is ranked on (``report.frames.players_frame``), the last first.
METRICS = ("win", "final_points", "rank_points")
NAMES = {
    m: vocabulary.name(k)
    for m, k in (
        ("win", "first_place_rate"),
        ("final_points", "final_points"),
        ("rank_points", "rank_points"),
    )
}


class ChallengerSums:
    """The sums of a challenger design over the chunks added (``design``: the manifest's ``challengers``)."""

    def __init__(self, design: Mapping[str, Any]) -> None:
        self.field = str(design["field"])
        self.field_variant = str(design["field_variant"])
        self.challengers: dict[str, str] = dict(design["challengers"])  # variant → strategy
        arms = [self.field_variant, *self.challengers]
        self.arms = {(m, a): Arm() for m in METRICS for a in arms}
        self.comparisons = [(c, self.field_variant) for c in self.challengers] + list(
            itertools.combinations(self.challengers, 2)
        )
        self.paired = {(m, a, b): PairedSums() for m in METRICS for a, b in self.comparisons}
        self.games_per_deal = Moments.empty(1)

    def add(self, players: pl.DataFrame) -> None:
        """A chunk's players rows (``report.frames.players_frame``) of some whole deals."""
        field = players.filter(pl.col("variant") == self.field_variant)
        self.games_per_deal += Moments.of(
            field.group_by("deal").agg(pl.col("game").n_unique())["game"].to_numpy()
        )
        rows = {self.field_variant: field.filter(pl.col("strategy") == self.field)}
        for v, s in self.challengers.items():
            rows[v] = players.filter((pl.col("variant") == v) & (pl.col("strategy") == s))
        for m in METRICS:
            deals = {a: self.arms[(m, a)].add(r.with_columns(pl.col(m).alias("y"))) for a, r in rows.items()}
            for a, b in self.comparisons:
                joined = deals[a].join(deals[b], on="deal", suffix="_b")
                self.paired[(m, a, b)].add(
                    joined["y"].to_numpy(),
                    joined["y_b"].to_numpy(),
                    deals[a]["y"].to_numpy(),
                    deals[b]["y"].to_numpy(),
                )

    def __iadd__(self, other: ChallengerSums) -> ChallengerSums:
        """A later chunk's sums of the same design (``add`` on fresh sums)."""
        self.games_per_deal += other.games_per_deal
        add_into(self.arms, other.arms)
        add_into(self.paired, other.paired)
        return self

    def _compare(self, m: str, a: str, b: str) -> dict[str, Any]:
        ra, rb = self.arms[(m, a)], self.arms[(m, b)]
        baseline = Baseline(ra.rows.var(0), rb.rows.var(0), float(self.games_per_deal.mean[0]))
        r = self.paired[(m, a, b)].result(baseline=baseline).to_dict()
        return {
            "a": a,
            "b": b,
            "metric": m,
            **{k: r[k] for k in ("difference", "pvalue", "efficiency", "rho")},
        }

    def result(self) -> dict[str, Any]:
        """JSON-ready: ``ranking`` (challengers by rank points against the field, best first; per
        metric the challenger's mean and its difference from the field) and ``pairs`` (every pair of
        challengers, per metric), with Holm-adjusted p-values (``p_holm``) per metric."""
        compared = [self._compare(m, a, b) for m in METRICS for a, b in self.comparisons]
        for m in METRICS:
            own = [c for c in compared if c["metric"] == m]
            ps = np.array([c["pvalue"] if c["pvalue"] is not None else math.nan for c in own], dtype=float)
            for c, h in zip(own, holm(ps), strict=True):
                c["p_holm"] = None if math.isnan(h) else float(h)
        vs_field = {(c["metric"], c["a"]): c for c in compared if c["b"] == self.field_variant}
        ranking: list[dict[str, Any]] = [
            {
                "challenger": v,
                "strategy": s,
                **{
                    m: {"mean": self.arms[(m, v)].mean().to_dict(), "vs_field": vs_field[(m, v)]}
                    for m in METRICS
                },
            }
            for v, s in self.challengers.items()
        ]
        ranking.sort(key=lambda r: -_estimate(r["rank_points"]["vs_field"]))
        return {
            "field": self.field,
            "field_variant": self.field_variant,
            "field_means": {m: self.arms[(m, self.field_variant)].mean().to_dict() for m in METRICS},
            "deals": self.paired[(METRICS[0], self.comparisons[0][0], self.comparisons[0][1])].pairs.n,
            "games_per_deal": float(self.games_per_deal.mean[0]) if self.games_per_deal.n else None,
            "ranking": ranking,
            "pairs": [c for c in compared if c["b"] != self.field_variant],
        }


def _estimate(c: dict[str, Any]) -> float:
    e = c["difference"].get("estimate")
    return -math.inf if e is None else float(e)


def _p(x: float | None) -> str:
    return "–" if x is None else f"{x:.2e}" if 0 < x < 1e-3 else f"{x:.3f}"


def ranking_cells(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The ranking as a header and rows of text (terminal and HTML)."""
    header = ["challenger"]
    for m in METRICS:
        header += [f"{NAMES[m]} − field [95% CI]", "p Holm"]
    header.append("E (rank points)")
    rows = []
    for r in result["ranking"]:
        row = [r["challenger"]]
        for m in METRICS:
            c = r[m]["vs_field"]
            row += [fmt_ci(c["difference"], None, pct=m == "win"), _p(c["p_holm"])]
        e = r["rank_points"]["vs_field"]["efficiency"]
        row.append("–" if e is None else f"{e:.3g}")
        rows.append(row)
    return header, rows


def pair_cells(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Every pair of challengers per metric, as a header and rows of text."""
    header = ["A − B", "metric", "difference [95% CI]", "p Holm", "E"]
    rows = [
        [
            f"{c['a']} − {c['b']}",
            NAMES[c["metric"]],
            fmt_ci(c["difference"], None, pct=c["metric"] == "win"),
            _p(c["p_holm"]),
            "–" if c["efficiency"] is None else f"{c['efficiency']:.3g}",
        ]
        for c in result["pairs"]
    ]
    return header, rows


def print_challengers(result: dict[str, Any], console: Console) -> None:
    console.print()
    console.print(
        f"[bold]challengers[/bold] against the field {escape(result['field'])}: each in every seat of the "
        f"same {result['deals']} deals; paired by deal and seat, Holm over each metric's comparisons"
    )
    header, rows = ranking_cells(result)
    print_fitted(
        console,
        "challengers − field, best rank points first",
        [Col(header[0], right=False)],
        [Col(h) for h in header[1:]],
        [[escape(c) for c in r] for r in rows],
    )
    if result["pairs"]:
        header, rows = pair_cells(result)
        print_fitted(
            console,
            "challenger against challenger",
            [Col(header[0], right=False), Col(header[1], right=False)],
            [Col(h) for h in header[2:]],
            [[escape(c) for c in r] for r in rows],
        )


def challengers_html(result: dict[str, Any]) -> str:
    """The HTML report's section: the ranking and the pairs (values escaped by ``html_table``)."""
    parts = [
        "<h2>Challengers</h2>",
        f"<p class='muted'>Each challenger in every seat of the same {result['deals']} deals against copies "
        f"of the field {esc(result['field'])}; differences paired by deal and seat, p-values Holm-adjusted "
        "over each metric's comparisons; E: pairing efficiency against independent games.</p>",
        html_table(*ranking_cells(result)),
    ]
    if result["pairs"]:
        parts.append(html_table(*pair_cells(result)))
    return "".join(parts)
