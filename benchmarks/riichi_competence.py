"""Riichi's competence table and what rule-aware play costs.

The table (``simharness.games.riichi.competence``, the one in docs/riichi-game.md): per rule set that
changes what a good player aims for and per strategy (all four seats, tonpuu), win rate, draw rate,
mean value and the share of ready hands that cannot win legally, with the avoidable ones.

The cost: the engine's CPU time per game of each strategy in all four seats (Tenhou rules, tonpuu,
``engine.play_batch`` alone, best of ``--repeat``), and its ratio to ``efficiency``'s; the script
exits 1 when a rule-aware strategy (``rule-aware``, ``balanced``) costs more than twice as much.
Usage: ``python benchmarks/riichi_competence.py [--games N] [--cost-games N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import sys
import time

from simharness import engine
from simharness.games.riichi import competence

BOUND = 2.0
RULE_AWARE = ("rule-aware", "balanced")


def cost(name: str, games: int, repeat: int) -> float:
    """Engine CPU seconds per game of ``name`` in all four seats."""
    rules = engine.resolve_rules("riichi", "tenhou", {"game_length": "tonpuu"})
    lineup = [competence.knobs(name)] * 4
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        engine.play_batch("riichi", rules, lineup, seed=1, first_game=0, count=games)
        best = min(best, time.process_time() - start)
    return best / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="tonpuu games per row of the table")
    parser.add_argument("--cost-games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    rows = competence.table(args.games, seed=1)
    print(f"competence, {args.games:,} tonpuu games per row ({time.perf_counter() - start:.0f} s):")
    print(competence.markdown(rows))
    base = cost("efficiency", args.cost_games, args.repeat)
    print(
        f"\nengine CPU per game, 4 seats of one strategy, tonpuu "
        f"({args.cost_games:,} games, best of {args.repeat}):"
    )
    over = []
    for name in competence.STRATEGIES:
        c = base if name == "efficiency" else cost(name, args.cost_games, args.repeat)
        print(f"  {name:<12} {c * 1e3:.3f} ms  ×{c / base:.2f} of efficiency")
        if name in RULE_AWARE and c > BOUND * base:
            over.append(name)
    if over:
        print(f"FAILED: {', '.join(over)} cost more than {BOUND}× efficiency", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
