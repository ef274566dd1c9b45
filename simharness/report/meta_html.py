"""The metagame's HTML page: the answer, then per rule variant the payoff table as a heatmap with its
intervals and the α-Rank response graph, and the equilibrium's bars per rule variant with their
bootstrap intervals (``report.meta`` computes everything; this module only draws)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from simharness.report.html import CSS
from simharness.report.htmlkit import esc, figure, html_table, png
from simharness.report.meta import profile_label, public
from simharness.report.textfit import fmt_pm


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def figure_heatmap(a: dict[str, Any], metric: str) -> str:
    """Profiles × strategies, coloured by payoff, each cell with its estimate ± half-width."""
    plt = _plt()
    names = a["strategies"]
    rows = a["payoffs"]
    grid = np.array(
        [[r["payoffs"].get(s, {}).get("estimate") or math.nan for s in names] for r in rows], float
    )
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(names), 0.8 + 0.28 * len(rows)))
    im = ax.imshow(np.ma.masked_invalid(grid), aspect="auto", cmap="viridis")
    pct = metric == "first_place"
    for i, r in enumerate(rows):
        for j, s in enumerate(names):
            if s in r["payoffs"]:
                ax.text(j, i, fmt_pm(r["payoffs"][s], pct), ha="center", va="center", fontsize=6, color="w")
    ax.set_xticks(range(len(names)), names, fontsize=8)
    ax.set_yticks(range(len(rows)), [profile_label(names, r["profile"]) for r in rows], fontsize=6)
    fig.colorbar(im, ax=ax, fraction=0.04)
    fig.tight_layout()
    return png(fig)


def figure_response_graph(a: dict[str, Any]) -> str:
    """α-Rank's response graph: a strategy per node (its area its mass), an arrow from each strategy
    to every strategy whose single mutant beats it at the payoffs of the table (the edges α-Rank
    follows as α grows), read from the payoff table's two-strategy populations."""
    plt = _plt()
    names = a["strategies"]
    k = len(names)
    mass = np.array([a["alpharank"]["mass"][s]["estimate"] for s in names])
    angle = np.linspace(0, 2 * np.pi, k, endpoint=False) + np.pi / 2
    xy = np.c_[np.cos(angle), np.sin(angle)]
    fig, ax = plt.subplots(figsize=(5, 5))
    for s, r in a["_responses"]:
        ax.annotate(
            "",
            xy=xy[r] * 0.85,
            xytext=xy[s] * 0.85,
            arrowprops={"arrowstyle": "->", "color": "#888", "shrinkA": 14, "shrinkB": 14},
        )
    ax.scatter(xy[:, 0] * 0.85, xy[:, 1] * 0.85, s=200 + 3000 * mass, c="#4a7", zorder=3)
    for i, s in enumerate(names):
        ax.text(xy[i, 0] * 1.1, xy[i, 1] * 1.1, f"{s}\n{mass[i]:.2f}", ha="center", va="center", fontsize=8)
    ax.set_xlim(-1.4, 1.4)
    ax.set_ylim(-1.4, 1.4)
    ax.axis("off")
    return png(fig)


def figure_equilibria(result: dict[str, Any]) -> str:
    """Each strategy's equilibrium mass per rule variant, with its bootstrap interval."""
    plt = _plt()
    names = result["strategies"]
    rules = list(result["rules"])
    width = 0.8 / len(rules)
    fig, ax = plt.subplots(figsize=(1.5 + 1.2 * len(names), 3.5))
    for i, r in enumerate(rules):
        mix = result["rules"][r]["equilibrium"]["mix"]
        est = np.array([mix[s]["estimate"] for s in names])
        lo = np.array([mix[s]["lo"] if mix[s]["lo"] is not None else mix[s]["estimate"] for s in names])
        hi = np.array([mix[s]["hi"] if mix[s]["hi"] is not None else mix[s]["estimate"] for s in names])
        at = np.arange(len(names)) + (i - (len(rules) - 1) / 2) * width
        yerr = np.vstack([np.maximum(est - lo, 0), np.maximum(hi - est, 0)])
        ax.bar(at, est, width, yerr=yerr, capsize=2, label=r)
    ax.set_xticks(range(len(names)), names, fontsize=8)
    ax.set_ylabel("equilibrium mass")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return png(fig)


def meta_page(result: dict[str, Any]) -> str:
    metric = result["metric"]
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>simharness metagame</title>",
        f"<style>{CSS}</style></head><body><h1>The metagame of {esc(result['game'])}</h1>",
        "<ul>",
        *(f"<li>{esc(line)}</li>" for line in result["answer"]),
        "</ul>",
        f"<p class='muted'>Payoff: {esc(result['metric_name'])} per game; {result['profiles']} profiles of "
        f"{len(result['strategies'])} strategies over {result['seats']} seats, each seat-rotated on the same "
        "keyed deals; intervals 95% (the payoff table's clustered by deal, the rest percentile intervals "
        "over bootstrap resamples of the deals). docs/metagame.md says what each number means.</p>",
        figure(figure_equilibria(result), "Equilibrium mass per rule variant", "meta-equilibria"),
    ]
    for rule, a in result["rules"].items():
        label = result["rule_labels"].get(rule)
        parts.append(f"<h2>{esc(rule)}{f' ({esc(label)})' if label else ''}</h2>")
        header = ["mix", "regret", "entropy (bits)", "basin"]
        rows = [
            [
                " + ".join(f"{s} {e['mix'][s]:.0%}" for s in e["support"]),
                f"{e['regret']:.1e}",
                f"{e['entropy_bits']:.2f}",
                f"{e['basin']:.0%}",
            ]
            for e in a["equilibria"]
        ]
        parts.append(html_table(header, rows))
        parts.append(
            figure(
                figure_response_graph(a),
                f"α-Rank response graph under {rule} (node area: mass at α = {a['alpharank']['alpha']:g})",
                f"meta-graph-{rule}",
            )
        )
        parts.append(
            figure(figure_heatmap(a, metric), f"Heuristic payoff table under {rule}", f"meta-payoffs-{rule}")
        )
    data = json.dumps(public(result)).replace("</", "<\\/")
    parts.append(f"<script type='application/json' id='report-data'>{data}</script></body></html>")
    return "".join(parts)


def write_meta_html(result: dict[str, Any], path: Path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(meta_page(result), encoding="utf-8")
