"""End-of-run summary: the headline numbers of a run, as JSON-ready data and as terminal tables.

Reads a run only through ``simharness.store`` (``Run.manifest`` and ``Run.table``). Every number
carries a 95% CI; see ``simharness.stats`` for what each interval assumes.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress

from simharness import vocabulary
from simharness.games import registry
from simharness.report.challengers import print_challengers
from simharness.report.frames import RunLike
from simharness.report.glance import FIRST, is_share, label, metrics_tables
from simharness.report.stream import collect
from simharness.report.textfit import Col, fmt_ci, fmt_pm, print_fitted
from simharness.report.verdict import print_verdict


def commit_label(prov: dict[str, Any]) -> str:
    """The git commit a run was made at, or why there is none."""
    return str(prov.get("git_commit") or "unknown (not run from a git checkout)")


def build_summary(run: RunLike, progress: Progress | None = None) -> dict[str, Any]:
    """The end-of-run summary as a JSON-ready dict, read from the run chunk by chunk.

    ``variants[v]``: games, deals, ``by_strategy`` and ``by_seat`` (along ``seat_axis``, see
    :func:`seat_axis`): rows, games and deals, ``first_place_rate`` (rank 1) and mean final points (CR1
    intervals clustered by deal) and 5/25/50/75/95% quantiles of final points (Woodruff intervals
    clustered by deal); ``rank_shares`` (see ``glance.rank_shares``);
    ``length`` (turns or hands per game, clustered likewise) and ``seat_test`` (Rao-Scott χ² of wins by
    seat vs uniform, clustered by deal). ``differences``: every variant minus the first
    per strategy (win, final_points) and for game length, paired by deal, with Holm and BH adjusted
    p-values. ``omnibus`` (three or more variants): Friedman tests across all variants on the shared
    deals, per strategy for win and final_points. ``game_metrics``: the game module's own metrics.
    ``tails``: p1, p99 and the worst final score per variant and their differences paired by deal
    (``report.tails``).
    Memory is bounded by the groups and distinct scores, not the games (``report.stream``);
    ``progress`` shows the shards read.
    """
    return collect(run, scorecard=False, progress=progress).summary


def sequential_lines(seq: dict[str, Any]) -> tuple[str, str | None]:
    """The run's sequential test (``stats.sequential.until_result``) as plain text: the test and its
    decision in words, then the estimate and interval at the stop (None without one)."""
    r, e = seq["result"], seq["estimate"]
    if seq["design"] == "one-sided":
        how = f"one-sided SPRT, H0 μ={seq['mu0']:g} vs H1 μ={seq['mu1']:g}"
    else:
        how = f"three-outcome test at ±{seq['mu1']:g}"
    head = (
        f"sequential test {seq['a']} − {seq['b']} ({seq['metric']}, {seq['variant']}): {how}, "
        f"α={seq['alpha']:g}, β={seq['beta']:g}; stopped after {len(seq['looks'])} looks, "
        f"{seq['games']} games per variant, {r['n']} deals → {seq['verdict']}"
    )
    if not e:
        return head, None
    return head, (
        f"{seq['a']} − {seq['b']} at the stop: {e['estimate']:.4g} [{e['lo']:.4g}, {e['hi']:.4g}] "
        f"(95%, stopping-aware; naive mean {e['naive']:.4g})"
    )


def _fmt_num(x: float | None, digits: int = 4) -> str:
    if x is None:
        return "–"
    return f"{x:.2e}" if x != 0 and abs(x) < 10 ** -(digits - 1) else f"{x:.{digits}f}"


# How the summary's paired-difference metrics are named for readers (``win`` is the 1st-place rate).
METRIC_NAMES = {
    m: vocabulary.name(key)
    for m, key in (
        ("win", FIRST),
        ("final_points", "final_points"),
        ("length", "length"),
        ("rank_points", "rank_points"),
    )
}


def _print_groups(console: Console, title: str, key: str, rows: list[dict[str, Any]], wide: bool) -> None:
    cols = [Col("rows (deals)"), *(Col(vocabulary.name(k)) for k in (FIRST, "final_points", "rank_points"))]
    if wide:
        cols += [Col("median points"), Col("p5 / p25 / p75 / p95")]
    cells = []
    for r in rows:
        q = r["points"]["quantiles"]
        row = [
            str(r[key]),
            f"{r['rows']} ({r['deals']})",
            fmt_ci(r["first_place_rate"], pct=True),
            fmt_ci(r["points"]["mean"], None),
            fmt_ci(r.get("rank_points"), None),
        ]
        if wide:
            spread = (
                f"{q[k]['estimate']:g}" if q[k]["estimate"] is not None else "–"
                for k in ("p5", "p25", "p75", "p95")
            )
            row += [fmt_ci(q["p50"], 0), " / ".join(spread)]
        cells.append(row)
    print_fitted(console, f"{title}, 95% CIs", [Col(key, right=False)], cols, cells)


def _print_rank_shares(console: Console, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    ranks = list(rows[0]["shares"])
    cells = [[r["strategy"], *(fmt_pm(r["shares"][k], pct=True) for k in ranks)] for r in rows]
    print_fitted(
        console,
        "final rank shares, % ± 95% CI",
        [Col("strategy", right=False)],
        [Col(k) for k in ranks],
        cells,
    )


def games_label(run: dict[str, Any]) -> str:
    """``N games per variant``, and the planned number when a sequential test stopped sooner."""
    played, planned = run.get("games"), run.get("planned_games")
    stopped = f" (of {planned} planned: the sequential test stopped)" if planned not in (None, played) else ""
    return f"{played} games per variant{stopped}"


# Changes per variant the short summary names (the full report names all).
SHORT_CHANGES = 5


def _wider_pm(iv: dict[str, Any] | None) -> str:
    """``estimate ±h`` with h the wider side of the interval (a quantile's is not symmetric): short
    enough for the headline table, and never narrower than the interval."""
    if not iv or iv.get("estimate") is None:
        return "–"
    e = iv["estimate"]
    if iv.get("lo") is None or iv.get("hi") is None:
        return f"{e:.0f}"
    return f"{e:.0f} ±{max(e - iv['lo'], iv['hi'] - e):.0f}"


def _print_headline(summary: dict[str, Any], console: Console) -> None:
    """The headline numbers side by side per variant: each strategy's 1st-place rate and mean final
    points, game length, the tails of final points and the bust rate where the game has one."""
    variants = summary["variant_order"]
    blocks = summary["variants"]
    tails = (summary.get("tails") or {}).get("variants", {})
    card = (summary.get("scorecard") or {}).get("variants", {})

    def strategy(v: str, s: str) -> dict[str, Any]:
        return next((x for x in blocks[v]["by_strategy"] if x["strategy"] == s), {})

    rows: list[list[str]] = []
    for r in blocks[variants[0]]["by_strategy"]:
        s = r["strategy"]
        by = [strategy(v, s) for v in variants]
        rows.append([f"{s}: {vocabulary.name(FIRST)}", *(fmt_pm(b.get(FIRST), True) for b in by)])
        rows.append(
            [
                f"{s}: {vocabulary.name('final_points')}",
                *(fmt_pm(b.get("points", {}).get("mean")) for b in by),
            ]
        )
    length = blocks[variants[0]]["length"]
    if length:
        means = [(blocks[v]["length"] or {}).get("mean") for v in variants]
        rows.append([f"game length ({length['unit']})", *(fmt_pm(m) for m in means)])
    for q in (summary.get("tails") or {}).get("quantiles", []):
        rows.append([f"{q} of final points", *(_wider_pm(tails.get(v, {}).get(q)) for v in variants)])
    if tails:
        rows.append(
            ["worst final score", *(f"{tails[v]['worst']:.0f}" if v in tails else "–" for v in variants)]
        )
    if card and "bust_rate" in card.get(variants[0], {}):
        rows.append(
            [vocabulary.name("bust_rate"), *(fmt_pm(card[v].get("bust_rate"), True) for v in variants)]
        )
    print_fitted(
        console,
        "headline: estimate ± 95% CI half-width (rates in %)",
        [Col("metric", right=False)],
        [Col(v) for v in variants],
        rows,
    )


def _print_sequential(seq: dict[str, Any] | None, console: Console) -> None:
    """The run's sequential test (``[until]``): its decision in words and the estimate at the stop."""
    if not seq:
        return
    head, estimate = sequential_lines(seq)
    console.print()
    console.print(f"[bold]{escape(head)}[/bold]")
    if estimate:
        console.print(escape(estimate))


def print_summary(summary: dict[str, Any], console: Console, full: bool = True) -> None:
    """Print the summary as tables that fit the console (a row is one line, see ``textfit``): the
    verdict when the summary has one, then per variant by strategy, rank shares and by seat, then the
    comparisons and the game metrics; when not ``full``, the verdict (its first changes) and the
    headline table only."""
    run = summary["run"]
    prov = run.get("provenance") or {}
    console.print(
        f"[bold]{run.get('name')}[/bold] ({run.get('game')}): {games_label(run)}, "
        f"seed {run.get('seed')}, duplicate={run.get('duplicate')}, "
        f"version {prov.get('simharness_version', prov.get('version', '?'))}, "
        f"commit {commit_label(prov)[:12]}"
    )
    if run.get("warning"):
        console.print(f"[bold yellow]warning:[/] {escape(run['warning'])}")
    if summary.get("verdict"):
        print_verdict(summary["verdict"], console, None if full else SHORT_CHANGES)
    console.print()
    _print_headline(summary, console)
    if not full:
        _print_sequential(summary.get("sequential"), console)
        return
    wide = console.width >= 120  # quantile spread and the unadjusted p-values only when they fit
    for v in summary["variant_order"]:
        b = summary["variants"][v]
        console.print()
        console.rule(f"variant [bold]{v}[/bold]: {b['games']} games, {b['deals']} deals")
        _print_groups(console, "by strategy", "strategy", b["by_strategy"], wide)
        _print_rank_shares(console, summary.get("rank_shares", {}).get(v, []))
        _print_groups(console, f"by seat ({b['seat_axis']})", "seat", b["by_seat"], wide)
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
        cols = [Col("difference [95% CI]"), Col("E"), Col("p Holm")]
        if wide:
            cols += [Col("p"), Col("p BH")]
        cells = []
        for r in summary["differences"]:
            # E: the pairing efficiency (games); "no" when the variants share no deals.
            e = r["efficiency"]
            paired = "no" if not r["paired"] else "–" if e is None else f"{e:,.0f}" if e >= 10 else f"{e:.2g}"
            row = [
                r["variant"],
                r["strategy"] or "(game)",
                METRIC_NAMES.get(r["metric"], r["metric"]),
                fmt_ci(r["difference"], None, pct=r["metric"] == "win"),
                paired,
                _fmt_num(r["p_holm"]),
            ]
            cells.append([*row, _fmt_num(r["pvalue"]), _fmt_num(r["p_bh"])] if wide else row)
        keys = [Col("variant", right=False), Col("strategy", right=False), Col("metric", right=False)]
        print_fitted(
            console, f"differences vs {summary['variant_order'][0]}, paired by deal", keys, cols, cells
        )
    if summary.get("challengers"):
        print_challengers(summary["challengers"], console)
    for o in summary.get("omnibus", []):
        console.print(
            f"all variants, {escape(str(o['strategy']))} {METRIC_NAMES.get(o['metric'], o['metric'])}: "
            f"Friedman χ²={_fmt_num(o['statistic'], 2)}, "
            f"p={_fmt_num(o['pvalue'])}, Kendall's W={_fmt_num(o['effect'], 3)} ({o['n']} deals)"
        )
    _print_sequential(summary.get("sequential"), console)
    if summary["game_metrics"]:
        console.print()
        console.print("game metrics: estimate ± 95% CI half-width, in the unit each name gives")
        game = str(run.get("game"))
        # A distribution's bins (the han of a win, ...) are the HTML's charts and the JSON's rows.
        binned = {b for bins in registry.distributions(game).values() for b in bins}
        if binned:
            console.print(
                f"[dim]the {', '.join(registry.distributions(game))}: in the HTML report and the JSON"
            )
        kept = [r for r in summary["game_metrics"] if r["metric"] not in binned]
        # The whole table's metrics (strategy all: the dealer, the rules in play, ...) one per row,
        # the variants side by side, as a designer compares them.
        whole = {(str(r["variant"]), str(r["metric"])): r for r in kept if r["strategy"] == "all"}
        if whole:
            variants = summary["variant_order"]
            cells = [
                [label(game, m), *(fmt_pm(whole.get((v, m)), pct=is_share(game, m)) for v in variants)]
                for m in dict.fromkeys(m for _, m in whole)
            ]
            print_fitted(
                console,
                "game metrics, whole table",
                [Col("metric", right=False)],
                [Col(v) for v in variants],
                cells,
            )
        for t in metrics_tables([r for r in kept if r["strategy"] != "all"], summary["variant_order"]):
            cells = [
                [s, *(fmt_pm(t.cells.get((s, m)), pct=is_share(game, m)) for m in t.metrics)]
                for s in t.strategies
            ]
            cols = [Col(label(game, m)) for m in t.metrics]
            print_fitted(console, f"game metrics, {t.variant}", [Col("strategy", right=False)], cols, cells)
