"""`simharness sweep GAME`: a one-option-at-a-time sweep written as an ordinary run directory."""

from __future__ import annotations

import hashlib
import math
import re
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from simharness import config, configfile, runner, store, strategies, tomlfile
from simharness.errors import ConfigError


def coverage_path(game: str) -> Path:
    """The game's coverage config shipped with the package (the repository's configs/, reachable as
    ``simharness/builtin/configs``), so a sweep finds its default lineup from any folder."""
    return strategies.BUILTIN / "configs" / f"{game}-coverage.toml"


def coverage_lineup(game: str) -> list[Any]:
    """The players of the game's coverage config: the default sweep lineup."""
    path = coverage_path(game)
    if not path.exists():
        raise ConfigError(
            f"no coverage lineup ({path}) to default to; name the strategies", field="--players"
        )
    return list(tomlfile.load(path)["players"])


# A run name longer than this is replaced by a digest of what it would have said.
MAX_NAME = 80


def sweep_name(
    game: str,
    preset: str,
    players: list[str] | None,
    seed: int,
    options: str,
    until: str | None,
    look_every: int | None,
) -> str:
    """The run directory of a sweep, named from the choices that make it another experiment: the
    preset, the options, a lineup given with --players, the seed and --until (not --games: more games
    grow the same run). The defaults leave ``sweep-<game>``."""
    parts = [f"sweep-{game}"]
    if preset != "default":
        parts.append(preset)
    if options != "all":
        parts.append("+".join(o.strip() for o in options.split(",") if o.strip()))
    if players:
        parts.append(".".join(players))
    if seed:
        parts.append(f"seed{seed}")
    if until is not None:
        parts.append(f"until-{until}" + (f"-every{look_every}" if look_every is not None else ""))
    name = re.sub(r"[^A-Za-z0-9_.+-]+", "_", "-".join(parts))
    if len(name) > MAX_NAME:
        digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12]
        name = f"sweep-{game}-{digest}"
    return name


def until_section(until: str | None, look_every: int | None) -> list[str]:
    """``--until METRIC:MU1`` (and ``--look-every``) as the config's ``[sweep.until]`` lines."""
    if until is None:
        if look_every is not None:
            raise ConfigError("--look-every needs --until", field="--look-every")
        return []
    metric, sep, mu1 = until.rpartition(":")
    try:
        effect = float(mu1)
    except ValueError:
        effect = None
    if not sep or not metric or effect is None or not math.isfinite(effect):
        raise ConfigError(
            f'expected METRIC:EFFECT with a finite EFFECT, e.g. "win[efficiency]:0.03"; got "{until}"',
            field="--until",
        )
    lines = ["", "[sweep.until]", f"metric = {tomlfile.value(metric)}", f"mu1 = {effect!r}"]
    return lines + ([f"look_every = {look_every}"] if look_every is not None else [])


def sweep_config(
    name: str,
    game: str,
    preset: str,
    players: list[Any],
    games: int,
    seed: int,
    options: str,
    until: list[str] | None = None,
) -> str:
    """The text of the experiment config a sweep runs (``until``: its ``[sweep.until]`` lines)."""
    chosen = "all" if options == "all" else [o.strip() for o in options.split(",") if o.strip()]
    return "\n".join([
        f"name = {tomlfile.value(name)}",
        f"game = {tomlfile.value(game)}",
        f"games = {games}",
        f"seed = {seed}",
        f"description = {tomlfile.value(f'One-option-at-a-time sweep of {game} around preset {preset}')}",
        f"players = {tomlfile.value(players)}",
        "", "[rules]", f"preset = {tomlfile.value(preset)}",
        "", "[sweep]", f"options = {tomlfile.value(chosen)}", *(until or []), "",
    ])  # fmt: skip


def parse_rows(rows: str) -> int | None:
    """``--rows N|all``: the rows of each table (None: every one)."""
    if rows == "all":
        return None
    if rows.isdigit() and int(rows) > 0:
        return int(rows)
    raise ConfigError(f'expected a positive number or "all", got "{rows}"', field="--rows")


def register(app: typer.Typer, user_errors: Any, out: Console) -> None:
    @app.command("sweep")
    @user_errors
    def sweep(
        game: Annotated[str, typer.Argument(help="A game name (see `simharness games`).")],
        preset: Annotated[str, typer.Option(help="The base rule set.")] = "default",
        players: Annotated[
            str | None,
            typer.Option(
                help="Comma-separated strategies (default: the lineup of the game's coverage "
                "config, configs/<game>-coverage.toml, shipped with the package)."
            ),
        ] = None,
        games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games per variant.")] = 1000,
        seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Master seed.")] = 0,
        options: Annotated[str, typer.Option(help="all, or comma-separated rule options.")] = "all",
        name: Annotated[
            str | None,
            typer.Option(
                help="The run directory's name under --out (default: sweep-<game> and the "
                "options that differ from the defaults: preset, options, players, seed, until)."
            ),
        ] = None,
        out_dir: Annotated[Path, typer.Option("--out", "-o", help="Parent of the run directory.")] = Path(
            "results"
        ),
        rows: Annotated[
            str, typer.Option("--rows", help="Options shown per metric table: a number, or all.")
        ] = "15",
        html: Annotated[
            Path | None, typer.Option(help="Also write the tornado charts to this HTML file.")
        ] = None,
        jobs: Annotated[int, typer.Option("--jobs", "-j", help="Parallel workers; -1 = all cores.")] = -1,
        force: Annotated[
            bool, typer.Option("--force", help="Replace a different sweep in the same run directory.")
        ] = False,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
        until: Annotated[
            str | None,
            typer.Option(
                help="METRIC:EFFECT, e.g. win[efficiency]:0.03: stop each variant when a two-sided "
                "sequential test against the base on that metric decides (effect or none at ±EFFECT)."
            ),
        ] = None,
        look_every: Annotated[
            int | None,
            typer.Option("--look-every", min=1, help="Games per variant between looks (with --until)."),
        ] = None,
    ) -> None:
        """Which house rules matter: one variant per non-base value of each rule option, all on the
        base's deals, written as an ordinary run directory (<out>/<name>, with its config <name>.toml
        beside it; the same sweep again resumes it, more --games grow it); prints the lineup, then
        each option's effect on the headline metrics, significant ones first, and lists apart the
        options whose variants played exactly the base's games."""
        from simharness.report.sweep import build_sweep, print_sweep, write_sweep_html

        shown_rows = parse_rows(rows)
        given = [p.strip() for p in players.split(",")] if players else None
        lineup = given or coverage_lineup(game)
        if name is not None and not re.match(configfile.NAME_PATTERN, name):
            raise ConfigError(
                f'"{name}" is not a run name: letters, digits and _ . + - only, from a letter or digit',
                field="--name",
            )
        run_name = name or sweep_name(game, preset, given, seed, options, until, look_every)
        out_dir.mkdir(parents=True, exist_ok=True)
        cfg = out_dir / f"{run_name}.toml"
        text = sweep_config(
            run_name, game, preset, lineup, games, seed, options, until_section(until, look_every)
        )
        exp = config.load(cfg, text=text)
        where = "--players" if given else f"the lineup of {coverage_path(game)}"
        out.print(escape(f"sweep of {game} around preset {preset}, {games:,} games per variant"))
        out.print(escape(f"lineup ({where}):"))
        for s in exp.lineup:
            out.print(escape(f"  seat {s.slot + 1}: {s.strategy}"))
        # The config beside the run is the run's: written only once the run is accepted (a refused
        # sweep leaves the one of the run that is there).
        run_dir = runner.run(
            exp,
            out_dir,
            jobs=jobs,
            force=force,
            console=Console(stderr=True, quiet=quiet),
            before_play=lambda: store.write_file(cfg, text.encode(), out_dir),
        )
        result = build_sweep(store.open_run(run_dir))
        print_sweep(result, out, rows=shown_rows)
        for skipped, reason in (exp.sweep.skipped if exp.sweep else {}).items():
            out.print(f"[dim]skipped {skipped}: {escape(reason)}")
        if html is not None:
            write_sweep_html(result, html)
            out.print(escape(f"html: {html}"))
        out.print(
            escape(
                f"\nrun directory: {run_dir}  (config {cfg}; `simharness report {run_dir}` for every number)"
            )
        )
