"""Riichi hand evaluation: this engine against the ``mahjong`` package (PyPI), in one run.

Measures shanten calls per second (random 14-tile hands; ours from Python in batches of tile-count
arrays) and full hand valuations per second (seeded random winning hands with calls and situational
flags; ours through the array form ``score_arrays`` and, for reference, through the JSON form
``score_batch`` with its encoding included), and prints the ratios.

    .venv/bin/python benchmarks/riichi_eval.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from riichi_hands import arrays, random_win

from simharness.games import riichi


def rate(fn: Callable[[], int], seconds: float) -> float:
    """Items per second of ``fn`` (which returns how many items it processed), best of repeats."""
    best = 0.0
    deadline = time.perf_counter() + seconds
    while True:
        start = time.perf_counter()
        n = fn()
        elapsed = time.perf_counter() - start
        best = max(best, n / elapsed)
        if time.perf_counter() > deadline:
            return best


def random_hands(n: int, seed: int) -> np.ndarray:
    """``n`` random 14-tile hands from a full set, as (n, 34) counts."""
    rng = np.random.default_rng(seed)
    tiles = np.argsort(rng.random((n, 136)), axis=1)[:, :14] // 4
    counts = np.zeros((n, 34), dtype=np.uint8)
    np.add.at(counts, (np.repeat(np.arange(n), 14), tiles.ravel()), 1)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()

    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConstants, OptionalRules
    from mahjong.shanten import Shanten

    counts = random_hands(1_000_000, 1)
    riichi.shanten_batch(counts[:10])  # builds the tables once
    ours_shanten = rate(lambda: len(riichi.shanten_batch(counts)), args.seconds)
    lists = [list(map(int, row)) for row in counts[:2000]]
    theirs_shanten = rate(lambda: sum(Shanten.calculate_shanten(h) is not None for h in lists), args.seconds)
    check = riichi.shanten_batch(counts[:2000])
    assert [Shanten.calculate_shanten(h) for h in lists] == check.tolist(), "shanten differs"

    rng = random.Random(7)
    wins = [random_win(rng) for _ in range(20_000)]
    requests = [w.request() for w in wins]
    ours_json = rate(lambda: len(riichi.score_batch(requests, rules="tenhou")), args.seconds)
    columns = arrays(wins, riichi.flag_bits())
    ours_value = rate(lambda: len(riichi.score_arrays(**columns, rules="tenhou")), args.seconds)
    options = OptionalRules(has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=False,
                            kazoe_limit=HandConstants.KAZOE_LIMITED)  # fmt: skip
    margs = [w.mahjong_args(options) for w in wins[:1000]]
    estimate = HandCalculator.estimate_hand_value
    theirs_value = rate(lambda: sum(bool(estimate(**a)) for a in margs), args.seconds)

    def row(label: str, ours: float, theirs: float) -> None:
        print(f"{label:28}{ours:>14,.0f}{theirs:>14,.0f}{ours / theirs:>9,.0f}x")

    print(f"{'':28}{'simharness':>14}{'mahjong':>14}{'ratio':>10}")
    row("shanten calls/s", ours_shanten, theirs_shanten)
    print(f"{'  ns per shanten call':28}{1e9 / ours_shanten:>14,.1f}{1e9 / theirs_shanten:>14,.0f}")
    row("hand valuations/s (arrays)", ours_value, theirs_value)
    print(f"{'  us per valuation':28}{1e6 / ours_value:>14,.2f}{1e6 / theirs_value:>14,.1f}")
    row("hand valuations/s (JSON)", ours_json, theirs_value)


if __name__ == "__main__":
    main()
