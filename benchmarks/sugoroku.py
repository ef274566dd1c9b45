"""Sugoroku throughput: the engine alone versus the whole pipeline (shards, joblib, Parquet).

Baselines: the target of 100,000 games per second per core in the engine, and the engine itself for
the pipeline (the pipeline should stay within 2x of the engine's time per game) and for a Python
seat (one `python-leader` seat among default knobs, against the all-default-knobs engine). Uses the demo
config's lineup and rules; a few seconds in all.

    python benchmarks/sugoroku.py [--games N] [--config PATH]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import _rates
from _rates import best
from rich.console import Console

from simharness import config, engine, runner

ENGINE_TARGET = 100_000  # games per second per core
PIPELINE_LIMIT = 2.0  # pipeline time per game / engine time per game
PYTHON_SEAT = "simharness.games.sugoroku.python:Leader"


def engine_rate(exp: config.Experiment, lineup: list[dict], games: int) -> float:
    """Games per CPU second of play_batch, in shard-sized batches (best of 3)."""
    return best(lambda: _rates.engine_rate(exp, lineup, games), 3)


def pipeline_rate(exp: config.Experiment, games: int, jobs: int) -> float:
    """Games per second of a whole run (config already loaded), Parquet included, into a temporary folder."""
    exp1 = config.load(exp.path, games=games)
    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        runner.run(exp1, Path(out), jobs=jobs, console=Console(quiet=True))
        dt = time.perf_counter() - t
    return games * len(exp1.variants) / dt


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", default="configs/sugoroku-demo.toml")
    p.add_argument("--games", type=int, default=20_000, help="games per measurement (per variant)")
    args = p.parse_args()
    exp = config.load(args.config)
    cores = os.cpu_count() or 1
    lineup = [s.knobs for s in exp.lineup]
    names = "/".join(s.strategy for s in exp.lineup)

    eng = engine_rate(exp, lineup, args.games)
    default = engine.resolve_knobs(exp.game)
    naive = engine_rate(exp, [default] * len(lineup), args.games)
    # Every decision of the Python seat crosses into Python; a tenth of the games keeps this short.
    python_seat = [dict(default, python=PYTHON_SEAT)] + [default] * (len(lineup) - 1)
    py_rate = engine_rate(exp, python_seat, max(args.games // 10, exp.shard_size))
    pipe1 = pipeline_rate(exp, args.games, jobs=1)
    pipe_all = pipeline_rate(exp, args.games, jobs=-1)

    print(f"config {args.config}: lineup {names}, {len(exp.variants)} variants, shard size {exp.shard_size}")
    print(
        f"engine alone ({names}):   {eng:>10,.0f} games/s/core  {1e6 / eng:7.2f} us/game  "
        f"({eng / ENGINE_TARGET:.2f}x the {ENGINE_TARGET:,} target)"
    )
    print(
        f"engine alone (all default knobs): {naive:>10,.0f} games/s/core  {1e6 / naive:7.2f} us/game  "
        f"({naive / ENGINE_TARGET:.2f}x the target)"
    )
    print(
        f"engine, one Python seat:  {py_rate:>10,.0f} games/s/core  {1e6 / py_rate:7.2f} us/game  "
        f"({py_rate / naive:.2f}x the all-default-knobs engine)"
    )
    print(
        f"pipeline, --jobs 1:       {pipe1:>10,.0f} games/s/core  {1e6 / pipe1:7.2f} us/game  "
        f"(pipeline/engine time per game = {eng / pipe1:.2f}, limit {PIPELINE_LIMIT})"
    )
    print(
        f"pipeline, --jobs {cores} (all): {pipe_all:>10,.0f} games/s total, {pipe_all / cores:,.0f} per core"
    )


if __name__ == "__main__":
    main()
