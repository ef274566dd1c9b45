"""Running an experiment: shards, backends (``backends.py``), resume.

The games of each variant are cut into shards of ``shard_size`` games (a property of the experiment,
never of ``--jobs``); each shard is one call into the engine and one Parquet file per table, written
by the worker that played it (on a Dask cluster, by this process from the files the worker returns).
Because chance is keyed by game coordinates, a shard's data depends
only on the experiment and the shard, so any number of workers, any backend and any number of
interruptions give the same files.
"""

from __future__ import annotations

import contextlib
import fcntl
import platform
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from simharness import __version__, _engine, backends, buildinfo, engine, store
from simharness.config import Experiment
from simharness.errors import ConfigError, RunDirError


@dataclass(frozen=True)
class _Variant:
    """What a worker needs to play and write shards of one variant (small and picklable)."""

    run_dir: Path
    game: str
    name: str
    rules: dict[str, Any]
    knobs: list[dict[str, Any]]
    strategies: list[str]
    seed: int
    duplicate: bool
    provenance: dict[str, Any]


@dataclass(frozen=True)
class _Shard:
    first_game: int
    count: int
    tables: tuple[str, ...]  # the tables still missing for this shard


def _with_strategy(df: pl.DataFrame, names: list[str]) -> pl.DataFrame:
    """Adds ``strategy`` (the lineup slot's strategy name) right after ``player``."""
    strategy = pl.col("player").replace_strict(list(range(len(names))), names, return_dtype=pl.String)
    cols = df.columns
    at = cols.index("player") + 1
    return df.with_columns(strategy=strategy).select(*cols[:at], "strategy", *cols[at:])


def _shard_files(v: _Variant, s: _Shard) -> tuple[int, list[tuple[Path, bytes]]]:
    """Plays one shard; returns its games and files (path, Parquet bytes), which the caller writes."""
    frames = engine.play_batch(
        v.game, v.rules, v.knobs, seed=v.seed, first_game=s.first_game, count=s.count, duplicate=v.duplicate
    )
    files = []
    for table in s.tables:
        df = frames[table]
        if table == "players":
            df = _with_strategy(df, v.strategies)
        meta = {
            **v.provenance,
            "table": table,
            "variant": v.name,
            "rules": v.rules,
            "first_game": s.first_game,
            "count": s.count,
        }
        files.append((store.shard_path(v.run_dir, table, v.name, s.first_game), store.shard_bytes(df, meta)))
    return s.count, files


def _write(files: list[tuple[Path, bytes]]) -> None:
    for path, data in files:
        store.write_shard(path, data)


def _play_shard(v: _Variant, s: _Shard) -> int:
    """Plays and writes one shard where the run directory is (threads and local worker processes)."""
    count, files = _shard_files(v, s)
    _write(files)
    return count


def manifest_for(exp: Experiment, tables: list[str]) -> dict[str, Any]:
    return {
        "format": store.FORMAT,
        "name": exp.name,
        "game": exp.game,
        "description": exp.description,
        "seed": exp.seed,
        "games": exp.games,
        "duplicate": exp.duplicate,
        "shard_size": exp.shard_size,
        "preset": exp.preset,
        "variants": exp.variants,
        "lineup": [
            {
                "slot": s.slot,
                "strategy": s.strategy,
                "script": s.script,
                "version": s.version,
                "knobs": s.knobs,
            }
            for s in exp.lineup
        ],
        "tables": tables,
        "config_hash": exp.config_hash,
        "config_path": str(exp.path),
        "config": exp.raw,
        "provenance": {
            "simharness_version": __version__,
            "engine_version": _engine.__version__,
            "git_commit": buildinfo.git_commit(),
            "config_hash": exp.config_hash,
            "seed": exp.seed,
            "python": platform.python_version(),
            "platform": platform.platform(),
            "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        },
        "complete": False,
    }


def _changed(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    keys = ["game", "games", "seed", "duplicate", "shard_size", "variants", "lineup"]
    out = [k for k in keys if old.get(k) != new.get(k)]
    if "variants" in out and isinstance(old.get("variants"), dict):
        ov, nv = old["variants"], new["variants"]
        out.remove("variants")
        out += [f"variants.{v}" for v in dict.fromkeys([*ov, *nv]) if ov.get(v) != nv.get(v)]
    return out


@contextlib.contextmanager
def _locked(run_dir: Path) -> Iterator[None]:
    """Only one process writes a run directory at a time (a second one would clear the first's temp files)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    with open(run_dir / ".lock", "w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunDirError(
                "another simharness process is writing this run directory", file=run_dir
            ) from None
        yield


def run(
    exp: Experiment,
    out: Path,
    *,
    jobs: int = -1,
    backend: str | None = None,
    scheduler: str | None = None,
    force: bool = False,
    console: Console | None = None,
) -> Path:
    """Plays every missing shard of ``exp`` into ``out/<name>`` and returns the run directory.

    ``backend`` (default: the config's) says where shards are played; ``scheduler`` is the address
    of a Dask scheduler. Raises :class:`RunDirError` if the directory holds another experiment
    (unless ``force``) or a file that is not a valid shard of this one.
    """
    where = exp.backend if backend is None else backends.parse(backend, field="--backend")
    if jobs == 0:
        raise ConfigError("expected a number of workers other than 0 (-1 = every core)", field="--jobs")
    console = console or Console(stderr=True)
    run_dir = out / exp.name
    tables = [t.name for t in engine.schema(exp.game)]
    manifest = manifest_for(exp, tables)
    with _locked(run_dir):
        if force:
            store.clear(run_dir)
        old = store.read_manifest(run_dir)
        if old is not None and old.get("config_hash") != exp.config_hash:
            changed = ", ".join(_changed(old, manifest)) or "the config"
            raise RunDirError(
                f"holds a run of a different config (changed: {changed}); use --force to replace it or "
                "--out for a new directory",
                file=run_dir,
            )
        current = manifest["provenance"]
        if old is not None:
            # The manifest keeps when and by what the run was started; each shard records its own writer.
            commit = old["provenance"].get("git_commit")
            manifest["provenance"] = dict(old["provenance"])
            if commit != current["git_commit"]:
                console.print(f"[yellow]note:[/] resuming a run started at commit {commit}")
                manifest["provenance"]["resumed_at_commit"] = current["git_commit"]
        shards = exp.shards()
        done = store.scan(run_dir, exp.config_hash, tables, list(exp.variants), shards)
        store.write_manifest(run_dir, manifest)

        provenance = {k: current[k] for k in ("simharness_version", "git_commit", "config_hash", "seed")}
        provenance["game"] = exp.game
        provenance["lineup"] = manifest["lineup"]
        work: list[tuple[_Variant, _Shard]] = []
        for name, rules in exp.variants.items():
            v = _Variant(
                run_dir,
                exp.game,
                name,
                rules,
                [s.knobs for s in exp.lineup],
                [s.strategy for s in exp.lineup],
                exp.seed,
                exp.duplicate,
                provenance,
            )
            for first, count in shards:
                missing = tuple(t for t in tables if (t, name, first) not in done)
                if missing:
                    work.append((v, _Shard(first, count, missing)))
        total = exp.games * len(exp.variants)
        remaining = sum(s.count for _, s in work)
        waves, between = [work], None
        if exp.until is not None:
            waves, between, manifest["sequential"] = _sequential(exp.until, exp.games, run_dir, work)
        with backends.pool(where, jobs, scheduler) if work else contextlib.nullcontext() as pool:
            _execute(waves, total, total - remaining, pool, console, between)
        manifest["complete"] = True
        manifest["provenance"]["finished"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        store.write_manifest(run_dir, manifest)
    return run_dir


def _sequential(
    until: dict[str, Any], games: int, run_dir: Path, work: list[tuple[_Variant, _Shard]]
) -> tuple[list[list[tuple[_Variant, _Shard]]], Callable[[int], bool], dict[str, Any]]:
    """Waves of ``until.look_every`` games per variant and the test run between them.

    Every look is replayed from the data on a resumed run (a look uses only the games before its
    boundary), so a run stops at the same look whatever was already on disk.
    """
    from simharness.stats.sequential import Decision, sprt_look

    step = until["look_every"]
    bounds = [*range(step, games, step), games]
    starts = [0, *bounds[:-1]]
    waves = [
        [(v, s) for v, s in work if lo <= s.first_game < hi] for lo, hi in zip(starts, bounds, strict=True)
    ]
    record: dict[str, Any] = {**until, "looks": [], "decision": Decision.CONTINUE.value, "games": 0}

    def between(i: int) -> bool:
        players = store.open_run(run_dir).table("players")
        _, result = sprt_look(players, until, bounds[i])
        record["looks"].append({"games": bounds[i], **result.to_dict()})
        record["decision"], record["games"] = result.decision.value, bounds[i]
        return result.decision is not Decision.CONTINUE

    return waves, between, record


def _played(pool: backends.Pool, wave: list[tuple[_Variant, _Shard]]) -> Iterator[int]:
    """The games of each shard of ``wave`` as it is written: by the workers where they share this
    process's files, else here from the files they return (one writer, no shared file system)."""
    if pool.local:
        yield from pool.imap_unordered(_play_shard, wave)
        return
    for count, files in pool.imap_unordered(_shard_files, wave):
        _write(files)
        yield count


def _execute(
    waves: list[list[tuple[_Variant, _Shard]]],
    total: int,
    already: int,
    pool: backends.Pool | None,
    console: Console,
    between: Callable[[int], bool] | None = None,
) -> None:
    """Plays the waves in order on ``pool`` (None when there is no work); ``between(i)`` after wave
    ``i`` returns True to stop early."""
    work = [w for wave in waves for w in wave]
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=False, disable=not work) as progress:
        task = progress.add_task("playing", total=total, completed=already, rate="")
        played = 0
        for i, wave in enumerate(waves):
            for count in _played(pool, wave) if pool is not None else ():
                played += count
                elapsed = progress.tasks[0].elapsed or 0.0
                rate = f"{played / elapsed:,.0f} games/s" if elapsed > 0 else ""
                progress.update(task, advance=count, rate=rate)
            if between is not None and between(i):
                break
    if already and work:
        console.print(f"resumed: {already:,} of {total:,} games were already done")
    if not work:
        console.print(f"nothing to do: all {total:,} games are already done")
