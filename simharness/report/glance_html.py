"""The report page's "at a glance" part: the strategy profile, rank shares, the game metrics as
strategies × metrics tables, and the extreme games with the command that replays each (and a link
to its page, where ``simharness show`` is installed).

Figures are matplotlib (imported inside the functions, as in ``html``), embedded as PNG.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

import numpy as np

from simharness import vocabulary
from simharness.errors import UserError
from simharness.games import registry
from simharness.report.frames import RunLike
from simharness.report.glance import is_share, label, metrics_tables
from simharness.report.htmlkit import drawn, esc, figure, finish_panels, html_table, panel_grid
from simharness.report.textfit import fmt_ci
from simharness.stats.hypotheses import holm


def _errors(ivs: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Estimates and the (below, above) error-bar lengths of intervals (0 where a bound is missing)."""
    est = np.array([iv["estimate"] for iv in ivs], dtype=float)
    lo = np.array([iv["lo"] if iv.get("lo") is not None else iv["estimate"] for iv in ivs], dtype=float)
    hi = np.array([iv["hi"] if iv.get("hi") is not None else iv["estimate"] for iv in ivs], dtype=float)
    return est, np.vstack([est - lo, hi - est])


def figure_profile(prof: dict[str, Any], variants: list[str]) -> str | None:
    """One point per strategy at (risk, reward) with both 95% CIs as error bars, a panel per variant.

    Every panel shares the axes, so a strategy's move between variants reads as a move on the page.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    points = prof["points"]
    if not points:
        return None
    shown = [v for v in variants if any(p["variant"] == v for p in points)]
    rows, cols = panel_grid(len(shown), 3)
    fig, axes = plt.subplots(
        rows, cols, figsize=(4.6 * cols, 4 * rows), squeeze=False, sharex=True, sharey=True
    )
    strategies = list(dict.fromkeys(p["strategy"] for p in points))
    colours = {s: f"C{i % 10}" for i, s in enumerate(strategies)}
    for ax, v in zip(axes.flat, shown, strict=False):
        mine = [p for p in points if p["variant"] == v]
        x, xerr = _errors([p["x"] for p in mine])
        y, yerr = _errors([p["y"] for p in mine])
        for i, p in enumerate(mine):
            c = colours[p["strategy"]]
            ax.errorbar(
                x[i], y[i], xerr=xerr[:, i : i + 1], yerr=yerr[:, i : i + 1], fmt="o", color=c, capsize=3
            )
            ax.annotate(
                p["strategy"], (x[i], y[i]), xytext=(5, 5), textcoords="offset points", fontsize=8, color=c
            )
        ax.set_title(v)
        ax.set_xlabel(f"{prof['x']['label']} (risk →)")
        ax.set_ylabel(f"{prof['y']['label']} (reward ↑)")
        ax.grid(alpha=0.3)
        if prof["x"]["percent"]:
            ax.xaxis.set_major_formatter(PercentFormatter(1.0))
        if prof["y"]["percent"]:
            ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    return finish_panels(fig, axes, len(shown))


def figure_rank_shares(shares: dict[str, list[dict[str, Any]]], variants: list[str]) -> str | None:
    """A bar per strategy split into its 1st … last place shares, a panel per variant."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    shown = [v for v in variants if shares.get(v)]
    if not shown:
        return None
    rows, cols = panel_grid(len(shown), 2)
    height = max(len(shares[v]) for v in shown)
    fig, axes = plt.subplots(rows, cols, figsize=(6 * cols, (0.45 * height + 1.4) * rows), squeeze=False)
    for ax, v in zip(axes.flat, shown, strict=False):
        strategies = [r["strategy"] for r in shares[v]]
        ranks = list(shares[v][0]["shares"])
        colours = plt.get_cmap("RdYlGn_r")(np.linspace(0.1, 0.9, len(ranks)))
        left = np.zeros(len(strategies))
        y = np.arange(len(strategies))[::-1]
        for k, rank in enumerate(ranks):
            w = np.array([r["shares"][rank]["estimate"] or 0.0 for r in shares[v]])
            ax.barh(y, w, left=left, color=colours[k], label=rank, edgecolor="white")
            for yi, li, wi in zip(y, left, w, strict=True):
                if wi >= 0.07:  # a label only where it fits inside its segment
                    ax.text(li + wi / 2, yi, f"{wi:.0%}", ha="center", va="center", fontsize=8)
            left += w
        ax.set_yticks(y, strategies, fontsize=8)
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
        ax.set_xlabel("share of games")
        ax.set_title(v)
        # Beside the bars, not below them, where it covered the axis label.
        ax.legend(title="place", fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    return finish_panels(fig, axes, len(shown))


def glance_section(report: dict[str, Any]) -> str:
    """The profile and rank-share figures with the rank-share table."""
    variants = report["variant_order"]
    prof = report["profile"]
    some, note = drawn(variants)
    parts = [
        "<h2>Strategies at a glance</h2>",
        figure(
            figure_profile(prof, some),
            f"Strategy profile: {prof['y']['label']} against {prof['x']['label']}, 95% CIs both ways "
            f"(up is reward, left is safety){note}",
            "fig-profile",
        ),
        figure(
            figure_rank_shares(report["rank_shares"], some),
            f"Final rank shares by strategy{note}",
            "fig-ranks",
        ),
    ]
    # Variants may seat different numbers of players (Riichi's `players`): the widest sets the columns.
    ranks = max(([*r["shares"]] for rs in report["rank_shares"].values() for r in rs), key=len, default=[])
    rows = [
        [v, r["strategy"], *(fmt_ci(r["shares"].get(k), pct=True) for k in ranks)]
        for v in variants
        for r in report["rank_shares"].get(v, [])
    ]
    parts.append(html_table(["variant", "strategy", *ranks], rows))
    return "".join(parts)


def figure_distribution(
    title: str,
    bins: tuple[str, ...],
    cells: dict[tuple[str, str], dict[str, Any]],
    variants: list[str],
    game: str,
) -> str | None:
    """A game's distribution (``registry.distributions``): a group of bars per bin, one bar per
    variant, each with its 95% interval."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    shown = [v for v in variants if any((v, b) in cells for b in bins)]
    if not shown:
        return None
    fig, ax = plt.subplots(figsize=(11, 4))  # the width of the page: every bar group readable
    width = 0.8 / len(shown)
    x = np.arange(len(bins))
    for i, v in enumerate(shown):
        ivs = [cells.get((v, b)) or {"estimate": None} for b in bins]
        ivs = [iv if iv.get("estimate") is not None else {"estimate": 0.0} for iv in ivs]
        est, err = _errors(ivs)
        ax.bar(x + (i - (len(shown) - 1) / 2) * width, est, width, yerr=err, capsize=2, label=v)
    # A bin's name without the words every bin's name has: "wins of 3 han" → "3".
    words = [vocabulary.name(b, game).split() for b in bins]
    shared = set.intersection(*(set(w) for w in words))
    ticks = [" ".join(x for x in w if x not in shared) for w in words]
    ax.set_xticks(x, ticks, fontsize=8)
    ax.set_xlabel(title)
    first = vocabulary.term(game, bins[0])
    ax.set_ylabel(first.unit if first is not None else "share")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    return finish_panels(fig, np.array([ax]), 1)


def differences_table(report: dict[str, Any], binned: set[str]) -> str:
    """Each game metric of each variant minus the baseline's, paired by deal, with its interval and
    p-value (Holm over the variant's metrics: the verdict's family is larger), in the config's order;
    a distribution's bins (``binned``) are left to its chart and the JSON."""
    diffs = [
        d
        for d in report.get("game_metric_differences", [])
        if d["difference"].get("estimate") is not None and d["metric"] not in binned
    ]
    if not diffs:
        return ""
    game = str(report["run"].get("game"))
    variants = report["variant_order"]
    rows = []
    for v in variants[1:]:
        mine = [d for d in diffs if d["variant"] == v]
        held = [d for d in mine if d["pvalue"] is not None]
        adjusted = dict(
            zip(map(id, held), holm(np.array([d["pvalue"] for d in held], dtype=float)), strict=True)
        )
        for d in mine:
            p = adjusted.get(id(d))
            # The whole table's rows in full; a strategy's only where it changed (the JSON has all).
            if d["strategy"] != "all" and (p is None or p >= 0.05):
                continue
            rows.append(
                [
                    label(game, d["metric"]),
                    d["strategy"],
                    v,
                    fmt_ci(d["difference"], None, pct=is_share(game, d["metric"])).replace("%", " pp"),
                    "–" if p is None else f"{p:.2g}",
                ]
            )
    return (
        f"<h3>Differences from {esc(variants[0])}, paired by deal</h3>"
        "<p class='muted'>A share's difference is in percentage points (pp). Every metric of the whole "
        "table (strategy all); a strategy's metric where its Holm p is below 0.05 (the JSON's "
        "<code>game_metric_differences</code> holds every one).</p>"
        + html_table(["metric", "strategy", "variant", "difference [95% CI]", "p (Holm)"], rows)
    )


def metrics_section(report: dict[str, Any]) -> str:
    """The game metrics: per variant, metrics as rows and strategies as columns (a lineup has a few
    strategies but a game a dozen metrics or more: as columns they ran past the page's width); a
    distribution's bins (the han of a win, ...) as a chart of every variant instead of rows."""
    game = str(report["run"].get("game"))
    variants = report["variant_order"]
    dists = registry.distributions(game)
    binned = {b for bins in dists.values() for b in bins}
    parts = ["<h2>Game metrics</h2><p class='muted'>Estimate [95% CI], in the unit its name gives.</p>"]
    some, note = drawn(variants)
    for title, bins in dists.items():
        cells = {
            (str(r["variant"]), str(r["metric"])): r for r in report["game_metrics"] if r["metric"] in bins
        }
        parts.append(
            figure(
                figure_distribution(title, bins, cells, some, game),
                f"Distribution of the {title} per variant, 95% CIs{note}",
                f"fig-dist-{bins[0].split('_')[0]}",
            )
        )
    parts.append(differences_table(report, binned))
    rows_kept = [r for r in report["game_metrics"] if r["metric"] not in binned]
    for t in metrics_tables(rows_kept, variants):
        parts.append(f"<h3>{esc(t.variant)}</h3>")
        rows = [
            [
                label(game, m),
                *(fmt_ci(t.cells.get((s, m)), None, pct=is_share(game, m)) for s in t.strategies),
            ]
            for m in t.metrics
        ]
        parts.append(html_table(["metric", *t.strategies], rows))
    return "".join(parts)


class Link(NamedTuple):
    """Where an extreme game's page is, relative to the report (``href``), or why there is none."""

    href: str | None
    note: str | None = None


# The show pages written beside one report take at most this many bytes together: a report has up
# to four extreme games per variant, and a sweep of a hundred variants wrote hundreds of megabytes
# of pages. The pages are written in the order of the list until the next would pass the budget;
# that game and the ones after it keep their command alone (and are not played again).
SHOW_PAGES_BUDGET = 10_000_000


def show_pages(run: RunLike, games: list[dict[str, Any]], report_path: Path) -> dict[tuple[str, int], Link]:
    """Each extreme game written by ``simharness show`` beside the report (``<report stem>-games/``),
    keyed by (variant, game), up to :data:`SHOW_PAGES_BUDGET` bytes of pages. Empty when this
    installation has no ``simharness.show``: the list then gives the commands alone. A game that
    ``show`` refuses (a Python strategy in the lineup, an engine that now plays it differently), or
    that the budget leaves out, is listed with the reason instead of a link. The report links the
    pages and never holds one, so it does not grow with the games' length."""
    try:
        from simharness.show import write_page
    except ModuleNotFoundError as e:
        if e.name != "simharness.show":
            raise
        return {}
    folder = f"{report_path.stem}-games"
    links: dict[tuple[str, int], Link] = {}
    spent, full = 0, False
    over = f"the pages beside this report reached their budget of {SHOW_PAGES_BUDGET / 1e6:g} MB"
    for g in games:
        key = (str(g["variant"]), int(g["game"]))
        if key in links:
            continue
        if full:
            links[key] = Link(None, over)
            continue
        name = f"{key[0]}-game{key[1]}.html"
        page = report_path.parent / folder / name
        try:
            write_page(run.path, key[1], key[0], page)
        except UserError as err:
            links[key] = Link(None, str(err))
            continue
        size = page.stat().st_size
        if spent + size > SHOW_PAGES_BUDGET:
            page.unlink()
            full = True
            links[key] = Link(None, over)
            continue
        spent += size
        links[key] = Link(f"{quote(folder)}/{quote(name)}")
    return links


def extremes_section(report: dict[str, Any], links: dict[tuple[str, int], Link] | None = None) -> str:
    """The extreme games as a list, each with the ``simharness show`` command that replays it and,
    where :func:`show_pages` wrote it, a link to its page."""
    games = report.get("extreme_games") or []
    if not games:
        return ""
    items = []
    for g in games:
        link = (links or {}).get((str(g["variant"]), int(g["game"])), Link(None))
        title = esc(g["title"])
        if link.href:
            # Straight to the hand the text names, numbered as the page numbers it.
            at = f"#hand-{g['hand']}" if "hand" in g else ""
            title = f'<a href="{esc(link.href + at)}">{title}</a>'
        note = f" <span class='muted'>(no page: {esc(link.note)})</span>" if link.note else ""
        items.append(
            f"<li><b>{title}</b> ({esc(g['variant'])}, game {g['game']}): {esc(g['why'])}{note}<br>"
            f"<code>{esc(g['command'])}</code></li>"
        )
    return (
        "<h2>Extreme games</h2><p class='muted'>Every game can be played again exactly from the manifest; "
        f"each command writes the game as a page.</p><ul class='extremes'>{''.join(items)}</ul>"
    )
