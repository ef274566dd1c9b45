"""What the competence benchmarks share (``<game>_competence.py``): a game's competence table and
what its rule-aware strategies cost.

The table is the game's competence module's (``simharness.games.<game>.competence``, the one in the
game's doc). The cost: the engine's CPU time per game of each strategy in every seat (under the
rules named, ``engine.play_batch`` alone, best of ``--repeat``: other processes on a shared machine
inflate CPU time but never deflate it), and its ratio to the baseline's (the game's fastest
strategy); the script exits 1 when a rule-aware strategy costs more than twice as much.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any, Protocol

from simharness import engine
from simharness.games.competence import Row, RuleSets

BOUND = 2.0


class Module(Protocol):
    """A game's competence module."""

    GAME: str
    STRATEGIES: tuple[str, ...]

    def knobs(self, name: str) -> dict[str, Any]: ...

    def table(
        self, games: int, seed: int = ..., rules: RuleSets = ..., names: Sequence[str] = ...
    ) -> list[Row]: ...

    def markdown(self, rows: list[Row], value_unit: str = ...) -> str: ...


def cost(game: str, rules: dict[str, Any], lineup: list[dict[str, Any]], games: int, repeat: int) -> float:
    """Engine CPU seconds per game of ``lineup`` under ``rules``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        engine.play_batch(game, rules, lineup, seed=1, first_game=0, count=games)
        best = min(best, time.process_time() - start)
    return best / games


def main(
    doc: str,
    module: Module,
    *,
    rules: dict[str, Any],
    players: int,
    baseline: str,
    rule_aware: Sequence[str],
    games: int,
    what: str = "games",
    value_unit: str = "points",
) -> None:
    """Prints ``module``'s table and the cost of its strategies under ``rules``; exits 1 when a
    strategy of ``rule_aware`` costs more than ``BOUND`` times ``baseline``."""
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--games", type=int, default=games, help=f"{what} per row of the table")
    parser.add_argument("--cost-games", type=int, default=games)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    rows = module.table(args.games, seed=1)
    print(f"competence, {args.games:,} {what} per row ({time.perf_counter() - start:.0f} s):")
    print(module.markdown(rows, value_unit))

    def of(name: str) -> float:
        return cost(module.GAME, rules, [module.knobs(name)] * players, args.cost_games, args.repeat)

    base = of(baseline)
    print(
        f"\nengine CPU per game, {players} seats of one strategy "
        f"({args.cost_games:,} {what}, best of {args.repeat}):"
    )
    over = []
    for name in module.STRATEGIES:
        c = base if name == baseline else of(name)
        print(f"  {name:<12} {c * 1e3:.3f} ms  ×{c / base:.2f} of {baseline}")
        if name in rule_aware and c > BOUND * base:
            over.append(name)
    if over:
        print(f"FAILED: {', '.join(over)} cost more than {BOUND}× {baseline}", file=sys.stderr)
        sys.exit(1)
