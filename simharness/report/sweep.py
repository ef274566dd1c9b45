"""Which house rules matter: the effects of a one-option-at-a-time sweep (a run with ``[sweep]``).

Every variant ``<option>-<value>`` is compared with ``base`` on the same deals. A variant whose
tables equal the base's row for row played exactly the base's games: it is listed apart under "no
effect with this lineup" (the strategies never reach what the option governs), never tested. The
other variants' effects are the report's own paired differences (``build_report``: each strategy's
1st-place share and mean final points, game length, and the scorecard's seat advantage, skill
gradient, drama and bust rate), with their CIs, Holm-adjusted over the whole sweep, and shown per
option as a tornado: the range of an option's effects over its values, each end named by its value,
options with an effect significant after Holm first, then by size.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from simharness import vocabulary
from simharness.report.frames import RunLike
from simharness.report.full import build_report
from simharness.report.html import CSS
from simharness.report.htmlkit import png
from simharness.report.textfit import digits_for, fmt_ci
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
    for t in run.manifest.tables:
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
        self.manifest = replace(run.manifest, variants={v: run.manifest.variants[v] for v in keep})
        self.tables = list(run.manifest.tables)
        self._keep, self._games, self._read = keep, games, read

    def table(self, name: str) -> pl.DataFrame:
        return self._read(name).filter(pl.col("variant").is_in(self._keep) & (pl.col("game") < self._games))


def _views(run: RunLike) -> list[RunLike]:
    """The run itself, or (a sweep stopped per variant) one view per number of games played, holding
    the base and the variants that played that many, so every effect pairs the deals both played."""
    seq = run.manifest.sweep_sequential
    if seq is None:
        return [run]
    cache: dict[str, pl.DataFrame] = {}

    def read(name: str) -> pl.DataFrame:
        if name not in cache:
            cache[name] = run.table(name)
        return cache[name]

    by_games: dict[int, list[str]] = {}
    for v, r in seq.variants.items():
        by_games.setdefault(r.games, []).append(v)
    return [_Prefix(run, [BASE, *vs], g, read) for g, vs in sorted(by_games.items())]


def build_sweep(run: RunLike) -> dict[str, Any]:
    """The sweep as JSON-ready data: ``no_effect`` (variants, with their option), ``effects`` (one
    row per variant and metric: difference vs base with CI, p and Holm p over all rows), ``tornado``
    (per metric, per option the lowest and highest estimate with their values, the smallest Holm p
    and every value's effect; see :func:`tornado`), ``reports`` (the full reports the effects come
    from: one, or with ``[sweep.until]`` one per number of games played) and ``sequential`` (the
    manifest's per-variant tests, if the sweep had them)."""
    variants = list(run.manifest.variants)
    seq = run.manifest.sweep_sequential
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
        "sequential": seq.to_json() if seq is not None else None,
    }


ALPHA = 0.05
BAR = 12  # characters of the largest effect's bar in a terminal table


def value_of(variant: str) -> str:
    """The option value a sweep variant plays, as in its name: ``payout_cap-none`` → ``none``."""
    option = option_of(variant) or ""
    return variant[len(option) + 1 :]


def significant(bar_or_row: dict[str, Any]) -> bool:
    p = bar_or_row["p_holm"]
    return p is not None and p < ALPHA


def tornado(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per metric: per option the range of its values' effects (``low``/``high`` with the values
    behind them, ``low_value``/``high_value``), the smallest Holm p of its values and every value's
    effect (``values``). Options with an effect significant after Holm come first, then the rest,
    each group largest effect first: a large estimate with Holm p = 1 is noise and never leads."""
    out: dict[str, list[dict[str, Any]]] = {}
    for metric in dict.fromkeys(r["metric"] for r in rows):
        by_option: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            if r["metric"] == metric and r["difference"]["estimate"] is not None:
                by_option.setdefault(r["option"], []).append(r)
        bars = []
        for option, rs in by_option.items():
            lo = min(rs, key=lambda r: r["difference"]["estimate"])
            hi = max(rs, key=lambda r: r["difference"]["estimate"])
            ps = [r["p_holm"] for r in rs if r["p_holm"] is not None]
            bars.append({
                "option": option,
                "low": lo["difference"]["estimate"], "low_value": value_of(lo["variant"]),
                "high": hi["difference"]["estimate"], "high_value": value_of(hi["variant"]),
                "size": max(abs(r["difference"]["estimate"]) for r in rs),
                "p_holm": min(ps) if ps else None,
                "variants": [r["variant"] for r in rs],
                "values": [
                    {"value": value_of(r["variant"]), "difference": r["difference"], "p_holm": r["p_holm"]}
                    for r in rs
                ],
            })  # fmt: skip
        out[metric] = sorted(bars, key=lambda b: (not significant(b), -b["size"]))
    return out


def is_share(metric: str) -> bool:
    """Whether a sweep metric is a share of games, shown in percentage points."""
    return metric.startswith("win[") or vocabulary.percent("", metric)


def _effect(metric: str, values: list[dict[str, Any]]) -> str:
    """``+1.2 pp (none)``: an effect to the precision of its interval, with the values it belongs
    to (several when they tie)."""
    iv = values[0]["difference"]
    pct = is_share(metric)
    scale, unit = (100.0, " pp") if pct else (1.0, "")
    digits = digits_for(iv, scale)
    names = ", ".join(v["value"] for v in values)
    return f"{iv['estimate'] * scale:+.{digits}f}{unit} ({names})"


def print_sweep(sweep: dict[str, Any], console: Console, *, rows: int | None = 15) -> None:
    """Per metric, the options ranked by significance then size, ``rows`` of them (None: all), with
    a line saying how many are hidden and how to see them; then the options with no effect."""
    if any(sweep["tornado"].values()):
        console.print(
            "Each option's smallest and largest effect against base over its values (the value in "
            f"brackets), paired by deal; options with Holm p < {ALPHA:g} over the whole sweep first, "
            "then by size; dim rows are not significant."
        )
    for metric, bars in sweep["tornado"].items():
        if not bars:
            continue
        shown = bars if rows is None else bars[:rows]
        scale = max(b["size"] for b in bars) or 1.0
        hits = sum(significant(b) for b in bars)
        # escape: "win[greedy]" is a metric name, not rich markup
        t = Table(
            title=f"{escape(metric)}: {hits} of {len(bars)} options with Holm p < {ALPHA:g}",
            title_justify="left",
        )
        for col in ("option", "low (value)", "high (value)", "Holm p", ""):
            t.add_column(col, justify="left" if col in ("option", "") else "right")
        for b in shown:
            bar = "█" * round(BAR * b["size"] / scale)
            p = "–" if b["p_holm"] is None else f"{b['p_holm']:.2g}"
            at = {x: [v for v in b["values"] if v["difference"]["estimate"] == b[x]] for x in ("low", "high")}
            if b["low"] == b["high"]:  # one value, or all alike: the effect once, on its side of the base
                one = _effect(metric, at["low"])
                low, high = (one, "–") if b["low"] < 0 else ("–", one)
            else:
                low, high = _effect(metric, at["low"]), _effect(metric, at["high"])
            t.add_row(escape(b["option"]), escape(low), escape(high), p, bar,
                      style=None if significant(b) else "dim")  # fmt: skip
        console.print(t)
        hidden = bars[len(shown) :]
        if hidden:
            sig = sum(significant(b) for b in hidden)
            console.print(
                f"  {len(hidden)} more option{'s' if len(hidden) > 1 else ''} not shown "
                f"({sig} with Holm p < {ALPHA:g}); --rows all shows every option"
            )
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


def tornado_figure(metric: str, bars: list[dict[str, Any]]) -> Any:
    """One option per row: the bar spans the base (0) and the option's values' effects, red when
    Holm p < ALPHA; each value's effect is a dot with its 95% CI, labelled with the value."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    height = 0.5 * len(bars) + 1.4
    fig, ax = plt.subplots(figsize=(8, height))
    ys = np.arange(len(bars))[::-1]
    for y, b in zip(ys, bars, strict=True):
        lo, hi = min(b["low"], 0.0), max(b["high"], 0.0)
        ax.barh(y, hi - lo, left=lo, height=0.6, color="#e8a0a0" if significant(b) else "#d0d0d0")
        for k, v in enumerate(b["values"]):
            iv = v["difference"]
            est = iv["estimate"]
            err = None
            if iv.get("lo") is not None and iv.get("hi") is not None:
                err = [[est - iv["lo"]], [iv["hi"] - est]]
            color = "#a00" if significant(v) else "#555"
            ax.errorbar(est, y, xerr=err, fmt="o", ms=3.5, color=color, ecolor=color, elinewidth=1, capsize=2)
            # Alternate values above and below their dot, so that neighbours' labels do not overlap.
            above = k % 2 == 0
            ax.annotate(v["value"], (est, y), xytext=(0, 5 if above else -5), textcoords="offset points",
                        ha="center", va="bottom" if above else "top", fontsize=7, color=color)  # fmt: skip
    ax.set_yticks(ys, [b["option"] for b in bars], fontsize=9)
    ax.set_ylim(-0.7, len(bars) - 0.3)
    ax.axvline(0, color="k", lw=0.8)
    ax.set_xlabel(f"{metric}: variant − base")
    ax.legend(
        handles=[
            Patch(color="#e8a0a0", label=f"option with Holm p < {ALPHA:g}"),
            Patch(color="#d0d0d0", label="option not significant"),
            Line2D([], [], color="#555", marker="o", ms=3.5, label="a value's effect, 95% CI"),
            Line2D([], [], color="k", lw=0.8, label="base"),
        ],
        loc="upper center", bbox_to_anchor=(0.5, -0.55 / (0.77 * height)), ncol=4, fontsize=8,
        frameon=False,
    )  # fmt: skip
    return fig


def write_sweep_html(sweep: dict[str, Any], path: Path) -> None:
    """A self-contained page: one tornado chart per metric, the effects table and the no-effect list."""
    import matplotlib

    matplotlib.use("Agg")

    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>simharness sweep</title>",
        f"<style>{CSS}</style></head><body><h1>Which house rules matter</h1>",
        "<p>Each option's effect on the metric against the base rules, paired by deal: the bar spans the "
        "base and the option's values, each value a dot with its 95% interval. Options with an effect "
        f"significant after Holm over the whole sweep (p &lt; {ALPHA:g}) come first, then the rest; "
        "each group largest effect first.</p>",
    ]
    for metric, bars in sweep["tornado"].items():
        if not bars:
            continue
        parts.append(
            f"<h2>{html.escape(metric)}</h2><img alt='{html.escape(metric)} tornado' "
            f"src='data:image/png;base64,{png(tornado_figure(metric, bars))}'>"
        )
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
