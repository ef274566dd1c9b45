"""Suzume-jong engine throughput: a 4-player `fastest` lineup played by the engine alone.

One call of ``simharness.engine.play_batch`` runs on the calling thread, so the thread's CPU time
(``time.thread_time``) gives games per second per core even on a busy machine; wall time is shown
too. Baseline: the target of 20,000 games (4 dealer laps, 16 hands) per second per core. The cost
of a seat played by a Python strategy is printed for information.
Usage: ``python benchmarks/suzume.py [--games N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import time

from simharness.engine import play_batch, resolve_knobs

TARGET_GAMES_PER_SECOND = 20_000


def measure(games: int, repeat: int, lineup: list[dict[str, object]]) -> tuple[float, float, int]:
    """Best CPU and wall time of ``repeat`` batches of ``games`` games, and the hands in one batch."""
    cpu = wall = float("inf")
    hands = 0
    for r in range(repeat):
        start, start_cpu = time.perf_counter(), time.thread_time()
        out = play_batch("suzume", {}, lineup, seed=1000 + r, first_game=0, count=games)
        cpu = min(cpu, time.thread_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start)
        hands = out["games"]["hands"].sum()
    return cpu, wall, int(hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    fastest = resolve_knobs("suzume", {"discard": "fastest"})
    play_batch("suzume", {}, [fastest] * 4, seed=1, first_game=0, count=100)  # builds the hand tables
    seconds, wall, hands = measure(args.games, args.repeat, [fastest] * 4)
    gps = args.games / seconds
    print(
        f"suzume 4 x fastest: {args.games} games, {hands} hands in {seconds:.3f} s CPU, {wall:.3f} s wall "
        f"(best of {args.repeat}; the batch includes building the result columns)"
    )
    print(f"  {gps:,.0f} games/s/core, {hands / seconds:,.0f} hands/s/core")
    print(f"  ratio to target {TARGET_GAMES_PER_SECOND:,} games/s/core: {gps / TARGET_GAMES_PER_SECOND:.2f}")
    # For information: the 4-player config's lineup, where max-points evaluates reachable hands.
    mixed = [
        resolve_knobs("suzume", k)
        for k in (
            {},
            {"discard": "max_points", "min_win_score": 8},
            {"fold": True, "ready_streak": 3},
            {"ron": False},
        )
    ]
    games = max(1, args.games // 10)
    seconds, _, _ = measure(games, 1, mixed)
    print(f"  mixed lineup (fastest, max-points, defensive, tsumo-only): {games / seconds:,.0f} games/s/core")
    # For information: the cost of one seat played by a Python strategy (the protocol's example,
    # which decides exactly like `fastest`), against the all-native table above.
    python = [dict(fastest, python="simharness.games.suzume.python:Fastest"), fastest, fastest, fastest]
    play_batch("suzume", {}, python, seed=1, first_game=0, count=60)  # fills the example's caches
    games = max(1, args.games // 100)
    seconds, _, _ = measure(games, 1, python)
    print(
        f"  one Python seat (suzume.python:Fastest) + 3 x fastest: {games / seconds:,.0f} games/s/core, "
        f"{gps / (games / seconds):,.0f} x slower than all-native"
    )


if __name__ == "__main__":
    main()
