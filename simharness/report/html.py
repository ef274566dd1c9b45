"""A self-contained HTML report: tables, matplotlib figures embedded as base64 PNG, provenance and JSON.

The page opens with the strategies at a glance (``glance_html``: profile, rank shares), and ends
with the game metrics by strategy and the extreme games before the provenance.

matplotlib is imported here only (Agg backend), so the CLI starts without it. The page loads no
network resources; a tiny inline script records how many figures decoded (``data-figures-loaded``
on ``<body>``, and ``data-figures-ids``: each decoded figure's id and pixel size), which the
rendering test in headless Chromium reads back.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simharness import vocabulary
from simharness.manifest import Manifest
from simharness.report.challengers import challengers_html
from simharness.report.frames import RunLike
from simharness.report.full import scorecard_rows
from simharness.report.glance_html import Link, extremes_section, glance_section, metrics_section, show_pages
from simharness.report.htmlkit import drawn, finish_panels
from simharness.report.htmlkit import esc as _esc
from simharness.report.htmlkit import figure as _figure
from simharness.report.htmlkit import html_table as _table
from simharness.report.htmlkit import panel_grid as _grid
from simharness.report.htmlkit import png as _png
from simharness.report.stream import collect
from simharness.report.summary import METRIC_NAMES, commit_label, games_label, sequential_lines
from simharness.report.sums import SummarySums
from simharness.report.textfit import fmt_ci
from simharness.report.verdict import verdict_html
from simharness.stats.streaming import linear_quantile

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2em auto;max-width:1200px;color:#222;
padding:0 1em}
h1{margin-bottom:.2em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}
th,td{border:1px solid #ddd;padding:.3em .6em;text-align:right}th{background:#f4f4f4;overflow-wrap:anywhere}
td:first-child,th:first-child{text-align:left}
.good{background:#e3f4e3}.warn{background:#fff4d6}.bad{background:#fbe0e0}
figure{margin:1em 0}figure img{max-width:100%}figcaption{color:#555;font-size:.9em}
pre{background:#f7f7f7;padding:1em;overflow:auto;font-size:.8em;max-height:40em}.muted{color:#666}
details{margin:1em 0}summary{cursor:pointer}
.warning{background:#fff3cd;border:1px solid #e0a800;padding:.5em}
"""

SCRIPT = """
window.addEventListener('error', function () {
  var n = Number(document.body.getAttribute('data-js-errors') || '0');
  document.body.setAttribute('data-js-errors', String(n + 1));
});
window.addEventListener('load', function () {
  try {
    JSON.parse(document.getElementById('report-data').textContent);
    document.body.setAttribute('data-json', 'ok');
  } catch (e) {
    document.body.setAttribute('data-json', 'invalid');
  }
  var imgs = document.querySelectorAll('figure img');
  var ok = 0, ids = [];
  imgs.forEach(function (i) {
    if (i.complete && i.naturalWidth > 0) {
      ok++;
      if (i.parentNode.id) { ids.push(i.parentNode.id + ':' + i.naturalWidth + 'x' + i.naturalHeight); }
    }
  });
  document.body.setAttribute('data-figures-loaded', String(ok));
  document.body.setAttribute('data-figures-total', String(imgs.length));
  document.body.setAttribute('data-figures-ids', ids.join(' '));
});
"""


def figure_ecdf(points: pl.DataFrame, variants: list[str]) -> str:
    """Final-score ECDF per strategy, one panel per variant (ECDFs compare better than histograms).

    ``points``: rows per distinct score, ``variant``, ``key`` (the strategy), ``value``, ``count``
    (``SummarySums.histograms("strategy")``), so the figure never needs the rows themselves.
    """
    import matplotlib.pyplot as plt

    rows, cols = _grid(len(variants), 3)
    fig, axes = plt.subplots(rows, cols, figsize=(4.5 * cols, 3.4 * rows), squeeze=False, sharex=True)
    for ax, v in zip(axes.flat, variants, strict=False):
        pv = points.filter(pl.col("variant") == v)
        for s in pv["key"].unique().sort().to_list():
            h = pv.filter(pl.col("key") == s).sort("value")
            x, cdf = h["value"].to_numpy(), np.cumsum(h["count"].to_numpy())
            cdf = cdf / cdf[-1]
            if len(x) > 2000:  # the 1001 quantiles draw the same curve at a fraction of the points
                at = np.unique(np.searchsorted(cdf, np.linspace(0, 1, 1001)).clip(max=len(x) - 1))
                x, cdf = x[at], cdf[at]
            ax.step(x, cdf, where="post", label=s)
        ax.set_title(v)
        ax.set_xlabel("final points")
        ax.set_ylabel("P(score ≤ x)")
        ax.legend(fontsize=8)
    # A few extreme scores (uncapped payouts) would squash every curve into a vertical line: show the
    # central 99% of all scores (sharex: one limit sets every panel), and say so on the axis.
    pooled = points.group_by("value").agg(pl.col("count").sum()).sort("value")
    if pooled.height:
        values, counts = pooled["value"].to_numpy(), pooled["count"].to_numpy()
        lo, hi = (linear_quantile(values, counts, q) for q in (0.005, 0.995))
        if lo < hi and (values[0] < lo or values[-1] > hi):
            pad = 0.05 * (hi - lo)
            axes.flat[0].set_xlim(lo - pad, hi + pad)
            for ax in axes.flat:
                ax.set_xlabel("final points (central 99%; tails beyond the axis)")
    return finish_panels(fig, axes, len(variants))


def figure_seat_rank(scorecard: dict[str, Any], variants: list[str]) -> str:
    """Share of each final rank by starting seat (rows sum to 1); uniform is 1/players everywhere."""
    import matplotlib.pyplot as plt

    rows, cols = _grid(len(variants), 3)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.4 * rows), squeeze=False)
    for ax, v in zip(axes.flat, variants, strict=False):
        t = scorecard["seat_tests"][v]["seat_rank_counts"]
        counts = np.asarray(t["counts"], dtype=float)
        share = counts / counts.sum(axis=1, keepdims=True)
        im = ax.imshow(share, cmap="RdBu_r", vmin=0, vmax=2 / len(t["ranks"]))
        for (i, j), val in np.ndenumerate(share):
            ax.text(j, i, f"{val:.1%}", ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(t["ranks"])), [str(r) for r in t["ranks"]])
        ax.set_yticks(range(len(t["seats"])), [str(s) for s in t["seats"]])
        ax.set_xlabel("final rank")
        ax.set_ylabel(scorecard["seat_axis"])
        ax.set_title(v)
        fig.colorbar(im, ax=ax, fraction=0.046)
    return finish_panels(fig, axes, len(variants))


def figure_survival(lengths: pl.DataFrame, unit: str, variants: list[str]) -> str:
    """P(game lasts more than L turns/hands) per variant, from rows per distinct length
    (``variant``, ``value``, ``count``: ``SummarySums.histograms("length")``)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for v in variants:
        h = lengths.filter(pl.col("variant") == v).sort("value")
        if h.height == 0:
            continue
        x, cum = h["value"].to_numpy(), np.cumsum(h["count"].to_numpy())
        # Start one unit before the shortest game, where every game is still running.
        ax.step(
            np.concatenate([[x[0] - 1], x]), 1 - np.concatenate([[0], cum]) / cum[-1], where="post", label=v
        )
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel("P(length > L)")
    ax.set_ylim(0, 1.02)
    ax.legend()
    fig.tight_layout()
    return _png(fig)


# A forest panel draws at most this many effects (a sweep of a hundred variants and four strategies
# has four hundred): the ones furthest from 0 for their interval's width, in the table's order.
FOREST_ROWS = 25


def _distance(iv: dict[str, Any]) -> float:
    """How far an effect is from 0 in widths of its interval (infinitely far without a width)."""
    width = iv["hi"] - iv["lo"] if iv["lo"] is not None and iv["hi"] is not None else 0.0
    if width > 0:
        return abs(iv["estimate"]) / width
    return math.inf if iv["estimate"] else 0.0


def _furthest_rows(
    name: str, items: list[tuple[str, dict[str, Any]]]
) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    """A forest panel's title and rows, cut to the :data:`FOREST_ROWS` furthest from 0."""
    if len(items) <= FOREST_ROWS:
        return name, items
    far = sorted(sorted(range(len(items)), key=lambda i: -_distance(items[i][1]))[:FOREST_ROWS])
    return f"{name} (the {FOREST_ROWS} of {len(items)} furthest from 0)", [items[i] for i in far]


def figure_forest(report: dict[str, Any]) -> str | None:
    """Variant effects vs the baseline with 95% CIs: one panel per metric (each in its own unit)."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    panels: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for d in report["differences"]:
        label = d["variant"] + (f" · {d['strategy']}" if d["strategy"] else "")
        name = METRIC_NAMES.get(d["metric"], d["metric"])
        panels.setdefault(f"{name} (by strategy)" if d["strategy"] else name, []).append(
            (label, d["difference"])
        )
    for d in report["scorecard"]["differences"]:
        if d["metric"] != "length":
            panels.setdefault(d["metric"], []).append((d["variant"], d["difference"]))
    panels = {k: [(lbl, iv) for lbl, iv in v if iv["estimate"] is not None] for k, v in panels.items()}
    panels = {k: v for k, v in panels.items() if v}
    if not panels:
        return None
    panels = dict(_furthest_rows(name, items) for name, items in panels.items())
    rows, cols = _grid(len(panels), 4)
    height = max(len(v) for v in panels.values())
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, (0.35 * height + 1.2) * rows), squeeze=False)
    for ax, (name, items) in zip(axes.flat, panels.items(), strict=False):
        y = np.arange(len(items))[::-1]
        est = np.array([iv["estimate"] for _, iv in items])
        lo = np.array([iv["lo"] if iv["lo"] is not None else iv["estimate"] for _, iv in items])
        hi = np.array([iv["hi"] if iv["hi"] is not None else iv["estimate"] for _, iv in items])
        ax.errorbar(est, y, xerr=[est - lo, hi - est], fmt="o", capsize=3)
        ax.axvline(0, color="grey", lw=1, ls="--")
        ax.xaxis.set_major_locator(MaxNLocator(4))  # a narrow panel's tick labels ran into the next one's
        ax.set_yticks(y, [lbl for lbl, _ in items], fontsize=8)
        ax.set_title(name, fontsize=9)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    fig.tight_layout()
    return _png(fig)


def figure_llr(seq: dict[str, Any]) -> str:
    """The sequential test's LLR at each look against its two bounds."""
    import matplotlib.pyplot as plt

    looks = seq["looks"]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    games = [k["games"] for k in looks]
    r = seq["result"]
    lo, hi = r["lower"], r["upper"]
    # A one-sided record has one LLR; a three-outcome one an LLR per side (each against the same bounds).
    sides = (
        [("llr", "LLR")]
        if seq["design"] == "one-sided"
        else [("llr_up", "LLR, A better"), ("llr_down", "LLR, B better")]
    )
    for key, name in sides:
        # A degenerate sample's LLR (±1e9) would flatten the plot; show it just beyond its bound.
        ax.plot(games, np.clip([k[key] for k in looks], 3 * lo, 3 * hi), "o-", label=name)
    ax.axhline(hi, color="tab:green", ls="--", label="accept H1")
    ax.axhline(lo, color="tab:red", ls="--", label="accept H0")
    ax.set_xlabel("games per variant")
    ax.set_ylabel("log-likelihood ratio")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _png(fig)


def _traffic(metric: str, iv: dict[str, Any]) -> str:
    """Green/amber/red for the metrics with a conventional target: fair seats, no runaway first player."""
    e = iv.get("estimate")
    if e is None:
        return ""
    if metric == "balance":
        return "good" if e >= 0.95 else "warn" if e >= 0.9 else "bad"
    return ""


def provenance_section(manifest: Manifest) -> str:
    """Who made the run and how, in one line, with the whole manifest folded below it (it runs to
    screens of JSON: the lineup, every variant's resolved rules, the shards)."""
    prov = manifest.provenance
    facts = [
        f"simharness {prov.get('simharness_version', prov.get('version', '?'))}",
        f"commit {commit_label(dict(prov))}",
        f"seed {manifest.seed}",
        f"{len(manifest.variants)} variants",
    ]
    text = json.dumps(manifest.to_json(), indent=2, default=str)
    return (
        f"<h2>Provenance</h2><p>{_esc(', '.join(facts))}.</p>"
        f"<details><summary>The run's manifest ({text.count(chr(10)) + 1} lines of JSON)</summary>"
        f"<pre>{_esc(text)}</pre></details>"
    )


def render_html(
    run: RunLike,
    report: dict[str, Any],
    sums: SummarySums | None = None,
    links: dict[tuple[str, int], Link] | None = None,
) -> str:
    """The report page as one HTML string; ``sums`` are the report's sums (the score and length
    distributions of the figures), read again from the run when not given; ``links``: the extreme
    games' pages (``glance_html.show_pages``)."""
    import matplotlib

    matplotlib.use("Agg")
    variants = report["variant_order"]
    if sums is None:
        sums = collect(run, scorecard=False).sums
    lengths = sums.histograms("length")
    info = report["run"]
    prov = info.get("provenance") or {}
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>simharness report: {_esc(info.get('name'))}</title><style>{CSS}</style></head><body>",
        f"<h1>{_esc(info.get('name'))}</h1>",
        f"<p class='muted'>{_esc(info.get('game'))}, {_esc(games_label(info))}, "
        f"seed {_esc(info.get('seed'))}, duplicate={_esc(info.get('duplicate'))}, "
        f"simharness {_esc(prov.get('simharness_version', prov.get('version', '?')))}, "
        f"commit {_esc(commit_label(prov))}. "
        "Every interval is 95%.</p>",
        f"<p class='warning'><strong>Warning:</strong> {_esc(info['warning'])}</p>"
        if info.get("warning")
        else "",
        verdict_html(report) if report.get("verdict") else "",
        "<h2>Headline: strategies</h2>",
    ]
    header = [
        "variant",
        "strategy",
        "rows (deals)",
        *(vocabulary.name(k) for k in ("first_place_rate", "final_points", "rank_points")),
        "median",
        "p5",
        "p95",
    ]
    rows = []
    for v in variants:
        for r in report["variants"][v]["by_strategy"]:
            q = r["points"]["quantiles"]
            rows.append(
                [
                    v,
                    r["strategy"],
                    f"{r['rows']} ({r['deals']})",
                    fmt_ci(r["first_place_rate"], pct=True),
                    fmt_ci(r["points"]["mean"], None),
                    fmt_ci(r.get("rank_points"), None),
                    fmt_ci(q["p50"], 0),
                    fmt_ci(q["p5"], 0),
                    fmt_ci(q["p95"], 0),
                ]
            )
    parts.append(_table(header, rows))
    if report.get("challengers"):
        parts.append(challengers_html(report["challengers"]))
    parts.append(glance_section(report))
    parts.append("<h2>Seats</h2>")
    rows = []
    for v in variants:
        b = report["variants"][v]
        for r in b["by_seat"]:
            rows.append(
                [
                    v,
                    str(r["seat"]),
                    f"{r['rows']} ({r['deals']})",
                    fmt_ci(r["first_place_rate"], pct=True),
                    fmt_ci(r["points"]["mean"], None),
                ]
            )
    names = [vocabulary.name(k) for k in ("first_place_rate", "final_points")]
    parts.append(_table(["variant", "seat", "rows (deals)", *names], rows))
    rows = []
    for v in variants:
        st = report["scorecard"]["seat_tests"][v]
        w, c = st["wins_vs_uniform"], st["seat_by_rank"]
        rows.append(
            [
                v,
                f"{w['statistic']:.2f}" if w["statistic"] is not None else "–",
                f"{w['pvalue']:.3g}" if w["pvalue"] is not None else "–",
                f"{w['design_effect']:.2f}" if w["design_effect"] is not None else "–",
                f"{c['effect']:.3f}" if c["effect"] is not None else "–",
                f"{c['pvalue']:.3g}" if c["pvalue"] is not None else "–",
            ]
        )
    header = ["variant", "χ² wins vs uniform", "p", "design effect", "Cramér's V seat × rank", "p"]
    parts.append(_table(header, rows))
    parts.append(
        "<p class='muted'>χ² tests are Rao-Scott corrected: Pearson's X² divided by the design effect of "
        "deal clustering (a duplicate deal's rotations share their luck).</p>"
    )
    some, note = drawn(variants)
    parts.append(
        _figure(figure_seat_rank(report["scorecard"], some), f"Final rank share by starting seat{note}")
    )
    parts.append("<h2>Final scores</h2>")
    parts.append(
        _figure(
            figure_ecdf(sums.histograms("strategy"), some), f"Empirical CDF of final points by strategy{note}"
        )
    )
    if lengths.height and sums.unit is not None:
        parts.append("<h2>Game length</h2>")
        parts.append(
            _figure(figure_survival(lengths, sums.unit, some), f"Survival of game length ({sums.unit}){note}")
        )
    parts.append("<h2>Balance scorecard</h2>")
    sc = report["scorecard"]
    # A row per metric and variant: a column per variant made the table wider than the page from
    # the third variant on.
    header = ["metric", "variant", "estimate [95% CI]", f"difference from {variants[0]} [95% CI]"]
    rows, classes = [], []
    for key, name, _doc, cells, dcells in scorecard_rows(report):
        for i, v in enumerate(variants):
            rows.append([name if i == 0 else "", v, cells[i], dcells[i - 1] if i else ""])
            classes.append(["", "", _traffic(key, sc["variants"][v][key]), ""])
    parts.append(_table(header, rows, classes))
    if sc["strong"]:
        parts.append(
            f"<p>Skill gradient: <b>{_esc(sc['strong'])}</b> (strongest in {_esc(variants[0])}) vs "
            f"<b>{_esc(sc['weak'])}</b> (weakest). "
            "Differences: deal bootstrap (paired across variants), Holm-adjusted p.</p>"
        )
    parts.extend(f"<p class='muted'>{_esc(n)}</p>" for n in sc["notes"])
    if report["differences"]:
        parts.append(f"<h2>Variant effects vs {_esc(variants[0])}</h2>")
        rows = []
        for d in report["differences"]:
            pct = d["metric"] == "win"
            rows.append(
                [
                    d["variant"],
                    d["strategy"] or "(game)",
                    METRIC_NAMES.get(d["metric"], d["metric"]),
                    fmt_ci(d["difference"], 3, pct=pct),
                    "by deal" if d["paired"] else "no",
                    f"{d['efficiency']:.2f}" if d["efficiency"] is not None else "–",
                    *(f"{d[k]:.3g}" if d[k] is not None else "–" for k in ("pvalue", "p_holm", "p_bh")),
                ]
            )
        parts.append(
            _table(
                ["variant", "strategy", "metric", "difference", "paired", "E (games)", "p", "p Holm", "p BH"],
                rows,
            )
        )
        parts.append(_figure(figure_forest(report), "Forest plot: variant minus baseline, 95% CIs"))
    if report.get("omnibus"):
        rows = [
            [o["strategy"], o["metric"], str(o["n"])]
            + [f"{o[k]:.3g}" if o[k] is not None else "–" for k in ("statistic", "pvalue", "effect")]
            for o in report["omnibus"]
        ]
        parts.append("<h3>All variants at once (Friedman, blocks = shared deals)</h3>")
        parts.append(_table(["strategy", "metric", "deals", "χ²", "p", "Kendall's W"], rows))
    seq = report.get("sequential")
    if seq:
        head, estimate = sequential_lines(seq)
        parts.append("<h2>Sequential test</h2>")
        parts.append(f"<p><b>{_esc(head)}</b></p>")
        if estimate:
            parts.append(f"<p>{_esc(estimate)}</p>")
        parts.append(_figure(figure_llr(seq), "LLR at each look and the SPRT bounds"))
    if report["game_metrics"]:
        parts.append(metrics_section(report))
    parts.append(extremes_section(report, links))
    parts.append(provenance_section(run.manifest))
    data = json.dumps(report, allow_nan=False, default=str).replace("</", "<\\/")
    parts.append(f'<script type="application/json" id="report-data">{data}</script>')
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    return "".join(parts)


def write_html(run: RunLike, report: dict[str, Any], path: Path, sums: SummarySums | None = None) -> None:
    """Write the report page to ``path`` (its folder is created), and its extreme games' pages beside
    it (see ``glance_html.show_pages``); ``sums``: see :func:`render_html`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    links = show_pages(run, report.get("extreme_games", []), path)
    path.write_text(render_html(run, report, sums, links), encoding="utf-8")
