"""Command functions for the CLI (``report``, ``compare``, ``plan``); ``simharness/cli.py`` registers them.

Heavy imports (the store, matplotlib) happen inside the commands so that ``simharness --help`` stays fast.
"""

from __future__ import annotations

import json as jsonlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import progress as rp
from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from simharness.store import Run


# One process by default: a worker holds a chunk (about 0.4 GB at the largest), so every core's
# worker would take the report past 1 GB on any machine of more than two; on two cores the workers
# were no faster than one process (a worker's start-up and imports eat what the second core gains).
JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        help="Worker processes summing the run's chunks (each holds one, up to ~0.4 GB); -1 = all cores.",
    ),
]


def _console() -> Console:
    return Console()


def _progress() -> rp.Progress:
    """The shards read, on stderr (stdout may be JSON); gone once the report is ready, and never
    drawn when stderr is not a terminal (a log or a pipe gets the errors alone)."""
    console = Console(stderr=True)
    return rp.Progress(
        rp.TextColumn("[bold]reading {task.description}"),
        rp.BarColumn(),
        rp.MofNCompleteColumn(),
        rp.TextColumn("shards"),
        rp.TaskProgressColumn(),
        rp.TimeElapsedColumn(),
        rp.TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )


def _dump(data: Any) -> None:
    typer.echo(jsonlib.dumps(data, indent=2, allow_nan=False, default=str))


def _open(run_dir: Path, partial: bool = False) -> Run:
    from simharness.store import open_run

    run = open_run(run_dir, partial=partial)
    if run.note is not None:
        Console(stderr=True).print(f"[yellow]note:[/] {run.note}")
    return run


def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (results/<name>).")],
    json: Annotated[
        bool, typer.Option("--json", help="Print every number as JSON instead of tables.")
    ] = False,
    html: Annotated[
        Path | None, typer.Option("--html", help="Also write a self-contained HTML report here.")
    ] = None,
    partial: Annotated[
        bool,
        typer.Option(
            "--partial",
            help="Report an unfinished run (killed, failed or running) on the games present in every "
            "variant, with a warning saying what is missing.",
        ),
    ] = False,
    jobs: JobsOpt = 1,
) -> None:
    """Summarise a finished run: per variant, strategy and seat, every metric with a 95% CI. A
    metagame's run (`simharness meta`, `[meta]`) leads with its metagame, then every profile's numbers."""
    from simharness.report.full import report_of
    from simharness.report.stream import collect
    from simharness.runner import check_jobs

    check_jobs(jobs)
    run = _open(run_dir, partial)
    metagame = _metagame(run) if run.manifest.meta is not None else None
    if metagame is not None and html is not None:
        # A metagame's page is its answer; its hundreds of profiles stay in the terminal and JSON.
        from simharness.report.meta_html import write_meta_html

        write_meta_html(metagame, html)
    with _progress() as progress:
        collected = collect(run, scorecard=True, progress=progress, jobs=jobs)
    if collected.note is not None and not json:
        # JSON carries it among the scorecard's notes; stdout stays the JSON alone.
        Console(stderr=True).print(f"[yellow]note:[/] {collected.note}")
    data = report_of(collected)
    if html is not None and metagame is None:
        from simharness.report.html import write_html
        from simharness.store import naming

        with naming(html):
            write_html(run, data, html, collected.sums)
    if json:
        if metagame is not None:
            from simharness.report.meta import public

            data = {"metagame": public(metagame), **data}
        _dump(data)
        return
    from simharness.report.full import print_report

    if metagame is not None:
        from simharness.report.meta import print_meta

        print_meta(metagame, _console())
        _console().print("\n[bold]every profile's numbers[/]")
    print_report(data, _console())
    if html is not None:
        _console().print(escape(f"HTML report: {html}"))


def _metagame(run: Run) -> dict[str, Any]:
    """The metagame of a meta run, read as its config said (metric, α, resamples, seed)."""
    from simharness.config import meta_reading
    from simharness.report.meta import build

    return build(run, **meta_reading((run.manifest.config or {}).get("meta") or {}))


def compare(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (results/<name>).")],
    a: Annotated[
        str,
        typer.Option("--a", help="Strategy A (the candidate); STRATEGY@VARIANT takes it from that variant."),
    ],
    b: Annotated[
        str,
        typer.Option("--b", help="Strategy B (the reference); STRATEGY@VARIANT takes it from that variant."),
    ],
    metric: Annotated[
        str, typer.Option(help="win (the 1st-place rate), final_points, rank or rank_points.")
    ] = "win",
    variant: Annotated[
        str | None, typer.Option(help="Variant of an arm spelled without @VARIANT (default: the first).")
    ] = None,
    alpha: Annotated[float, typer.Option(help="Two-sided level of the fixed-sample verdict.")] = 0.05,
    json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    jobs: JobsOpt = 1,
) -> None:
    """Two strategies paired on shared deals: difference, clustered CI, pairing gain, fixed-sample verdict."""
    from simharness.report.compare import compare_strategies, print_comparison
    from simharness.runner import check_jobs

    check_jobs(jobs)
    run = _open(run_dir)
    try:
        with _progress() as progress:
            result = compare_strategies(
                run, a, b, metric=metric, variant=variant, alpha=alpha, progress=progress, jobs=jobs
            )
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    if json:
        _dump(result)
    else:
        print_comparison(result, _console())


# `plan --from` metric names beside those of the paired comparisons (stats.paired.METRIC_EXPRS).
PLAN_METRICS = {"first_place": "win"}


def plan(
    effect: Annotated[
        float | None,
        typer.Option(
            help="Difference to detect: in a rate (the 1st-place rate, e.g. 0.01), or with --from in the "
            "metric's unit (default with --from: the difference the run observed)."
        ),
    ] = None,
    baseline: Annotated[
        float | None, typer.Option(help="Baseline rate (the 1st-place rate), e.g. 0.25; not with --from.")
    ] = None,
    alpha: Annotated[float, typer.Option(help="Two-sided significance level.")] = 0.05,
    power: Annotated[float, typer.Option(help="Power (1 − β).")] = 0.8,
    paired_efficiency: Annotated[
        float | None, typer.Option(help="Pairing efficiency E (in games) from `simharness compare`.")
    ] = None,
    games_per_deal: Annotated[
        int, typer.Option(help="Games per deal of the paired design (4 for 4-player duplicate).")
    ] = 1,
    from_run: Annotated[
        Path | None,
        typer.Option(
            "--from",
            help="A run directory: plan A − B from the variance, pairing and games per deal it measured.",
        ),
    ] = None,
    a: Annotated[str | None, typer.Option("--a", help="With --from: strategy A.")] = None,
    b: Annotated[str | None, typer.Option("--b", help="With --from: strategy B.")] = None,
    metric: Annotated[
        str,
        typer.Option(help="With --from: first_place (1st-place rate), final_points, rank or rank_points."),
    ] = "first_place",
    variant: Annotated[
        str | None, typer.Option(help="With --from: the variant (default: the first).")
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Games (and deals) needed to detect a difference: from a rate (vs a known rate, two arms, paired,
    SPRT) or, with --from RUN, from what a run measured (fixed-sample and sequential tests)."""
    if from_run is not None:
        _plan_from(from_run, a, b, metric, variant, effect, alpha, power, json)
        return
    if effect is None or baseline is None:
        raise typer.BadParameter("expected --effect and --baseline (or --from RUN with --a and --b)")
    from rich.table import Table

    from simharness.stats.power import plan as make_plan

    try:
        p = make_plan(effect, baseline, alpha, power, paired_efficiency, games_per_deal)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    if json:
        _dump(p.to_dict())
        return
    t = Table(
        title=f"{baseline:g} → {baseline + effect:g} at α={alpha:g} (two-sided), power {power:g}",
        title_justify="left",
    )
    t.add_column("design")
    t.add_column("games", justify="right")
    t.add_column("deals", justify="right")
    t.add_row("vs a known baseline rate", f"{p.one_sample:,}", f"{p.one_sample:,}")
    t.add_row("two independent arms (per arm)", f"{p.two_arms_per_arm:,}", f"{p.two_arms_per_arm:,}")
    if p.paired_games is not None and p.paired_deals is not None:
        t.add_row(
            f"paired, E = {paired_efficiency:g}, {games_per_deal} games per deal",
            f"{p.paired_games:,}",
            f"{p.paired_deals:,}",
        )
    sprt = f"SPRT vs known rate (one-sided α={p.sprt_alpha:g}, β={1 - power:g}), expected"
    t.add_row(f"{sprt} at H0", f"{p.sprt_expected_h0:,.0f}", f"{p.sprt_expected_h0:,.0f}")
    t.add_row(f"{sprt} at H1", f"{p.sprt_expected_h1:,.0f}", f"{p.sprt_expected_h1:,.0f}")
    _console().print(t)


def _plan_from(
    run_dir: Path,
    a: str | None,
    b: str | None,
    metric: str,
    variant: str | None,
    effect: float | None,
    alpha: float,
    power: float,
    json: bool,
) -> None:
    """``plan --from``: the sizes of :func:`stats.power.plan_paired` from the run's paired comparison."""
    from rich.table import Table

    from simharness.report.compare import compare_strategies
    from simharness.stats.paired import METRIC_EXPRS
    from simharness.stats.power import plan_paired

    if a is None or b is None:
        raise typer.BadParameter("--from RUN needs the strategies to compare: --a and --b")
    known = [*PLAN_METRICS, *(m for m in METRIC_EXPRS if m not in PLAN_METRICS.values())]
    if metric not in known:
        raise typer.BadParameter(f'metric: expected one of {", ".join(known)}, got "{metric}"')
    run = _open(run_dir)
    try:
        with _progress() as progress:
            c = compare_strategies(
                run, a, b, metric=PLAN_METRICS.get(metric, metric), variant=variant, progress=progress
            )
        if c["var_paired"] is None:
            raise ValueError(f"{a} and {b} share no deals in this run: nothing to measure a paired plan on")
        gpd = float(c["games_per_deal"])
        observed = c["difference"]["estimate"]
        if effect is None and observed is None:
            raise ValueError("effect: the run observed no difference to plan for; give --effect")
        want = abs(observed) if effect is None else effect
        look = run.manifest.look_every
        p = plan_paired(
            c["var_paired"] / gpd,
            gpd,
            want,
            alpha,
            power,
            c["var_independent"],
            look_deals=max(1, round(look / gpd)),
        )
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    if json:
        asked = {"run": str(run_dir), "a": a, "b": b, "metric": metric, "variant": c["variant"]}
        _dump({**asked, "observed": c["difference"], **p.to_dict()})
        return
    diff = c["difference"]
    t = Table(
        title=(
            f"{escape(a)} − {escape(b)}, {metric} ({c['variant']}): observed {diff['estimate']:.4g} "
            f"[{diff['lo']:.4g}, {diff['hi']:.4g}]; to detect |δ| = {p.effect:.4g} at α={alpha:g} "
            f"(two-sided), power {power:g}\nVar per deal {p.var_deal:.4g}, {gpd:g} games per deal"
            + (f", pairing efficiency E = {p.efficiency:.3g}" if p.efficiency is not None else "")
        ),
        title_justify="left",
    )
    t.add_column("design")
    t.add_column("games", justify="right")
    t.add_column("deals", justify="right")
    t.add_row("fixed sample, this run's design (paired t)", f"{p.games:,}", f"{p.deals:,}")
    if p.independent_games is not None:
        t.add_row("fixed sample, independent games", f"{p.independent_games:,}", "")
    seq = f"three-outcome sequential test at ±{p.effect:.4g} (looks every {p.look_deals:,} deals), expected"
    t.add_row(f"{seq}, no difference", f"{p.sequential_games_none:,.0f}", f"{p.sequential_deals_none:,.0f}")
    t.add_row(
        f"{seq}, |δ| = {p.effect:.4g}",
        f"{p.sequential_games_effect:,.0f}",
        f"{p.sequential_deals_effect:,.0f}",
    )
    _console().print(t)
