"""What the game benchmarks share: games per CPU second of the engine alone and of the whole pipeline
(config, shards, Parquet, manifest) with one worker, a Python seat's cost, the report's time against
the run's, and the one table they are printed in (`run.py` gathers every game's rows into it).

Rates are CPU time of this process (every thread of it), so that they are per core even on a busy
machine; each is the best of ``repeat`` measurements, since other processes on a shared machine
inflate a run's CPU time (cache and core sharing) but never deflate it. The engine and the pipeline
are measured in turn within one run, on the same games in the same shards (those of the whole
config: a small run's default shards are smaller), so that their ratio compares like with like. The
engine alone is the engine's own output (``engine.play_columns``: column buffers, no DataFrame).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from rich.console import Console
from rich.table import Table

from simharness import config, engine, runner, store

REPO = Path(__file__).resolve().parent.parent
SIMHARNESS = [sys.executable, "-m", "simharness.cli"]


@dataclass(frozen=True)
class Row:
    """One measured rate and its ratio to a named baseline (``rate / baseline_rate``)."""

    game: str
    measured: str
    rate: float
    unit: str
    baseline: str
    baseline_rate: float | None
    target: str = ""  # what the ratio should be, e.g. "≥ 0.85"

    @property
    def ratio(self) -> float | None:
        return self.rate / self.baseline_rate if self.baseline_rate else None


def cpu_rate(fn: Callable[[], object], games: int) -> float:
    t = time.process_time()
    fn()
    return games / max(time.process_time() - t, 1e-9)


def best(measure: Callable[[], float], repeat: int) -> float:
    """The best of ``repeat`` measurements."""
    return max(measure() for _ in range(max(repeat, 1)))


def reference(path: Path, games: int) -> config.Experiment:
    """The config at ``path`` cut to ``games`` per variant in the shards of the whole config (a
    run's default shard size follows its games: a small run has small shards, whose fixed costs
    would be measured instead of the pipeline the config runs with)."""
    full = config.load(path)
    text = path.read_text()
    if "shard_size" not in text:
        text = f"shard_size = {full.shard_size}\n{text}"
    return config.load(path, games=games, text=text)


def games_of(exp: config.Experiment) -> int:
    """The games a run of ``exp`` plays: every variant's."""
    return exp.games * len(exp.variants)


def engine_play(
    exp: config.Experiment, lineup: list[dict[str, Any]] | None = None, games: int | None = None
) -> Callable[[], None]:
    """Plays what a run of ``exp`` plays, shard by shard, as the engine returns it (``play_columns``:
    column buffers, no DataFrame built): every variant with its own lineup, or ``lineup`` in each;
    with ``games``, the first ``games`` of the first variant."""
    variants = list(exp.variants.items())[: 1 if games else None]
    count = games or exp.games

    def play() -> None:
        for name, rules in variants:
            knobs = lineup or [s.knobs for s in exp.lineup_of(name)]
            for first in range(0, count, exp.shard_size):
                engine.play_columns(
                    exp.game,
                    rules,
                    knobs,
                    seed=exp.seed,
                    first_game=first,
                    count=min(exp.shard_size, count - first),
                    duplicate=exp.duplicate,
                )

    return play


def pipeline_rate(
    exp: config.Experiment, jobs: int = 1, clock: Callable[[], float] = time.process_time
) -> float:
    """Games per ``clock`` second of a whole run of ``exp`` with ``jobs`` workers (threads) into a
    temporary directory (deleting it is not timed)."""
    with tempfile.TemporaryDirectory() as out:
        start = clock()
        runner.run(exp, Path(out), jobs=jobs, backend="threading", console=Console(quiet=True))
        return games_of(exp) / max(clock() - start, 1e-9)


def encoding_rate(exp: config.Experiment, repeat: int) -> float:
    """Games per CPU second of encoding a run's shards alone (``store.shard_bytes``, the same bytes
    the pipeline writes), best of ``repeat``: the run is played first (not timed) and its shards read
    back. With the engine's rate it bounds the pipeline's: ``1 / (1 / engine + 1 / encoding)``."""
    with tempfile.TemporaryDirectory() as out:
        run_dir = runner.run(exp, Path(out), jobs=1, backend="threading", console=Console(quiet=True))
        shards = [pq.read_table(p) for p in sorted(run_dir.rglob("*.parquet"))]

    def encode() -> None:
        for table in shards:
            store.shard_bytes(table, {})

    return best(lambda: cpu_rate(encode, games_of(exp)), repeat)


def engine_and_pipeline(exp: config.Experiment, repeat: int) -> tuple[float, float]:
    """Games per CPU second of the engine alone and of the pipeline, measured in turn (best of
    ``repeat`` each)."""
    games = games_of(exp)
    play = engine_play(exp)
    play()  # the engine's tables (shanten, hand values) are built once per process
    eng = pipe = 0.0
    for _ in range(max(repeat, 1)):
        eng = max(eng, cpu_rate(play, games))
        pipe = max(pipe, pipeline_rate(exp))
    return eng, pipe


def python_seat(knobs: dict[str, Any], strategy: str) -> dict[str, Any]:
    """``knobs`` with their decisions made by the Python class ``strategy`` (``module:Class``)."""
    return {**knobs, engine.PYTHON_KEY: strategy}


def parser(doc: str, games: int, python_games: int, what: str = "games") -> argparse.ArgumentParser:
    """The options every game's script takes: games per measurement, with the Python seat, repeats."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--games", type=int, default=games, help=f"{what} per measurement")
    ap.add_argument("--python-games", type=int, default=python_games, help=f"{what} with the Python seat")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (best reported)")
    return ap


def reference_rows(path: Path, args: argparse.Namespace, strategy: str, pipeline_target: float) -> list[Row]:
    """:func:`game_rows` of the reference config at ``path``, its first seat played by the Python
    class ``strategy`` against the config's own lineup."""
    exp = reference(path, args.games)
    lineup = [slot.knobs for slot in exp.lineup]
    python = [python_seat(lineup[0], strategy), *lineup[1:]]
    return game_rows(
        exp, args.repeat, ("native lineup", None, python, args.python_games), pipeline_target=pipeline_target
    )


def game_rows(
    exp: config.Experiment,
    repeat: int,
    python: tuple[str, list[dict[str, Any]] | None, list[dict[str, Any]], int],
    engine_baseline: tuple[str, float | None, str] = ("–", None, ""),
    pipeline_target: float | None = None,
    unit: str = "games/s/core",
) -> list[Row]:
    """The engine, pipeline and Python-seat rows of one game. ``python`` is (the name of the native
    lineup the Python seat is measured against, that lineup or None for the config's, the lineup with
    a Python seat, games of the first variant); ``engine_baseline`` is (a name, its rate, the target
    ratio) for the engine row; ``pipeline_target`` adds the pipeline against its target."""
    eng, pipe = engine_and_pipeline(exp, repeat)
    native_name, native, seated, games = python
    native_rate = best(lambda: cpu_rate(engine_play(exp, native, games), games), repeat)
    # Best of `repeat` too: the first run also fills the example's caches.
    seat = best(lambda: cpu_rate(engine_play(exp, seated, games), games), repeat)
    name, rate, target = engine_baseline
    out = [
        Row(exp.game, "engine", eng, unit, name, rate, target),
        Row(exp.game, "pipeline, 1 worker", pipe, unit, "engine", eng, "≥ 0.85"),
    ]
    if pipeline_target:
        out.append(Row(exp.game, "pipeline, 1 worker", pipe, unit, "target", pipeline_target, "≥ 1"))
    # What the pipeline could reach if encoding its Parquet were its only cost beyond the engine.
    bound = 1 / (1 / eng + 1 / encoding_rate(exp, repeat))
    out.append(Row(exp.game, "engine + Parquet encoding", bound, unit, "engine", eng, "(the bound)"))
    return [*out, Row(exp.game, "one Python seat", seat, unit, native_name, native_rate, "≥ 0.33")]


def measured(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and peak memory (GB) of ``cmd`` run as a child process (its output discarded).

    The memory is the resident set summed over the process and its descendants, sampled every
    ``_SAMPLE_S``: a run's and a report's worker processes hold memory at the same time, and the
    kernel's peak (``ru_maxrss``) is that of the largest process alone; that one is taken when it is
    more (a peak between samples). Pages shared between processes count in each.
    """
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.wait(_SAMPLE_S):
            peak = max(peak, _tree_rss(proc.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t
    stop.set()
    sampler.join()
    if os.waitstatus_to_exitcode(status) != 0:
        err = proc.stderr.read().decode() if proc.stderr else ""
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err}")
    return seconds, max(peak, usage.ru_maxrss * 1024) / 2**30  # ru_maxrss is in kB on Linux


_SAMPLE_S = 0.05
_PAGE = os.sysconf("SC_PAGE_SIZE")


def _tree_rss(root: int) -> int:
    """Resident bytes of process ``root`` and its descendants now (a process gone counts 0)."""
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * _PAGE
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue
    return total


def report_row(path: Path, games: int, jobs: int | None = None) -> Row:
    """``simharness report --json`` against ``simharness run`` of the config at ``path`` with
    ``games`` per variant, each in its own process, in games per wall second."""
    exp = config.load(path, games=games)
    jobs_args = ["--jobs", str(jobs)] if jobs else []
    with tempfile.TemporaryDirectory() as tmp:
        run_cmd = [*SIMHARNESS, "run", str(path), "--games", str(games), "--out", tmp, "-q", *jobs_args]
        run_s, _ = measured(run_cmd)
        report_s, _ = measured([*SIMHARNESS, "report", str(Path(tmp) / exp.name), "--json", *jobs_args])
    total = games_of(exp)
    where = f"{jobs or os.cpu_count()} jobs"
    return Row(exp.game, f"report --json ({total:,} games)", total / report_s, "games/s wall",
               f"run ({where})", total / run_s, "≥ 5")  # fmt: skip


def print_rows(rows: list[Row], title: str) -> None:
    """The rows as one table: each rate, its baseline and their ratio."""
    t = Table(title=title, title_justify="left")
    for col in ("game", "measured", "rate", "unit", "baseline", "baseline rate", "ratio", "target"):
        t.add_column(col, justify="right" if col in ("rate", "baseline rate", "ratio") else "left")
    for r in rows:
        base = "–" if r.baseline_rate is None else f"{r.baseline_rate:,.0f}"
        ratio = "–" if r.ratio is None else f"{r.ratio:,.2f}"
        t.add_row(r.game, r.measured, f"{r.rate:,.0f}", r.unit, r.baseline, base, ratio, r.target)
    Console(width=160).print(t)
