"""End-of-run summary: the headline numbers of a run, as JSON-ready data and as terminal tables.

Reads a run only through ``simharness.store`` (``Run.manifest`` and ``Run.table``). Every number
carries a 95% CI; see ``simharness.stats`` for what each interval assumes.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import polars as pl
from rich.console import Console
from rich.table import Table

from simharness.games import registry
from simharness.stats.balance import seat_rank_cells, seat_wins
from simharness.stats.hypotheses import benjamini_hochberg, friedman, holm, seat_advantage_test
from simharness.stats.intervals import cluster_mean_ci, describe
from simharness.stats.paired import Baseline, games_per_deal, paired_difference, per_deal, row_variance
from simharness.stats.sequential import look_scores, sprt_look, stopped_estimate

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


class RunLike(Protocol):
    """What the report needs from ``simharness.store.Run``."""

    path: Path
    manifest: dict[str, Any]

    def table(self, name: str) -> pl.DataFrame: ...


def optional_table(run: RunLike, name: str) -> pl.DataFrame | None:
    """The table ``name`` if the run wrote it (a directory of that name in the run directory)."""
    if not (Path(run.path) / name).is_dir():
        return None
    return run.table(name)


def variant_names(run: RunLike, players: pl.DataFrame) -> list[str]:
    """Variants in manifest order (the first is the baseline of every comparison)."""
    declared = list(run.manifest.get("variants") or {})
    present = set(players["variant"].unique().to_list())
    ordered = [v for v in declared if v in present]
    return ordered + sorted(present - set(ordered))


def players_frame(run: RunLike) -> pl.DataFrame:
    """The players table with ``win`` (the share of first place: 1 for a sole first, 1/k for each of
    k players tied for first under a game's ``ties = shared``) and ``strategy`` (from the lineup if
    not stored)."""
    players = run.table("players")
    if "strategy" not in players.columns:
        slots = {int(s["slot"]): str(s["strategy"]) for s in run.manifest.get("lineup", [])}
        players = players.with_columns(
            pl.col("player").replace_strict(slots, return_dtype=pl.String, default="?").alias("strategy")
        )
    share = (pl.col("rank") == 1).cast(pl.Float64) / (pl.col("rank") == 1).sum().over("variant", "game")
    return players.with_columns(share.alias("win"))


def seat_axis(players: pl.DataFrame) -> str:
    """The turn-order column for seat-advantage questions.

    ``dealer_order`` (seats after the first dealer) when the game records it, since seat 0 need not
    move first; otherwise ``seat``.
    """
    return "dealer_order" if "dealer_order" in players.columns else "seat"


def game_lengths(run: RunLike) -> tuple[pl.DataFrame, str] | None:
    """Per game length (``variant``, ``game``, ``deal``, ``length``) and its unit.

    In order of preference: the ``turns`` column of the games table, its ``hands`` column, the
    number of distinct ``hand`` values (else rows) per game of the ``hands`` table; None when the
    run has none of these.
    """
    games = run.table("games")
    for col in ("turns", "hands"):
        if col in games.columns:
            return games.select("variant", "game", "deal", pl.col(col).cast(pl.Float64).alias("length")), col
    hands = optional_table(run, "hands")
    if hands is None:
        return None
    count = pl.col("hand").n_unique() if "hand" in hands.columns else pl.len()
    counts = hands.group_by("variant", "game").agg(count.cast(pl.Float64).alias("length"))
    lengths = games.select("variant", "game", "deal").join(counts, on=["variant", "game"], how="left")
    return lengths.with_columns(pl.col("length").fill_null(0.0)), "hands"


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
                "win_rate": cluster_mean_ci(g["win"].cast(pl.Float64).to_numpy(), deals).to_dict(),
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


def game_metrics(run: RunLike) -> list[dict[str, Any]]:
    """Rows of ``simharness.games.<game>.summary_metrics(run)`` if the game package defines it."""
    fn = registry.summary_metrics(run.manifest["game"])
    if fn is None:
        return []
    frame: pl.DataFrame = fn(run)
    return [
        {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in row.items()}
        for row in frame.to_dicts()
    ]


def provenance(run: RunLike) -> dict[str, Any]:
    m = run.manifest
    return {
        "path": str(run.path),
        **{k: m.get(k) for k in ("game", "name", "seed", "games", "duplicate")},
        "lineup": m.get("lineup", []),
        "variants": m.get("variants", {}),
        "provenance": m.get("provenance", {}),
        # Set when the run is partial (store.open_run(partial=True)): what is missing.
        "warning": getattr(run, "warning", None),
    }


def commit_label(prov: dict[str, Any]) -> str:
    """The git commit a run was made at, or why there is none."""
    return str(prov.get("git_commit") or "unknown (not run from a git checkout)")


def build_summary(run: RunLike) -> dict[str, Any]:
    """The end-of-run summary as a JSON-ready dict.

    ``variants[v]``: games, deals, ``by_strategy`` and ``by_seat`` (along ``seat_axis``, see
    :func:`seat_axis`): rows, games and deals, win rate and mean final points (CR1 intervals clustered
    by deal) and 5/25/50/75/95% quantiles of final points (Woodruff intervals clustered by deal);
    ``length`` (turns or hands per game, clustered likewise) and ``seat_test`` (Rao-Scott χ² of wins by
    seat vs uniform, clustered by deal). ``differences``: every variant minus the first
    per strategy (win, final_points) and for game length, paired by deal, with Holm and BH adjusted
    p-values. ``omnibus`` (three or more variants): Friedman tests across all variants on the shared
    deals, per strategy for win and final_points. ``game_metrics``: the game module's own metrics.
    """
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
        "game_metrics": game_metrics(run),
        "sequential": sequential_block(run, players),
    }


def sequential_block(run: RunLike, players: pl.DataFrame) -> dict[str, Any] | None:
    """The run's sequential test (``[until]``) with the stopping-aware estimate, if it had one.

    The estimate accounts for the looks actually taken (see ``stats.sequential.stopped_estimate``).
    """
    seq = run.manifest.get("sequential")
    if not seq or not seq.get("looks"):
        return None
    test, result = sprt_look(players, seq, int(seq["games"]))
    d = look_scores(players, seq, int(seq["games"]))
    looks = [int(k["n"]) for k in seq["looks"] if int(k["n"]) > 0]
    est = stopped_estimate(looks, d, test) if len(d) >= 2 and looks else None
    return {
        **{k: seq[k] for k in ("a", "b", "metric", "variant", "mu0", "mu1", "alpha", "beta", "look_every")},
        "games": seq["games"],
        "looks": seq["looks"],
        "result": result.to_dict(),
        "estimate": est.to_dict() if est is not None else None,
    }


def fmt_ci(iv: dict[str, Any] | None, digits: int = 3, pct: bool = False) -> str:
    """``estimate [lo, hi]`` for an interval dict; percentages when ``pct``."""
    if not iv or iv.get("estimate") is None:
        return "–"
    scale, suffix = (100.0, "%") if pct else (1.0, "")
    d = 1 if pct else digits

    def f(x: float | None) -> str:
        return "?" if x is None else f"{x * scale:.{d}f}"

    return f"{f(iv['estimate'])}{suffix} [{f(iv['lo'])}, {f(iv['hi'])}]"


def _fmt_num(x: float | None, digits: int = 4) -> str:
    if x is None:
        return "–"
    return f"{x:.2e}" if x != 0 and abs(x) < 10 ** -(digits - 1) else f"{x:.{digits}f}"


def _group_table(title: str, key: str, rows: list[dict[str, Any]], wide: bool) -> Table:
    t = Table(title=title, title_justify="left")
    cols = [key, "rows (deals)", "win rate [95% CI]", "mean points [95% CI]", "median [95% CI]"]
    for col in [*cols, "p5 / p25 / p75 / p95"] if wide else cols:
        t.add_column(col, justify="left" if col == key else "right")
    for r in rows:
        q = r["points"]["quantiles"]
        cells = [
            str(r[key]),
            f"{r['rows']} ({r['deals']})",
            fmt_ci(r["win_rate"], pct=True),
            fmt_ci(r["points"]["mean"], 1),
            fmt_ci(q["p50"], 0),
        ]
        if wide:
            cells.append(
                " / ".join(
                    f"{q[k]['estimate']:g}" if q[k]["estimate"] is not None else "–"
                    for k in ("p5", "p25", "p75", "p95")
                )
            )
        t.add_row(*cells)
    return t


def print_summary(summary: dict[str, Any], console: Console) -> None:
    """Print the summary as rich tables: per variant by strategy and by seat, then the comparisons."""
    run = summary["run"]
    prov = run.get("provenance") or {}
    console.print(
        f"[bold]{run.get('name')}[/bold] ({run.get('game')}): {run.get('games')} games per variant, "
        f"seed {run.get('seed')}, duplicate={run.get('duplicate')}, "
        f"version {prov.get('simharness_version', prov.get('version', '?'))}, "
        f"commit {commit_label(prov)[:12]}"
    )
    if run.get("warning"):
        console.print(f"[bold yellow]warning:[/] {run['warning']}")
    wide = console.width >= 120  # quantile spread and BH column only when they fit
    for v in summary["variant_order"]:
        b = summary["variants"][v]
        console.print()
        console.rule(f"variant [bold]{v}[/bold]: {b['games']} games, {b['deals']} deals")
        console.print(_group_table("by strategy", "strategy", b["by_strategy"], wide))
        console.print(_group_table(f"by seat ({b['seat_axis']})", "seat", b["by_seat"], wide))
        st = b["seat_test"]
        console.print(
            f"seat advantage: Rao-Scott χ²={_fmt_num(st['statistic'], 2)} (df {st['df'] or 0:.0f}, "
            f"design effect {_fmt_num(st['design_effect'], 2)}), p={_fmt_num(st['pvalue'])}, "
            f"Cohen's w={_fmt_num(st['effect'], 3)}"
        )
        if b["length"]:
            ln = b["length"]
            q = ln["quantiles"]
            console.print(
                f"game length ({ln['unit']}): mean {fmt_ci(ln['mean'], 2)}, median {fmt_ci(q['p50'], 0)}, "
                f"p95 {fmt_ci(q['p95'], 0)}"
            )
    if summary["differences"]:
        console.print()
        t = Table(title=f"differences vs {summary['variant_order'][0]}", title_justify="left")
        cols = ["variant", "strategy", "metric", "difference [95% CI]", "paired", "p", "p Holm"]
        for col in [*cols, "p BH"] if wide else cols:
            t.add_column(col, justify="left" if col in ("variant", "strategy", "metric") else "right")
        for r in summary["differences"]:
            pct = r["metric"] == "win"
            paired = "no"
            if r["paired"]:
                paired = "deal" if r["efficiency"] is None else f"deal, E={r['efficiency']:.2g}"
            cells = [
                r["variant"],
                r["strategy"] or "(game)",
                r["metric"],
                fmt_ci(r["difference"], 2, pct=pct),
                paired,
                _fmt_num(r["pvalue"]),
                _fmt_num(r["p_holm"]),
            ]
            t.add_row(*cells, _fmt_num(r["p_bh"])) if wide else t.add_row(*cells)
        console.print(t)
    for o in summary.get("omnibus", []):
        console.print(
            f"all variants, {o['strategy']} {o['metric']}: Friedman χ²={_fmt_num(o['statistic'], 2)}, "
            f"p={_fmt_num(o['pvalue'])}, Kendall's W={_fmt_num(o['effect'], 3)} ({o['n']} deals)"
        )
    seq = summary.get("sequential")
    if seq:
        r, e = seq["result"], seq["estimate"]
        console.print()
        console.print(
            f"[bold]sequential test[/bold] {seq['a']} − {seq['b']} ({seq['metric']}, {seq['variant']}): "
            f"H0 μ={seq['mu0']:g} vs H1 μ={seq['mu1']:g}, α={seq['alpha']:g}, β={seq['beta']:g}; "
            f"LLR {r['llr']:.3f} in [{r['lower']:.3f}, {r['upper']:.3f}] after {len(seq['looks'])} looks, "
            f"{seq['games']} games per variant, {r['n']} deals → [bold]{r['decision']}[/bold]"
        )
        if e:
            console.print(
                f"stopping-aware estimate of the mean paired difference: {e['estimate']:.4g} "
                f"[{e['lo']:.4g}, {e['hi']:.4g}] (naive mean {e['naive']:.4g})"
            )
    if summary["game_metrics"]:
        console.print()
        t = Table(title="game metrics", title_justify="left")
        for col in ("variant", "strategy", "metric", "estimate [95% CI]", "n"):
            t.add_column(col)
        for r in summary["game_metrics"]:
            t.add_row(
                str(r.get("variant")),
                str(r.get("strategy")),
                str(r.get("metric")),
                fmt_ci({"estimate": r.get("estimate"), "lo": r.get("lo"), "hi": r.get("hi")}, 4),
                str(r.get("n")),
            )
        console.print(t)
