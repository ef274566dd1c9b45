"""Running an experiment: shards, backends (``backends.py``), resume.

The games of each variant are cut into shards of ``shard_size`` games (a property of the experiment,
never of ``--jobs``); each shard is one task and one Parquet file per table, written by the worker
that played it (on a Dask cluster, by this process from the files the worker returns). Because
chance is keyed by game coordinates, a shard's data depends only on the experiment and the shard, so
any number of workers, any backend and any number of interruptions give the same files.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import platform
import threading
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow
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

from simharness import __version__, _engine, backends, buildinfo, engine, manifest, store, strategies
from simharness.config import Experiment, Slot
from simharness.errors import ConfigError, RunDirError
from simharness.games import registry
from simharness.manifest import Manifest
from simharness.stats.looks import CONTINUE, UntilRecord


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
    config_hash: str  # of the run's stage that holds the shard (store.Plan)


def _with_strategy(table: pyarrow.Table, names: list[str]) -> pyarrow.Table:
    """Adds ``strategy`` (the lineup slot's strategy name, a string as polars types it) right after
    ``player``."""
    strategy = pyarrow.array(names, pyarrow.large_string()).take(table["player"])
    return table.add_column(table.schema.get_field_index("player") + 1, "strategy", strategy)


# A shard is played in up to this many keyed sub-batches (the engine's result never depends on how
# games are batched), so that progress moves inside a shard and a slow game's bar is not stuck at 0%;
# a sub-batch still holds the game's MIN_SHARD games (~10-40 ms of play), since each call into the
# engine has a fixed cost (options parsed, tables built) that 8-game batches made 20% of a run.
SUB_BATCHES = 8


def _shard_files(
    v: _Variant,
    s: _Shard,
    progress: Callable[[int], None] | None = None,
    cancel: threading.Event | None = None,
) -> tuple[int, list[tuple[Path, bytes]]]:
    """Plays one shard; returns its games and files (path, Parquet bytes), which the caller writes.
    Once ``cancel`` is set (the run stops), it raises :class:`backends.Cancelled` before the next
    sub-batch (a Python strategy's batch stops before its next decision): an unfinished shard is
    never written."""
    step = max(-(-s.count // SUB_BATCHES), min(s.count, registry.min_shard(v.game)))
    parts = []
    for first in range(s.first_game, s.first_game + s.count, step):
        if cancel is not None and cancel.is_set():
            raise backends.Cancelled(f"shard {s.first_game} of variant {v.name}")
        count = min(step, s.first_game + s.count - first)
        parts.append(
            engine.play_columns(
                v.game,
                v.rules,
                v.knobs,
                seed=v.seed,
                first_game=first,
                count=count,
                duplicate=v.duplicate,
                cancel=cancel,
            )
        )
        if progress is not None:
            progress(count)
    files = []
    for table in s.tables:
        arrow = engine.arrow_table([p[table] for p in parts])
        if table == "players":
            arrow = _with_strategy(arrow, v.strategies)
        meta = {
            **v.provenance,
            "config_hash": s.config_hash,
            "table": table,
            "variant": v.name,
            "rules": v.rules,
            "first_game": s.first_game,
            "count": s.count,
        }
        path = store.shard_path(v.run_dir, table, v.name, s.first_game)
        files.append((path, store.shard_bytes(arrow, meta)))
    return s.count, files


def _write(files: list[tuple[Path, bytes]]) -> None:
    for path, data in files:
        store.write_shard(path, data)


def _play_shard(
    v: _Variant,
    s: _Shard,
    progress: Callable[[int], None] | None = None,
    cancel: threading.Event | None = None,
) -> int:
    """Plays and writes one shard where the run directory is (threads and local worker processes)."""
    count, files = _shard_files(v, s, progress, cancel)
    _write(files)
    return count


def manifest_for(exp: Experiment, tables: list[str]) -> Manifest:
    return Manifest(
        name=exp.name,
        game=exp.game,
        description=exp.description,
        seed=exp.seed,
        games=exp.games,
        duplicate=exp.duplicate,
        shard_size=exp.shard_size,
        preset=exp.preset,
        variants=exp.variants,
        lineup=_slots(exp.lineup),
        # The variants that seat their own lineup (Manifest.lineup_of reads a variant's).
        lineups={v: _slots(slots) for v, slots in exp.lineups.items()} if exp.lineups else None,
        challengers=exp.challengers or None,
        meta=exp.meta or None,
        rank_points=tuple(exp.rank_points),
        tables=tuple(tables),
        config_hash=exp.config_hash,
        identity=exp.identity(),
        config_path=str(exp.path),
        config=exp.raw,
        provenance={
            "simharness_version": __version__,
            "engine_version": _engine.__version__,
            "git_commit": buildinfo.git_commit(),
            # They write the Parquet bytes (not the data): a shard's bytes are reproducible with them.
            "pyarrow_version": pyarrow.__version__,
            "polars_version": pl.__version__,
            "config_hash": exp.config_hash,
            "seed": exp.seed,
            "python": platform.python_version(),
            "platform": platform.platform(),
            "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        },
        complete=False,
    )


def _slots(lineup: list[Slot]) -> tuple[manifest.Slot, ...]:
    return tuple(
        manifest.Slot(
            slot=s.slot,
            strategy=s.strategy,
            script=s.script,
            version=s.version,
            knobs=s.knobs,
            source=s.source,
        )
        for s in lineup
    )


@contextlib.contextmanager
def _locked(run_dir: Path) -> Iterator[None]:
    """Only one process writes a run directory at a time (a second one would clear the first's temp files)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    lock = run_dir / store.LOCK
    try:
        # Neither truncated nor followed: a link planted here made the lock truncate its target.
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    except OSError as e:
        if e.errno == errno.ELOOP:
            store.no_link(lock)
        raise
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunDirError(
                "another simharness process is writing this run directory", file=run_dir
            ) from None
        yield
    finally:
        os.close(fd)


def _clear(run_dir: Path, plan: store.Plan, console: Console) -> None:
    """``--force``: removes the run in ``run_dir`` (its manifest, and its shards and the new plan's,
    known by their names) and says what stays: nothing else is the run's to delete."""
    plans = [plan]
    with contextlib.suppress(RunDirError):  # a damaged manifest: its run's shards are not known
        old = store.read_manifest(run_dir)
        if old is not None:
            plans.append(store.Plan.of(old))
    left = store.clear(run_dir, plans)
    if left:
        shown = ", ".join(str(p.relative_to(run_dir)) for p in left[:5])
        more = f" and {len(left) - 5:,} more" if len(left) > 5 else ""
        console.print(
            f"[yellow]note:[/] --force removed the previous run; kept {len(left):,} other "
            f"file{'s' if len(left) > 1 else ''} in {run_dir}: {shown}{more}"
        )


def _plan(exp: Experiment, tables: list[str], made: Manifest | None) -> store.Plan:
    """The shards of ``exp``, with the earlier stages of the run ``made`` describes (if it grew)."""
    plan = store.Plan(exp.config_hash, tuple(tables), tuple(exp.variants), exp.games, exp.shard_size)
    return plan if made is None else replace(plan, earlier=store.Plan.of(made).earlier)


def _stage(made: Manifest) -> manifest.Stage:
    """The last stage of the run ``made`` describes as its manifest records it (``stages``): its size
    and hash, and when and by what it was started."""
    prov = made.provenance
    return manifest.Stage(
        made.games, made.shard_size, made.config_hash, prov.get("started"), prov.get("git_commit")
    )


# What a larger `games` may change: the default shard size follows the games.
_GROWS = {"games", "shard_size"}


def _check_growth(old: Manifest, new: Manifest, exp: Experiment, run_dir: Path) -> None:
    """Accepts a config that differs from the run's only by more games (the run grows: only the
    missing games are played); refuses fewer games and any other change, saying what to do."""
    # An edited Python strategy is named with its file rather than as "lineup[1].source.sha256".
    edited = strategies.edited_since(old.lineup)
    changed = [p for p in manifest.changed_paths(old, new) if not (edited and ".source" in p)]
    if not edited and "games" in changed and set(changed) <= _GROWS:
        if exp.games > old.games:
            return
        raise RunDirError(
            f"holds a run of {old.games:,} games per variant, and a run does not shrink (asked for "
            f"{exp.games:,}); for a run of {exp.games:,} games, run with --out for a new directory "
            f"(its games are the first {exp.games:,} of this run's: every game is a function of the "
            "config, the seed and its index), or use --force to replace this run",
            file=run_dir,
        )
    if changed:
        edited.insert(0, f"changed: {', '.join(changed)}")
    why = "; ".join(edited) or "changed: the config"
    raise RunDirError(
        f"holds a run of a different config ({why}); use --force to replace it or --out for a new directory",
        file=run_dir,
    )


def check_jobs(jobs: int) -> None:
    """``--jobs``: a positive count, or -1 for every core (joblib's -2 = all but one, and so on)."""
    if jobs == 0:
        raise ConfigError("expected a number of workers >= 1, or -1 for every core; got 0", field="--jobs")


def run(
    exp: Experiment,
    out: Path,
    *,
    jobs: int = -1,
    backend: str | None = None,
    scheduler: str | None = None,
    force: bool = False,
    console: Console | None = None,
    before_play: Callable[[], None] | None = None,
) -> Path:
    """Plays every missing shard of ``exp`` into ``out/<name>`` and returns the run directory.

    ``backend`` (default: the config's) says where shards are played; ``scheduler`` is the address
    of a Dask scheduler. Raises :class:`RunDirError` if the directory holds another experiment
    (unless ``force``), a run of more games than ``exp`` (a run does not shrink) or a file that is
    not a valid shard of this one. A finished run is left untouched (its manifest too); the manifest
    is only rewritten when there are games to play. A run of the same experiment with fewer games
    grows: its shards stay as they are, and the missing games are played in a new stage.
    ``before_play`` is called once the run is accepted and has games to play, before anything is
    written for it.
    """
    where = exp.backend if backend is None else backends.parse(backend, field="--backend")
    check_jobs(jobs)
    console = console or Console(stderr=True)
    run_dir = out / exp.name
    tables = [t.name for t in engine.schema(exp.game)]
    made = manifest_for(exp, tables)
    with _locked(run_dir):
        if force:
            _clear(run_dir, _plan(exp, tables, None), console)
        old = store.read_manifest(run_dir)
        grown = old is not None and old.config_hash != exp.config_hash
        if grown:
            assert old is not None
            _check_growth(old, made, exp, run_dir)
            made = replace(made, stages=(*(old.stages or (_stage(old),)), _stage(made)))
            console.print(f"growing the run from {old.games:,} to {exp.games:,} games per variant")
        elif old is not None and old.stages:
            made = replace(made, stages=old.stages)
        plan = _plan(exp, tables, made)
        done, unchecked = store.scan(run_dir, plan)
        note = store.unchecked_note(unchecked)
        if note is not None:
            console.print(f"[yellow]note:[/] {note}")
        total = exp.games * len(exp.variants)
        plan_shards = len(plan.firsts()) * len(exp.variants)
        if not grown and old is not None and store.missing(plan, old, done) is None:
            console.print(f"nothing to do: the run is finished ({old.expected_games():,} games per variant)")
            return run_dir
        current = made.provenance
        if old is not None:
            # The manifest keeps when and by what the run was started; each shard records its own writer.
            commit = old.provenance.get("git_commit")
            prov = dict(old.provenance)
            if commit != current["git_commit"]:
                console.print(f"[yellow]note:[/] resuming a run started at commit {commit}")
                prov["resumed_at_commit"] = current["git_commit"]
            made = replace(made, provenance=prov)
        if before_play is not None:
            before_play()
        store.write_manifest(run_dir, made)

        writer = ("simharness_version", "git_commit", "pyarrow_version", "polars_version")
        provenance = {k: current[k] for k in (*writer, "config_hash", "seed")}
        provenance["game"] = exp.game
        variants = [
            _Variant(
                run_dir,
                exp.game,
                name,
                rules,
                [s.knobs for s in exp.lineup_of(name)],
                [s.strategy for s in exp.lineup_of(name)],
                exp.seed,
                exp.duplicate,
                {**provenance, "lineup": [s.to_json() for s in _slots(exp.lineup_of(name))]},
            )
            for name, rules in exp.variants.items()
        ]
        already = sum(
            plan.count(f) or 0
            for t, v, f in done
            if t == tables[0] and all((x, v, f) in done for x in tables)
        )

        def pending(
            lo: int, hi: int, only: Collection[str] | None = None
        ) -> Iterator[tuple[_Variant, _Shard]]:
            """The missing shards starting in games [lo, hi) (of the variants ``only``, if given),
            shard by shard across the variants (so that a partial run holds the same deals in every
            variant)."""
            for first in plan.between(lo, hi):
                for v in variants:
                    if only is not None and v.name not in only:
                        continue
                    missing = tuple(t for t in tables if (t, v.name, first) not in done)
                    if missing:
                        yield v, _Shard(first, plan.count(first) or 0, missing, plan.hash_at(first) or "")

        waves: Iterable[Work] = [pending(0, exp.games)]
        between = None
        # The manifest with the record of the sequential test that stopped the run, if it had one.
        stopped: Callable[[Manifest], Manifest] | None = None
        if exp.until is not None:
            waves, between, stopped = _sequential(exp, run_dir, pending)
        elif exp.sweep_until is not None:
            waves, between, stopped = _sweep_sequential(exp, plan, run_dir, pending)
        try:
            with (
                store.folders_synced(run_dir, tables, list(exp.variants)),
                backends.pool(where, jobs, scheduler) as pool,
            ):
                _execute(waves, total, already, pool, console, between)
        except KeyboardInterrupt:
            raise Interrupted(_kept(run_dir, tables, variants), plan_shards) from None
        except backends.ClusterLost as e:
            kept = Interrupted(_kept(run_dir, tables, variants), plan_shards)
            raise backends.ClusterLost(f"{e.message}; {kept}", field=e.field) from None
        finished = datetime.now(timezone.utc).isoformat(timespec="seconds")
        made = replace(made, complete=True, provenance={**made.provenance, "finished": finished})
        store.write_manifest(run_dir, made if stopped is None else stopped(made))
    return run_dir


Work = Iterator[tuple[_Variant, _Shard]]


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C: the shards in flight were discarded; says how many were kept."""

    def __init__(self, kept: int, shards: int) -> None:
        super().__init__(f"{kept:,} of {shards:,} shards kept; run the same command again to resume")
        self.kept = kept
        self.shards = shards


def _kept(run_dir: Path, tables: list[str], variants: Iterable[_Variant]) -> int:
    """The shards of which every table is on disk, found by name: every file there was checked
    against the plan when the run started, or written by it."""
    kept = 0
    for v in variants:
        folders = [store.shard_path(run_dir, t, v.name, 0).parent for t in tables]
        kept += len(set.intersection(*({p.name for p in f.glob("part-*.parquet")} for f in folders)))
    return kept


def _sequential(
    exp: Experiment, run_dir: Path, pending: Callable[[int, int], Work]
) -> tuple[Iterator[Work], Callable[[int], bool], Callable[[Manifest], Manifest]]:
    """Waves of ``until.look_every`` games per variant, the test run between them, and the manifest
    with the test's record (``sequential``) as it stopped.

    Every look is replayed from the data on a resumed run (a look uses only the games before its
    boundary), so a run stops at the same look whatever was already on disk.
    """
    from simharness.stats.paired import rank_points
    from simharness.stats.sequential import ThreeOutcome, look_scores

    assert exp.until is not None
    until, games = exp.until, exp.games
    step = until["look_every"]
    test = ThreeOutcome.of(float(until["mu1"]), float(until["alpha"]), float(until["beta"]))
    waves = (pending(lo, min(lo + step, games)) for lo in range(0, games, step))
    record = UntilRecord.start(until, test.up.alpha, test.up.bounds)

    def between(i: int) -> bool:
        nonlocal record
        bound = min((i + 1) * step, games)
        # Scored as the report scores the run (its manifest's rank_points), so its looks replay alike.
        players = store.open_run(run_dir, partial=True).table("players")
        players = players.with_columns(rank_points(players, exp.rank_points, ["variant", "game"]))
        record = record.moved(test.look(look_scores(players, record, bound), record.state, bound))
        return record.decision != CONTINUE

    return waves, between, lambda made: replace(made, sequential=record)


def _sweep_sequential(
    exp: Experiment, plan: store.Plan, run_dir: Path, pending: Callable[..., Work]
) -> tuple[Iterator[Work], Callable[[int], bool], Callable[[Manifest], Manifest]]:
    """Waves of ``look_every`` games of the variants still playing, the per-variant tests run
    between them (:mod:`simharness.sweep_until`), and the manifest with their record
    (``sweep_sequential``). As in :func:`_sequential`, a look reads only the games below its
    boundary, so a resumed run replays the same decisions."""
    from simharness.stats.paired import rank_points
    from simharness.sweep_until import Looks

    assert exp.sweep_until is not None
    step, games = exp.sweep_until["look_every"], exp.games

    def read(variant: str, below: int) -> pl.DataFrame:
        # A grown run's earlier shards may reach past a look: the look reads only the games below it.
        keys = [("players", variant, f) for f in plan.firsts(below)]
        rows = pl.concat([store.read_shard(run_dir, plan, k) for k in keys], how="vertical")
        rows = rows.filter(pl.col("game") < below)
        return rows.with_columns(rank_points(rows, exp.rank_points, ["game"]))

    looks = Looks(exp.sweep_until, list(exp.variants), read)
    # Lazy: each wave is made after the look before it, so it holds only the variants still playing.
    waves = (pending(lo, min(lo + step, games), looks.active) for lo in range(0, games, step))
    return (
        waves,
        lambda i: looks.after(min((i + 1) * step, games)),
        lambda made: replace(made, sweep_sequential=looks.record),
    )


def _played(pool: backends.Pool, wave: Work, progress: Callable[[int], None] | None) -> Iterator[int]:
    """The games of each shard of ``wave`` as it is written: by the workers where they share this
    process's files, else here from the files they return (one writer, no shared file system)."""
    if pool.local:
        yield from pool.imap_unordered(_play_shard, ((v, s, progress, pool.cancel) for v, s in wave))
        return
    for count, files in pool.imap_unordered(_shard_files, ((v, s) for v, s in wave)):
        _write(files)
        yield count


def _execute(
    waves: Iterable[Work],
    total: int,
    already: int,
    pool: backends.Pool,
    console: Console,
    between: Callable[[int], bool] | None = None,
) -> None:
    """Plays the waves in order on ``pool``; ``between(i)`` after wave ``i`` returns True to stop early.

    Progress is counted in games from inside each shard when the workers share this process
    (threads); process backends report it shard by shard.
    """
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
    played = 0
    # Four redraws a second rather than rich's ten: a redraw costs milliseconds of the CPU the
    # games run on (about a tenth of a one-worker sugoroku run's at ten). A quiet console draws
    # nothing, so it is not rendered at all (rich would still lay the bar out on each refresh).
    with Progress(
        *columns,
        console=console,
        transient=False,
        disable=already == total or console.quiet,
        refresh_per_second=4,
    ) as progress:
        task = progress.add_task("playing", total=total, completed=already, rate="")
        lock = threading.Lock()

        def advance(count: int) -> None:
            nonlocal played
            with lock:
                played += count
                elapsed = progress.tasks[0].elapsed or 0.0
                rate = f"{played / elapsed:,.0f} games/s" if elapsed > 0 else ""
                progress.update(task, advance=count, rate=rate)

        inside = advance if pool.threads else None
        for i, wave in enumerate(waves):
            for count in _played(pool, wave, inside):
                if inside is None:
                    advance(count)
            if between is not None and between(i):
                break
        if between is not None:
            # A sequential run (or a sweep whose variants stopped early) ends its bar at the games it played.
            progress.update(task, total=already + played)
    if already and played:
        console.print(f"resumed: {already:,} of {total:,} games were already done")
