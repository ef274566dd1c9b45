"""Hong Kong mahjong throughput on the reference experiment (`configs/hongkong-reference.toml`:
four chicken-fast players, the seed's table), in full games (four rounds, 16+ hands) per second per
core (CPU time of this process):

- the engine alone (`play_batch` in the config's shards);
- the whole pipeline (config, shards, Parquet, manifest) with one worker, against the engine and
  against the target of 1,000 games per second per core;
- one seat played by the Python example (`simharness.games.hongkong.python:ChickenFast`, which makes
  the same decisions), against the native lineup on the same games.

    python benchmarks/hongkong.py [--games N] [--python-games N] [--repeat N]
"""

from __future__ import annotations

import argparse

import _rates
from _rates import REPO, Row

CONFIG = REPO / "configs" / "hongkong-reference.toml"
TARGET = 1000.0  # games per second per core through the whole pipeline
PYTHON_STRATEGY = "simharness.games.hongkong.python:ChickenFast"


def parser() -> argparse.ArgumentParser:
    return _rates.parser(__doc__ or "", 480, 40)


def rows(args: argparse.Namespace) -> list[Row]:
    return _rates.reference_rows(CONFIG, args, PYTHON_STRATEGY, TARGET)


def main() -> None:
    _rates.print_rows(rows(parser().parse_args()), "Hong Kong mahjong (4 × chicken-fast)")


if __name__ == "__main__":
    main()
