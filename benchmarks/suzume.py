"""Suzume-jong throughput on the 4-player config (`configs/suzume-4p.toml`: fastest, max-points,
defensive, tsumo-only; four rule variants, duplicate play), in games (4 dealer laps, 16 hands) per
second per core (CPU time of this process):

- the engine alone (`play_batch` in the config's shards);
- the whole pipeline (config, shards, Parquet, manifest) with one worker, against the engine;
- the engine with four `fastest` players, against the target of 20,000 games per second per core;
- one seat played by the Python example (`simharness.games.suzume.python:Fastest`, which decides
  exactly like `fastest`) with three `fastest`, against four native `fastest` on the same games.

    python benchmarks/suzume.py [--games N] [--python-games N] [--repeat N]
"""

from __future__ import annotations

import argparse

import _rates
from _rates import REPO, Row

from simharness import engine

CONFIG = REPO / "configs" / "suzume-4p.toml"
TARGET = 20_000.0  # games per second per core, four fastest players
PYTHON_STRATEGY = "simharness.games.suzume.python:Fastest"


def parser() -> argparse.ArgumentParser:
    return _rates.parser(__doc__ or "", 2_500, 200, "games per variant")


def rows(args: argparse.Namespace) -> list[Row]:
    exp = _rates.reference(CONFIG, args.games)
    fastest = engine.resolve_knobs(exp.game, {"discard": "fastest"})
    python = [_rates.python_seat(fastest, PYTHON_STRATEGY), fastest, fastest, fastest]
    out = _rates.game_rows(exp, args.repeat, ("4 × fastest", [fastest] * 4, python, args.python_games))
    play = _rates.engine_play(exp, [fastest] * 4, exp.games)
    four = _rates.best(lambda: _rates.cpu_rate(play, exp.games), args.repeat)
    return [*out, Row(exp.game, "engine, 4 × fastest", four, out[0].unit, "target", TARGET, "≥ 1")]


def main() -> None:
    _rates.print_rows(rows(parser().parse_args()), "Suzume-jong (4 players, mixed lineup)")


if __name__ == "__main__":
    main()
