"""Hong Kong mahjong throughput on the reference experiment (`configs/hongkong-reference.toml`:
four chicken-fast players, the seed's table), in full games (four rounds, 16+ hands) per second per
core (CPU time of this process):

- the engine alone (`play_batch` in shard-sized batches);
- the whole pipeline (config, shards, Parquet, manifest) with one worker.

Target: 1,000 games per second per core through the whole pipeline. Each measurement is repeated
(`--repeat`, default 3) and the best rate is reported. For information, the engine with one seat
played by the Python example strategy (`simharness.games.hongkong.python:ChickenFast`, which makes
the same decisions) is measured once on a tenth of the games.

    python benchmarks/hongkong.py [--games N] [--repeat N]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from simharness import config, engine, runner

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "configs" / "hongkong-reference.toml"
TARGET = 1000.0


def cpu_rate(fn: Any, games: int) -> float:
    t = time.process_time()
    fn()
    return games / max(time.process_time() - t, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    exp = config.load(CONFIG, games=args.games)
    rules = next(iter(exp.variants.values()))
    lineup = [s.knobs for s in exp.lineup]

    def play() -> None:
        for first in range(0, args.games, exp.shard_size):
            count = min(exp.shard_size, args.games - first)
            engine.play_batch("hongkong", rules, lineup, seed=exp.seed, first_game=first, count=count)

    def pipeline() -> None:
        with tempfile.TemporaryDirectory() as out:
            runner.run(exp, Path(out), jobs=1, backend="threading", console=Console(quiet=True))

    rates = {
        "engine alone": max(cpu_rate(play, args.games) for _ in range(args.repeat)),
        "whole pipeline, Parquet, 1 worker": max(cpu_rate(pipeline, args.games) for _ in range(args.repeat)),
    }
    print(f"hongkong 4 x chicken-fast, {args.games} games (best of {args.repeat})")
    for name, rate in rates.items():
        print(f"  {name:<36} {rate:8,.0f} games/s/core  ratio to target {TARGET:,.0f}: {rate / TARGET:.2f}")
    few = max(args.games // 10, 1)
    python = [dict(lineup[0], python="simharness.games.hongkong.python:ChickenFast"), *lineup[1:]]
    kw = {"seed": exp.seed, "first_game": 0, "count": few}
    rate = cpu_rate(lambda: engine.play_batch("hongkong", rules, python, **kw), few)
    native = rates["engine alone"]
    print(f"  one Python seat (hongkong.python:ChickenFast) + 3 x chicken-fast: {rate:,.0f} games/s/core, "
          f"{native / rate:.0f}x slower than native")  # fmt: skip


if __name__ == "__main__":
    main()
