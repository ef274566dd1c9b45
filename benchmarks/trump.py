"""Trump mahjong throughput on the reference experiment (`configs/trump-reference.toml`: three T1
always-riichi players), in games per second per core (CPU time of this process):

- the engine alone (`play_batch` in shard-sized batches);
- the whole pipeline (config, shards, Parquet, manifest) with one worker;
- for information, the engine with one seat played by the Python-protocol example
  (`simharness.games.trump.python:AlwaysRiichi`).

Target: 20,000 games per second per core through the whole pipeline. Each native measurement is
repeated (`--repeat`, default 3) and the best rate reported: on a shared machine other processes
inflate a run's CPU time but never deflate it.

    python benchmarks/trump.py [--games N] [--python-games N] [--repeat N]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from _rates import best, engine_rate, pipeline_rate

from simharness import config, engine

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "configs" / "trump-reference.toml"
TARGET = 20_000.0
PYTHON_STRATEGY = "simharness.games.trump.python:AlwaysRiichi"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30_000, help="games per native measurement")
    ap.add_argument("--python-games", type=int, default=300, help="games with the Python strategy")
    ap.add_argument("--repeat", type=int, default=3, help="runs per native measurement (best reported)")
    args = ap.parse_args()
    exp = config.load(CONFIG)
    lineup = [slot.knobs for slot in exp.lineup]
    engine.play_batch("trump", {}, lineup, seed=0, first_game=0, count=3)  # builds the shanten table
    shards = config.load(CONFIG, games=args.games).shard_size
    rows = [
        ("engine alone (3 × always-riichi)", best(lambda: engine_rate(exp, lineup, args.games), args.repeat)),
        (
            f"whole pipeline, Parquet, 1 worker ({shards}-game shards)",
            best(lambda: pipeline_rate(CONFIG, args.games), args.repeat),
        ),
        (
            "engine, one seat the Python example",
            engine_rate(exp, [{**lineup[0], "python": PYTHON_STRATEGY}, *lineup[1:]], args.python_games),
        ),
    ]
    print("Trump mahjong games per second per core (CPU time)")
    for name, rate in rows:
        print(
            f"  {name:<56} {rate:>10,.0f} games/s/core   ratio to target {TARGET:,.0f}: {rate / TARGET:.2f}"
        )


if __name__ == "__main__":
    main()
