"""`simharness meta GAME --strategies a,b,...`: the metagame of a rule set, played as an ordinary run
directory of ``[meta]`` variants (every profile seat-rotated on the same keyed deals) and read by
``report.meta``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from simharness import config, runner, store, tomlfile
from simharness.errors import ConfigError


def rule_value(text: str) -> Any:
    """``--rule K=V``'s value as TOML reads it (``false``, ``500``, ``"none"``), else the bare text."""
    try:
        return tomlfile.value_of(text)
    except ValueError:
        return text


def rules_of(rules: list[str]) -> dict[str, Any]:
    out = {}
    for r in rules:
        key, sep, value = r.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f'expected K=V, e.g. kuitan=false; got "{r}"', field="--rule")
        out[key.strip()] = rule_value(value.strip())
    return out


def meta_config(
    game: str,
    strategies: list[str],
    games: int,
    seed: int,
    preset: str | None,
    rules: dict[str, Any],
    variants: Path | None,
    metric: str,
) -> tuple[str, str]:
    """The name and the text of the experiment config a metagame study runs: ``[meta]`` over the
    strategies, the rules (``variants``'s ``[rules]``, then ``preset`` and ``rules`` over them) and the
    rule variants of ``variants``'s ``[variants]`` and ``[grid]``."""
    study: dict[str, Any] = tomlfile.load(variants) if variants is not None else {}
    base = dict(study.get("rules") or {})
    if preset is not None:
        base["preset"] = preset
    base.update(rules)
    listed = ", ".join(strategies)
    name = f"meta-{game}" + (f"-{variants.stem}" if variants is not None else "")
    lines = [
        f"name = {tomlfile.value(name)}",
        f"game = {tomlfile.value(game)}",
        f"games = {games}",
        f"seed = {seed}",
        f"description = {tomlfile.value(f'The metagame of {game}: which of {listed} survive')}",
        "",
        "[rules]",
        *(f"{tomlfile.key(k)} = {tomlfile.value(v)}" for k, v in base.items()),
        "",
        "[meta]",
        f"strategies = {tomlfile.value(strategies)}",
        f"metric = {tomlfile.value(metric)}",
    ]
    for v, over in (study.get("variants") or {}).items():
        lines += [
            "",
            f"[variants.{tomlfile.key(v)}]",
            *(f"{tomlfile.key(k)} = {tomlfile.value(x)}" for k, x in over.items()),
        ]
    if study.get("grid"):
        lines += [
            "",
            "[grid]",
            *(f"{tomlfile.key(k)} = {tomlfile.value(x)}" for k, x in study["grid"].items()),
        ]
    return name, "\n".join([*lines, ""])


def show(
    exp: config.Experiment,
    run_dir: Path,
    out: Console,
    as_json: bool,
    html: Path | None,
    reading: dict[str, Any],
) -> None:
    """The metagame of a finished run, in the terminal (or as JSON) and as an HTML page."""
    # The statistics (scipy) load when a study is read, not when the CLI starts.
    from simharness.report import meta as meta_report

    result = meta_report.build(store.open_run(run_dir), **reading)
    if as_json:
        typer.echo(json.dumps(meta_report.public(result), indent=2))
    else:
        meta_report.print_meta(result, out)
    if html is not None:
        from simharness.report.meta_html import write_meta_html

        write_meta_html(result, html)
        if not as_json:
            out.print(escape(f"html: {html}"))
    if not as_json:
        tail = f"(config {exp.path}; `simharness report {run_dir}` for every number)"
        out.print(escape(f"\nrun directory: {run_dir}  {tail}"))


def register(app: typer.Typer, user_errors: Any, out: Console) -> None:
    @app.command("meta")
    @user_errors
    def meta(
        game: Annotated[str, typer.Argument(help="A game name (see `simharness games`).")],
        strategies: Annotated[str, typer.Option(help="Comma-separated strategies (at least two).")],
        preset: Annotated[str | None, typer.Option(help="The base rule set.")] = None,
        rule: Annotated[
            list[str] | None, typer.Option("--rule", help="A rule option K=V over the preset (repeatable).")
        ] = None,
        variants: Annotated[
            Path | None,
            typer.Option(
                help="A config whose [rules], [variants] and [grid] are the rule variants to compare."
            ),
        ] = None,
        games_per_profile: Annotated[
            int,
            typer.Option(
                "--games-per-profile", "-n", min=1, help="Games per profile (a multiple of the seats)."
            ),
        ] = 1000,
        metric: Annotated[
            str, typer.Option(help="The payoff: first_place, rank_points or final_points.")
        ] = "rank_points",
        seats: Annotated[
            int | None, typer.Option(help="Seats per table, where the game's count is not fixed.")
        ] = None,
        out_dir: Annotated[Path, typer.Option("--out", "-o", help="Parent of the run directory.")] = Path(
            "results"
        ),
        html: Annotated[
            Path | None, typer.Option(help="Also write the metagame's HTML page to this file.")
        ] = None,
        seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Master seed.")] = 0,
        jobs: Annotated[int, typer.Option("--jobs", "-j", help="Parallel workers; -1 = all cores.")] = -1,
        force: Annotated[
            bool, typer.Option("--force", help="Replace a different study in the run directory.")
        ] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    ) -> None:
        """Which strategies survive among players who adapt: every profile (multiset of the strategies
        over the seats) seat-rotated on the same keyed deals, under each rule variant, written as an
        ordinary run directory (<out>/meta-<game>, its config beside it); prints the equilibria,
        α-Rank, the dominant strategy, balance and restricted play, and how each rule variant moves
        the equilibrium (docs/metagame.md)."""
        from simharness.report import meta as meta_report

        names = [s.strip() for s in strategies.split(",") if s.strip()]
        if metric not in meta_report.COLUMNS:
            raise ConfigError(
                f"expected one of {', '.join(meta_report.COLUMNS)}, got {metric!r}", field="--metric"
            )
        name, text = meta_config(
            game, names, games_per_profile, seed, preset, rules_of(rule or []), variants, metric
        )
        if seats is not None:
            text = text.replace("[meta]\n", f"[meta]\nseats = {seats}\n")
        out_dir.mkdir(parents=True, exist_ok=True)
        cfg = out_dir / f"{name}.toml"
        exp = config.load(cfg, text=text)
        run_dir = runner.run(
            exp,
            out_dir,
            jobs=jobs,
            force=force,
            console=Console(stderr=True, quiet=quiet or as_json),
            before_play=lambda: store.write_file(cfg, text.encode(), out_dir),
        )
        assert exp.meta_reading is not None
        show(exp, run_dir, out, as_json, html, exp.meta_reading)
