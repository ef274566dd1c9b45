"""Suzume-jong engine throughput: a 4-player `fastest` lineup played by the engine alone.

One call of ``simharness.engine.play_batch`` runs on one thread, so games per second here are per
core. Baseline: the target of 20,000 games (4 dealer laps, 16 hands) per second per core.
Usage: ``python benchmarks/suzume.py [--games N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import time

from simharness.engine import play_batch, resolve_knobs

TARGET_GAMES_PER_SECOND = 20_000


def measure(games: int, repeat: int, lineup: list[dict[str, object]]) -> tuple[float, int]:
    """Best wall time of ``repeat`` batches of ``games`` games, and the hands in one batch."""
    best = float("inf")
    hands = 0
    for r in range(repeat):
        start = time.perf_counter()
        out = play_batch("suzume", {}, lineup, seed=1000 + r, first_game=0, count=games)
        best = min(best, time.perf_counter() - start)
        hands = out["games"]["hands"].sum()
    return best, int(hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    fastest = resolve_knobs("suzume", {"discard": "fastest"})
    play_batch("suzume", {}, [fastest] * 4, seed=1, first_game=0, count=100)  # builds the hand tables
    seconds, hands = measure(args.games, args.repeat, [fastest] * 4)
    gps = args.games / seconds
    print(f"suzume 4 x fastest: {args.games} games, {hands} hands in {seconds:.3f} s (best of {args.repeat})")
    print(f"  {gps:,.0f} games/s/core, {hands / seconds:,.0f} hands/s/core")
    print(f"  ratio to target {TARGET_GAMES_PER_SECOND:,} games/s/core: {gps / TARGET_GAMES_PER_SECOND:.2f}")


if __name__ == "__main__":
    main()
