"""The `simharness` command line (Typer).

Harness commands are defined here; each game with hand-level tools adds its own subcommands from
``simharness/games/<game>/cli.py`` through a ``register(app, score_app)`` function
(``simharness.games.registry``), so that games stay in their own packages.

A wrong input (config, option, run directory) ends with a one-paragraph message on stderr and exit
status 2, never a traceback.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Column, Table

from simharness import (
    buildinfo,
    config,
    engine,
    helpfmt,
    meta_cli,
    runner,
    starter,
    store,
    strategies,
    sweep_cli,
    vocabulary,
)
from simharness.errors import UserError, strategy_failure
from simharness.games import registry as _registry
from simharness.report import cli as report_cli

app = typer.Typer(
    name="simharness",
    help="Reproducible Monte Carlo tournaments of mahjong-family games between scripted strategies.",
    no_args_is_help=True,
    add_completion=False,
)
score_app = typer.Typer(
    help="Score one hand of a game and show every part of its value.", no_args_is_help=True
)
app.add_typer(score_app, name="score")


def _version(show: bool) -> None:
    if show:
        from simharness import __version__, _engine

        commit = buildinfo.git_commit() or "unknown"
        typer.echo(f"simharness {__version__} (engine {_engine.__version__}, commit {commit})")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Reproducible Monte Carlo tournaments of mahjong-family games between scripted strategies."""


out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)

F = TypeVar("F", bound=Callable[..., Any])


def _exit(code: int) -> NoReturn:
    """Exits with ``code``, without waiting for shard threads that a stopped run left inside a
    Python strategy's ``decide`` blocked in a C call (the interpreter would join them forever);
    their shards are discarded, and every shard written is whole."""
    from simharness import backends

    if backends.abandoned():
        typer.echo("(a Python strategy did not return from decide(); its shard is discarded)", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    raise typer.Exit(code)


def _user_errors(fn: F) -> F:
    """Turns bad input into a one-paragraph message and exit status 2, and a run stopped by Ctrl-C
    into what it kept and exit status 130."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except runner.Interrupted as e:
            typer.echo(f"interrupted: {e}", err=True)
            _exit(130)
        except (UserError, engine.OptionError) as e:
            text = e.describe() if isinstance(e, UserError) else str(e)
            typer.echo(f"error: {text}", err=True)
            _exit(2)
        except OSError as e:
            # The file system refused (permissions, a file where a folder should be, a full disk):
            # the path the user gave is wrong for this use, so it is wrong input too.
            where = f"{e.filename}: " if e.filename else ""
            typer.echo(f"error: {where}{e.strerror or e}", err=True)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


ConfigArg = Annotated[
    Path, typer.Argument(help="The experiment config (TOML); see README.md for the format.")
]
GamesOpt = Annotated[
    int | None, typer.Option("--games", "-n", min=1, help="Games per variant (overrides `games`).")
]
SeedOpt = Annotated[int | None, typer.Option("--seed", "-s", min=0, help="Master seed (overrides `seed`).")]
GameArg = Annotated[str, typer.Argument(help="A game name (see `simharness games`).")]


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    return json.dumps(v) if isinstance(v, (dict, list)) else str(v)


@app.command()
@_user_errors
def run(
    config_path: ConfigArg,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Parallel workers; -1 = all cores.")] = -1,
    out_dir: Annotated[
        Path, typer.Option("--out", "-o", help="Parent of the run directory <out>/<name>.")
    ] = Path("results"),
    games: GamesOpt = None,
    seed: SeedOpt = None,
    backend: Annotated[
        str | None,
        typer.Option(
            help="Where shards are played: threading, loky, multiprocessing or dask; overrides `backend`."
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(help="Dask scheduler address (default: DASK_SCHEDULER_ADDRESS, else a local cluster)."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace a run of a different config in the run directory.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")] = False,
    full: Annotated[
        bool,
        typer.Option("--full", help="Every table of `simharness report`, not only the verdict and headline."),
    ] = False,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the whole traceback when a Python strategy fails.")
    ] = False,
) -> None:
    """Run the experiment CONFIG describes; a re-run finishes only the missing shards."""
    exp = config.load(config_path, games=games, seed=seed)
    console = Console(stderr=True, quiet=quiet)
    try:
        run_dir = runner.run(
            exp, out_dir, jobs=jobs, backend=backend, scheduler=scheduler, force=force, console=console
        )
    except runner.Interrupted:
        raise  # told by _user_errors, with what was kept
    except KeyboardInterrupt:
        typer.echo(
            "interrupted: the finished shards are kept; run the same command again to finish", err=True
        )
        raise typer.Exit(130) from None
    except Exception as e:
        # A strategy script's code failed: the user's input, told without the harness's frames.
        failure = None if debug else strategy_failure(e)
        if failure is None:
            raise
        typer.echo(failure, err=True)
        _exit(2)
    if not quiet and exp.meta_reading is not None:
        # A metagame's answer is its equilibria, not the report of each of its many profiles.
        meta_cli.show(exp, run_dir, out, False, None, exp.meta_reading)
    elif not quiet:
        from simharness.report.full import build_report, print_report
        from simharness.report.summary import print_summary

        report = build_report(store.open_run(run_dir), jobs=jobs)
        if full:
            print_report(report, out)
        else:
            print_summary(report, out, full=False)
        out.print(escape(f"\nrun directory: {run_dir}  (details: simharness report {run_dir})"))


sweep_cli.register(app, _user_errors, out)
meta_cli.register(app, _user_errors, out)


@app.command()
@_user_errors
def tune(
    config_path: ConfigArg,
    slot: Annotated[int, typer.Option("--slot", help="The lineup slot whose knobs are tuned.")],
    knobs: Annotated[str, typer.Option("--knobs", help="Numeric knobs to tune, comma-separated.")],
    objective: Annotated[
        str, typer.Option(help="first_place (share of 1st place) or final_points.")
    ] = "first_place",
    budget: Annotated[int, typer.Option(help="Games played by the tuning steps (both arms).")] = 20_000,
    steps: Annotated[int, typer.Option(help="SPSA steps.")] = 40,
    seed: SeedOpt = None,
    variant: Annotated[str | None, typer.Option(help="The variant's rules (default: the first).")] = None,
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Parent of the tune's folder.")] = Path(
        "results"
    ),
) -> None:
    """Tune numeric knobs of one lineup slot against the rest of the lineup (SPSA on shared deals),
    confirm on fresh deals and write the tuned strategy script beside CONFIG."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from simharness import tune as tuner

    exp = config.load(config_path)
    p = tuner.plan(
        exp, slot, [k.strip() for k in knobs.split(",") if k.strip()], objective, budget, steps, seed, variant
    )
    console = Console(stderr=True)
    columns = (
        TextColumn("[bold]tuning"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("steps"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("tune", total=steps)
        result = tuner.tune(p, out_dir, progress=lambda done, total: bar.update(task, completed=done))
    c = result.confirmation
    names = [k.name for k in p.knobs]
    out.print(
        f"{escape(exp.lineup[slot].strategy)} (slot {slot}), {objective}, {budget:,} games in {steps} steps"
    )
    for name, a, b in zip(names, result.start, result.tuned, strict=True):
        out.print(f"  {name}: {_fmt(a)} → {_fmt(b)}")
    verdict = "better" if c.lo > 0 else "worse" if c.hi < 0 else "no difference detected"
    out.print(
        f"confirmed on {c.games:,} fresh games: tuned − start = {c.estimate:+.4g} [{c.lo:+.4g}, {c.hi:+.4g}] "
        f"(p = {c.pvalue:.3g}): {verdict}"
    )
    out.print(escape(f"strategy script: {result.script}  (trajectory: {result.folder / tuner.TRAJECTORY})"))


@app.command()
@_user_errors
def validate(config_path: ConfigArg, games: GamesOpt = None, seed: SeedOpt = None) -> None:
    """Check CONFIG (structure, rules of every variant, strategies and knobs) without playing."""
    exp = config.load(config_path, games=games, seed=seed)
    # A path, a label or a script's name may hold "[": rich would take it for markup.
    out.print(f"{escape(str(config_path))}: ok")
    shards = f"{exp.shard_count:,} shard" + ("s" if exp.shard_count != 1 else "")
    out.print(
        f"  {exp.game}, {exp.games:,} games per variant, seed {exp.seed}, "
        f"{shards} of up to {exp.shard_size:,} per variant, config hash {exp.config_hash}"
    )
    base = engine.resolve_rules(exp.game)
    for name, rules in exp.variants.items():
        diff = {k: v for k, v in rules.items() if base.get(k) != v}
        shown = ", ".join(f"{k}={_fmt(v)}" for k, v in diff.items()) or "the defaults"
        own = exp.lineups.get(name)
        seated = f"; players {', '.join(s.strategy for s in own)}" if own else ""
        out.print(f"  variant {name}: {escape(shown + seated)}")
    for name, reason in (exp.sweep.skipped if exp.sweep else {}).items():
        out.print(f"  skipped {name}: {escape(reason)}")
    for s in exp.lineup:
        out.print(escape(f"  player {s.slot}: {s.strategy} (v{s.version}, {s.path})"))


@app.command()
@_user_errors
def init(
    directory: Annotated[Path, typer.Argument(help="Where to write the experiment (created if needed).")],
    game: Annotated[str, typer.Option(help="The game to play (`simharness games`).")] = "sugoroku",
) -> None:
    """Write a starter experiment into DIRECTORY: a commented config and a strategy script to edit."""
    for path in starter.write(directory, game):
        out.print(escape(f"wrote {path}"))
    out.print(escape(f"next: cd {directory} && simharness run {starter.CONFIG}"))


def rules_path(spec: str) -> Path:
    """A game's rule specification (its ``Game::SPEC``, a path in the repository) as a file to open:
    the package's copy of ``docs/rules/`` (``simharness/builtin/rules``, the repository's folder in a
    checkout), relative to here when below it."""
    packaged = strategies.BUILTIN / "rules" / Path(spec).name
    if Path(spec).parent != Path("docs/rules") or not packaged.is_file():
        return Path(spec)
    path, cwd = packaged.resolve(), Path.cwd().resolve()
    return path.relative_to(cwd) if path.is_relative_to(cwd) else path


@app.command("games")
def list_games() -> None:
    """List the games the engine plays, with their rule specifications."""
    t = Table("game", "title", "players", "rules")
    elsewhere: set[Path] = set()
    for g in engine.games():
        path = rules_path(g.spec)
        if path.is_absolute():  # outside this folder: the file here, its folder whole below the table
            elsewhere.add(path.parent)
        t.add_row(
            g.name,
            g.title,
            f"{g.min_players}-{g.max_players}",
            path.name if path.is_absolute() else str(path),
        )
    out.print(t)
    for folder in sorted(elsewhere):
        out.print(escape(f"rules files in {folder}/"), overflow="fold")


def _values(s: engine.OptionSpec) -> str:
    if s.type == "set":
        return "a list of any of " + ", ".join(s.choices)
    if s.choices:
        return " / ".join(s.choices)
    if s.min is not None:
        return f"{_fmt(s.min)} .. {_fmt(s.max)}" + (' or "none"' if s.type == "int|none" else "")
    return "true / false" if s.type == "bool" else ""


def _print_options(specs: tuple[engine.OptionSpec, ...], in_play: dict[str, str] | None = None) -> None:
    """One block per option: name, type, default and values on a line, the meaning indented below
    (readable at any terminal width, unlike a five-column table); ``in_play``: what the report
    counts of an option's events."""
    for s in specs:
        out.print(f"[bold]{s.name}[/]  {s.type} = {escape(_fmt(s.default))}   [dim]{escape(_values(s))}[/]")
        out.print(f"    {escape(s.doc)}")
        if in_play and s.name in in_play:
            out.print(f"    [green]in play:[/] {escape(in_play[s.name])}")


@app.command()
@_user_errors
def rules(
    game: GameArg,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """List every house-rule option of GAME (type, default, values, meaning) and its presets."""
    specs, presets = engine.rule_options(game), engine.presets(game)
    counters = _registry.rule_counters(game)
    if as_json:
        options = [{**vars(s), "in_play": list(counters.get(s.name, ()))} for s in specs]
        typer.echo(json.dumps({"options": options, "presets": [vars(p) for p in presets]}, indent=2))
        return
    # How often the rule applied, as the report counts it (its metrics' names and units).
    in_play = {
        o: ", ".join(f"{vocabulary.label(game, k)} [{k}]" for k in keys) for o, keys in counters.items()
    }
    out.print(
        f"[bold underline]{game} house rules[/] (set them in a config's \\[rules] or \\[variants.NAME])\n"
    )
    _print_options(specs, in_play)
    out.print("\n[bold underline]presets[/] (rules.preset = NAME; overrides on top of the defaults)\n")
    out.print("[bold]default[/]\n    the spec's recommended defaults")
    for p in presets:
        overrides = ", ".join(f"{k} = {_fmt(v)}" for k, v in p.overrides.items())
        out.print(f"[bold]{p.name}[/]  [dim]{escape(overrides)}[/]\n    {escape(p.doc)}")


@app.command("strategies")
@_user_errors
def list_strategies(
    game: Annotated[str | None, typer.Argument(help="Only this game's strategies.")] = None,
    knobs: Annotated[
        bool, typer.Option("--knobs", "-k", help="Also list every knob and each script's values.")
    ] = False,
) -> None:
    """List the strategy scripts visible from here: strategies/<game>/<name>.toml in this directory and
    its parents, then the built-in ones; each with where it comes from. Invalid ones are marked with
    the reason and left out of the knob tables."""
    if game is not None:
        engine.game_info(game)
    cwd = Path.cwd()
    found = strategies.listing(game, cwd)
    for s in found:
        head = f"[bold]{s.game}/{escape(s.path.stem)}[/]"
        if s.problem is not None or s.script is None:
            where = str(s.path.relative_to(cwd) if s.path.is_relative_to(cwd) else s.path)
            problem = escape(s.problem or "")
            out.print(f"{head}  [bold red]INVALID[/]  [dim]{escape(where)}[/]\n    {problem}")
            continue
        # A lineup names a script by its file; the players table shows its `name`.
        shown = f" (name {escape(s.script.name)})" if s.script.name != s.path.stem else ""
        where = escape(strategies.origin(s.script, cwd))
        out.print(f"{head}{shown}  v{s.script.version}  [dim]{where}[/]\n    {escape(s.script.description)}")
    if not found:
        out.print("no strategy scripts found (strategies/<game>/<name>.toml from here up, nor built in)")
    if not knobs:
        return
    valid = [s.script for s in found if s.script is not None and s.problem is None]
    for g in [game] if game else sorted({s.game for s in valid} or set(engine.game_names())):
        out.print(
            f"\n[bold underline]{g} knobs[/] (set them in a script's \\[knobs] or a lineup entry's knobs)\n"
        )
        _print_options(engine.knob_options(g))
        scripts = [s for s in valid if s.game == g]
        if scripts:
            kt = Table(*(escape(s.path.stem) for s in scripts))
            kt.columns.insert(0, Column("knob", no_wrap=True))
            resolved = [s.resolved_knobs() for s in scripts]
            for spec in engine.knob_options(g):
                kt.add_row(spec.name, *(_fmt(r[spec.name]) for r in resolved))
            out.print(kt)


# Columns the harness adds to the engine's tables.
HARNESS_COLUMNS = {
    "*": [("variant", "string", "The rule variant (the hive partition `variant=<v>` of the run directory).")],
    "players": [
        ("strategy", "string", "The strategy name of the lineup slot in `player` (from the config).")
    ],
}


@app.command()
@_user_errors
def schema(
    game: GameArg,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Document the tables a run of GAME writes: every column with its type and meaning; then the
    tables `simharness show` adds (the events of one game)."""
    tables: list[dict[str, Any]] = []
    for show_only, schema in ((False, engine.schema(game)), (True, engine.show_schema(game))):
        for t in schema:
            harness = [] if show_only else HARNESS_COLUMNS["*"] + HARNESS_COLUMNS.get(t.name, [])
            cols = [
                {"name": c.name, "dtype": c.dtype, "doc": _coded_doc(c), "source": "engine"}
                for c in t.columns
            ]
            cols += [{"name": n, "dtype": d, "doc": doc, "source": "harness"} for n, d, doc in harness]
            tables.append({"name": t.name, "doc": t.doc, "columns": cols, "show_only": show_only})
    if as_json:
        typer.echo(json.dumps(tables, indent=2))
        return
    for shown in tables:
        where = " (in `simharness show` only)" if shown["show_only"] else ""
        out.print(f"\n[bold]{shown['name']}[/]{where}: {escape(shown['doc'])}")
        table = Table("column", "type", "meaning")
        for c in shown["columns"]:
            added = " (added by the harness)" if c["source"] == "harness" else ""
            table.add_row(c["name"], c["dtype"], escape(c["doc"] + added))
        out.print(table)


def _coded_doc(c: engine.ColumnSpec) -> str:
    """A column's meaning with what its codes stand for (the names Python reads decoded)."""
    if c.labels is not None:
        return f"{c.doc} Values: " + ", ".join(f"{i} = {n}" for i, n in enumerate(c.labels)) + "."
    if c.bits is not None:
        return f"{c.doc} Bits: " + ", ".join(f"{i} = {n}" for i, n in enumerate(c.bits)) + "."
    return c.doc


@app.command()
@_user_errors
def show(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (as written by `simharness run`).")],
    game: Annotated[int, typer.Option("--game", "-g", help="The game's index within its variant.")],
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="The variant (default: the run's first).")
    ] = None,
    out_file: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="The HTML file (default: RUN_DIR/show/<variant>-game<N>.html)."),
    ] = None,
) -> None:
    """Play game N of a run again from its manifest and write it as one self-contained HTML page."""
    from simharness.show import write_page

    path = write_page(run_dir, game, variant, out_file)
    typer.echo(str(path))


# Statistics commands (simharness/report/cli.py); they read a run directory through simharness.store.
for _command in (report_cli.report, report_cli.compare, report_cli.plan):
    app.command()(_user_errors(_command))

_registry.register_commands(app, score_app)
helpfmt.apply(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
