"""Games per CPU second of this process, shared by the game benchmarks: the engine alone in
shard-sized batches, and the whole pipeline (config, shards, Parquet, manifest) with one worker."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from simharness import config, engine, runner


def cpu_rate(fn: Callable[[], object], games: int) -> float:
    t = time.process_time()
    fn()
    return games / max(time.process_time() - t, 1e-9)


def best(measure: Callable[[], float], repeat: int) -> float:
    """The best of ``repeat`` measurements: other processes on a shared machine inflate a run's CPU
    time (cache and core sharing) but never deflate it."""
    return max(measure() for _ in range(max(repeat, 1)))


def engine_rate(exp: config.Experiment, lineup: list[dict[str, Any]], games: int) -> float:
    """``games`` of the experiment's first variant through ``play_batch``, one shard at a time."""
    rules = next(iter(exp.variants.values()))

    def play() -> None:
        for first in range(0, games, exp.shard_size):
            engine.play_batch(
                exp.game,
                rules,
                lineup,
                seed=exp.seed,
                first_game=first,
                count=min(exp.shard_size, games - first),
                duplicate=exp.duplicate,
            )

    return cpu_rate(play, games)


def pipeline_rate(path: Path, games: int) -> float:
    """``games`` of the config at ``path`` run to a temporary directory with one worker."""
    exp = config.load(path, games=games)
    with tempfile.TemporaryDirectory() as out:
        quiet = Console(quiet=True)
        return cpu_rate(lambda: runner.run(exp, Path(out), jobs=1, backend="threading", console=quiet), games)
