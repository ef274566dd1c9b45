"""Sugoroku throughput on the demo config (`configs/sugoroku-demo.toml`: naive, naive, greedy,
random; the 500-point cap and none), in games per second per core (CPU time of this process):

- the engine alone (`play_batch` in the config's shards), against the target of 100,000;
- the whole pipeline (config, shards, Parquet, manifest) with one worker, against the engine;
- one seat played by the Python example (`simharness.games.sugoroku.python:Leader`) among default
  knobs, against the all-default-knobs engine on the same games;
- for information, the pipeline with every core (games per wall second).

    python benchmarks/sugoroku.py [--games N] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import time

import _rates
from _rates import REPO, Row

from simharness import engine

CONFIG = REPO / "configs" / "sugoroku-demo.toml"
ENGINE_TARGET = 100_000.0  # games per second per core
PYTHON_SEAT = "simharness.games.sugoroku.python:Leader"


def parser() -> argparse.ArgumentParser:
    return _rates.parser(__doc__ or "", 20_000, 2_000, "games per variant")


def rows(args: argparse.Namespace) -> list[Row]:
    exp = _rates.reference(CONFIG, args.games)
    default = engine.resolve_knobs(exp.game)
    seats = len(exp.lineup)
    python = [_rates.python_seat(default, PYTHON_SEAT)] + [default] * (seats - 1)
    return _rates.game_rows(
        exp,
        args.repeat,
        ("engine, default knobs", [default] * seats, python, args.python_games),
        (f"target {ENGINE_TARGET:,.0f}", ENGINE_TARGET, "≥ 1"),
    )


def main() -> None:
    args = parser().parse_args()
    _rates.print_rows(rows(args), "Sugoroku (demo config)")
    exp = _rates.reference(CONFIG, args.games)
    rate = _rates.pipeline_rate(exp, jobs=-1, clock=time.perf_counter)
    print(f"pipeline with every core ({os.cpu_count()}): {rate:,.0f} games per wall second")


if __name__ == "__main__":
    main()
