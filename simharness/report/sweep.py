"""Which house rules matter: the effects of a one-option-at-a-time sweep (a run with ``[sweep]``).

Every variant ``<option>-<value>`` is compared with ``base`` on the same deals. A variant whose
tables equal the base's row for row played exactly the base's games: it is listed apart under "no
effect with this lineup" (the strategies never reach what the option governs), never tested. The
other variants' effects are the report's own paired differences (``build_report``: each strategy's
1st-place share and mean final points, game length, and the scorecard's seat advantage, skill
gradient, drama and bust rate), with their CIs, Holm-adjusted over the whole sweep, and shown per
option as a tornado: the range of an option's effects over its values, options sorted by size.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from simharness.report.full import build_report
from simharness.report.summary import RunLike, fmt_ci
from simharness.stats.hypotheses import holm
from simharness.sweep import BASE, option_of, same_games

# Scorecard metrics that enter the sweep (the summary adds per-strategy win and final_points, and length).
SCORECARD_METRICS = ("first_seat_win_rate", "skill_gradient", "drama", "bust_rate")


def metric_name(difference: dict[str, Any]) -> str:
    """A summary difference's metric as the sweep names it: ``win[<strategy>]``, ``length``."""
    strategy = difference["strategy"]
    return difference["metric"] if strategy is None else f"{difference['metric']}[{strategy}]"


def _variant_tables(run: RunLike, variant: str) -> dict[str, pl.DataFrame]:
    out = {}
    for t in run.manifest["tables"]:
        df = run.table(t).filter(pl.col("variant") == variant).drop("variant")
        out[t] = df.sort(df.columns)
    return out


def no_effect_variants(run: RunLike, variants: list[str]) -> list[str]:
    """The variants that played exactly the base's games (every table equal row for row)."""
    base = _variant_tables(run, BASE)
    return [v for v in variants if v != BASE and same_games(_variant_tables(run, v), base)]


class _Prefix:
    """The base and some variants of a run, each cut to its first ``games`` games: the deals that a
    variant stopped early by ``[sweep.until]`` shares with the base."""

    def __init__(
        self, run: RunLike, keep: list[str], games: int, read: Callable[[str], pl.DataFrame]
    ) -> None:
        self.path = run.path
        self.manifest = {**run.manifest, "variants": {v: run.manifest["variants"][v] for v in keep}}
        self.tables = list(run.manifest["tables"])
        self._keep, self._games, self._read = keep, games, read

    def table(self, name: str) -> pl.DataFrame:
        return self._read(name).filter(pl.col("variant").is_in(self._keep) & (pl.col("game") < self._games))


def _views(run: RunLike) -> list[RunLike]:
    """The run itself, or (a sweep stopped per variant) one view per number of games played, holding
    the base and the variants that played that many, so every effect pairs the deals both played."""
    seq = run.manifest.get("sweep_sequential")
    if not seq:
        return [run]
    cache: dict[str, pl.DataFrame] = {}

    def read(name: str) -> pl.DataFrame:
        if name not in cache:
            cache[name] = run.table(name)
        return cache[name]

    by_games: dict[int, list[str]] = {}
    for v, r in seq["variants"].items():
        by_games.setdefault(int(r["games"]), []).append(v)
    return [_Prefix(run, [BASE, *vs], g, read) for g, vs in sorted(by_games.items())]


def build_sweep(run: RunLike) -> dict[str, Any]:
    """The sweep as JSON-ready data: ``no_effect`` (variants, with their option), ``effects`` (one
    row per variant and metric: difference vs base with CI, p and Holm p over all rows), ``tornado``
    (per metric, per option the lowest and highest estimate and the smallest Holm p, sorted by the
    largest absolute estimate), ``reports`` (the full reports the effects come from: one, or with
    ``[sweep.until]`` one per number of games played) and ``sequential`` (the manifest's per-variant
    tests, if the sweep had them)."""
    variants = list(run.manifest.get("variants") or {})
    if BASE not in variants:
        raise ValueError(f'not a sweep run: it has no variant "{BASE}"')
    silent: set[str] = set()
    rows: list[dict[str, Any]] = []
    reports = []
    for view in _views(run):
        report = build_report(view)
        reports.append(report)
        silent |= set(no_effect_variants(view, report["variant_order"]))
        for d in report["differences"]:
            rows.append({"variant": d["variant"], "metric": metric_name(d), "difference": d["difference"],
                         "pvalue": d["pvalue"]})  # fmt: skip
        for d in report["scorecard"]["differences"]:
            if d["metric"] in SCORECARD_METRICS:
                rows.append({k: d[k] for k in ("variant", "metric", "difference", "pvalue")})
    order = {v: i for i, v in enumerate(variants)}
    rows.sort(key=lambda r: order[r["variant"]])
    rows = [{**r, "option": option_of(r["variant"])} for r in rows if r["variant"] not in silent]
    ps = np.array([np.nan if r["pvalue"] is None else r["pvalue"] for r in rows], dtype=float)
    for r, h in zip(rows, holm(ps) if len(rows) else [], strict=True):
        r["p_holm"] = None if np.isnan(h) else float(h)
    return {
        "base": BASE,
        "variants": [v for v in variants if v != BASE],
        "no_effect": [{"variant": v, "option": option_of(v)} for v in variants if v in silent],
        "effects": rows,
        "tornado": tornado(rows),
        "reports": reports,
        "sequential": run.manifest.get("sweep_sequential"),
    }


def tornado(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per metric: per option the range of its variants' estimates, largest effect first."""
    out: dict[str, list[dict[str, Any]]] = {}
    for metric in dict.fromkeys(r["metric"] for r in rows):
        by_option: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            if r["metric"] == metric and r["difference"]["estimate"] is not None:
                by_option.setdefault(r["option"], []).append(r)
        bars = []
        for option, rs in by_option.items():
            est = [r["difference"]["estimate"] for r in rs]
            ps = [r["p_holm"] for r in rs if r["p_holm"] is not None]
            bars.append(
                {"option": option, "low": min(est), "high": max(est), "size": max(abs(e) for e in est),
                 "p_holm": min(ps) if ps else None, "variants": [r["variant"] for r in rs]}
            )  # fmt: skip
        out[metric] = sorted(bars, key=lambda b: -b["size"])
    return out


def print_sweep(sweep: dict[str, Any], console: Console, *, top: int = 15) -> None:
    """Per metric, the options with the largest effects; then the options with no effect."""
    for metric, bars in sweep["tornado"].items():
        if not bars:
            continue
        scale = max(b["size"] for b in bars) or 1.0
        # escape: "win[greedy]" is a metric name, not rich markup
        t = Table(
            title=f"{escape(metric)}: effect vs base (range over each option's values)", title_justify="left"
        )
        for col in ("option", "low", "high", "Holm p", ""):
            t.add_column(col, justify="left" if col in ("option", "") else "right")
        for b in bars[:top]:
            bar = "█" * round(20 * b["size"] / scale)
            p = "–" if b["p_holm"] is None else f"{b['p_holm']:.2g}"
            t.add_row(b["option"], f"{b['low']:+.4g}", f"{b['high']:+.4g}", p, bar)
        console.print(t)
    seq = sweep.get("sequential")
    if seq:
        t = Table(
            title=f"sequential tests vs base on {escape(seq['metric'])} (|effect| {seq['mu1']:g}, "
            f"α {seq['alpha']:g} over the sweep: {seq['alpha_per_side']:.3g} per side)",
            title_justify="left",
        )
        for col in ("variant", "decision", "games", "looks", "mean difference"):
            t.add_column(col, justify="left" if col in ("variant", "decision") else "right")
        for v, r in seq["variants"].items():
            last = r["looks"][-1] if r["looks"] else {}
            mean = last.get("mean")
            t.add_row(
                v,
                r["decision"],
                f"{r['games']:,}",
                str(len(r["looks"])),
                "–" if mean is None else f"{mean:+.4g}",
            )
        console.print(t)
    silent = sweep["no_effect"]
    if silent:
        console.print(
            "\nno effect with this lineup (the variant played exactly the base's games): "
            + ", ".join(s["variant"] for s in silent)
        )


def write_sweep_html(sweep: dict[str, Any], path: Path) -> None:
    """A self-contained page: one tornado chart per metric, the effects table and the no-effect list."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from simharness.report.html import CSS, _png

    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>simharness sweep</title>",
        f"<style>{CSS}</style></head><body><h1>Which house rules matter</h1>",
        "<p>Each option's effect on the metric against the base rules, paired by deal; the bar spans the "
        "option's values, options sorted by the largest effect. Holm-adjusted over the whole sweep.</p>",
    ]
    for metric, bars in sweep["tornado"].items():
        if not bars:
            continue
        fig, ax = plt.subplots(figsize=(7, 0.3 * len(bars) + 1))
        ys = np.arange(len(bars))[::-1]
        for y, b in zip(ys, bars, strict=True):
            lo, hi = min(b["low"], 0.0), max(b["high"], 0.0)
            ax.barh(y, hi - lo, left=lo, color="#c44" if (b["p_holm"] or 1) < 0.05 else "#999")
        ax.set_yticks(ys, [b["option"] for b in bars], fontsize=7)
        ax.axvline(0, color="k", lw=0.8)
        ax.set_title(metric)
        parts.append(f"<h2>{html.escape(metric)}</h2><img src='data:image/png;base64,{_png(fig)}'>")
    parts.append("<h2>Effects</h2><table><tr><th>variant</th><th>metric</th><th>difference [95% CI]</th>"
                 "<th>Holm p</th></tr>")  # fmt: skip
    for r in sweep["effects"]:
        p = "–" if r["p_holm"] is None else f"{r['p_holm']:.3g}"
        parts.append(
            f"<tr><td>{html.escape(r['variant'])}</td><td>{html.escape(r['metric'])}</td>"
            f"<td>{html.escape(fmt_ci(r['difference'], 4))}</td><td>{p}</td></tr>"
        )
    parts.append("</table>")
    seq = sweep.get("sequential")
    if seq:
        parts.append(
            f"<h2>Sequential tests vs base</h2><p>{html.escape(seq['metric'])}, |effect| {seq['mu1']:g}, "
            f"α {seq['alpha']:g} over the sweep ({seq['alpha_per_side']:.3g} per side, Bonferroni); "
            "each variant's effects above use the deals it played.</p>"
            "<table><tr><th>variant</th><th>decision</th><th>games</th><th>looks</th></tr>"
        )
        for v, r in seq["variants"].items():
            parts.append(
                f"<tr><td>{html.escape(v)}</td><td>{html.escape(r['decision'])}</td>"
                f"<td>{r['games']:,}</td><td>{len(r['looks'])}</td></tr>"
            )
        parts.append("</table>")
    parts.append("<h2>No effect with this lineup</h2><p>")
    parts.append(", ".join(html.escape(s["variant"]) for s in sweep["no_effect"]) or "none")
    parts.append("</p></body></html>")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(parts), encoding="utf-8")
