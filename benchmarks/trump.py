"""Trump mahjong throughput on the reference experiment (`configs/trump-reference.toml`: three T1
always-riichi players), in games per second per core (CPU time of this process):

- the engine alone (`play_batch` in the config's shards);
- the whole pipeline (config, shards, Parquet, manifest) with one worker, against the engine and
  against the target of 20,000 games per second per core;
- one seat played by the Python example (`simharness.games.trump.python:AlwaysRiichi`), against
  the native lineup on the same games.

    python benchmarks/trump.py [--games N] [--python-games N] [--repeat N]
"""

from __future__ import annotations

import argparse

import _rates
from _rates import REPO, Row

CONFIG = REPO / "configs" / "trump-reference.toml"
TARGET = 20_000.0  # games per second per core through the whole pipeline
PYTHON_STRATEGY = "simharness.games.trump.python:AlwaysRiichi"


def parser() -> argparse.ArgumentParser:
    return _rates.parser(__doc__ or "", 30_000, 300)


def rows(args: argparse.Namespace) -> list[Row]:
    return _rates.reference_rows(CONFIG, args, PYTHON_STRATEGY, TARGET)


def main() -> None:
    _rates.print_rows(rows(parser().parse_args()), "Trump mahjong (3 × always-riichi)")


if __name__ == "__main__":
    main()
