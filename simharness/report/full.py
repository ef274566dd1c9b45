"""The full report: the summary plus the balance scorecard, the strategy profile and the extreme
games, as data and as terminal tables."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import Progress

from simharness import vocabulary
from simharness.report.frames import RunLike
from simharness.report.glance import is_share, label, profile
from simharness.report.stream import Collected, collect
from simharness.report.summary import print_summary
from simharness.report.textfit import Col, fmt_ci, print_fitted
from simharness.report.verdict import build_verdict


def build_report(run: RunLike, progress: Progress | None = None) -> dict[str, Any]:
    """Every number of the report, JSON-ready: the summary plus ``scorecard`` (see ``stats.balance``),
    from one streaming pass over the run (``report.stream``); ``progress`` shows the shards read."""
    return report_of(collect(run, scorecard=True, progress=progress))


def report_of(collected: Collected) -> dict[str, Any]:
    """The report dict of a pass made with the scorecard, with the strategy profile (``glance.profile``)
    and, first, the verdict (``report.verdict``)."""
    report = {**collected.summary, "scorecard": collected.scorecard}
    report["profile"] = profile(report)
    report["glossary"] = glossary(report)
    return {"verdict": build_verdict(report), **report}


def glossary(report: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The name, unit and definition of every metric the report holds (``simharness.vocabulary``)."""
    keys = {"first_place_rate", "final_points", "rank_points", "rank_share", "last_place_rate"}
    keys |= {str(r["metric"]) for r in report.get("game_metrics", [])}
    keys |= {m["name"] for m in (report.get("scorecard") or {}).get("metrics", [])}
    keys |= {d["metric"] for d in (report.get("tails") or {}).get("differences", [])} | {"worst"}
    return vocabulary.glossary(str(report["run"].get("game")), keys)


def scorecard_rows(report: dict[str, Any]) -> list[tuple[str, str, str, list[str], list[str]]]:
    """(metric, its label, doc, per-variant cells, difference-vs-baseline cells) formatted for tables."""
    sc = report["scorecard"]
    game = str(report["run"].get("game"))
    variants = report["variant_order"]
    diffs = {(d["variant"], d["metric"]): d for d in sc["differences"]}
    rows = []
    for m in sc["metrics"]:
        pct = is_share(game, m["name"])
        cells = [fmt_ci(sc["variants"][v][m["name"]], None, pct=pct) for v in variants]
        dcells = []
        for v in variants[1:]:
            d = diffs.get((v, m["name"]))
            if d is None:
                dcells.append("–")
                continue
            p = d["p_holm"]
            dcells.append(
                fmt_ci(d["difference"], None, pct=pct) + ("" if p is None else f" (Holm p={p:.2g})")
            )
        rows.append((m["name"], label(game, m["name"]), m["doc"], cells, dcells))
    return rows


def print_report(report: dict[str, Any], console: Console) -> None:
    print_summary(report, console)
    sc = report["scorecard"]
    variants = report["variant_order"]
    console.print()
    cols = [Col(v) for v in variants] + [Col(f"{v} − {variants[0]}") for v in variants[1:]]
    rows = [[name, *cells, *dcells] for _key, name, _doc, cells, dcells in scorecard_rows(report)]
    print_fitted(
        console, "balance scorecard [95% CI, deal bootstrap]", [Col("metric", right=False)], cols, rows
    )
    if sc["strong"]:
        console.print(f"skill gradient: {escape(sc['strong'])} (strong) vs {escape(sc['weak'])} (weak)")
    for v in variants:
        c = sc["seat_tests"][v]["seat_by_rank"]
        if c["statistic"] is not None:
            console.print(
                f"{v}: seat × rank Rao-Scott χ²={c['statistic']:.2f} (df {c['df']:.0f}, design effect "
                f"{c['design_effect']:.2f}), p={c['pvalue']:.3g}, "
                f"Cramér's V={c['effect']:.3f}"
            )
    for note in sc["notes"]:
        console.print(f"[dim]{note}")
    if report.get("extreme_games"):
        console.print()
        console.print("[bold]extreme games[/bold] (each command plays the game again as a page)")
        for g in report["extreme_games"]:
            console.print(
                escape(f"{g['title']} ({g['variant']}, game {g['game']}): {g['why']}"), highlight=False
            )
            console.print(escape(f"  {g['command']}"), style="dim", highlight=False, soft_wrap=True)
