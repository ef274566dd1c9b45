"""Hong Kong's competence table and what rule-aware play costs.

The table (``simharness.games.hongkong.competence``, the one in docs/hongkong.md): per rule set that
changes what a good player aims for (no minimum, ``min_fan`` 1 and 3, ``old_style``) and per strategy
(all four seats, full games), win rate, draw rate, mean value (fan counted toward the minimum) and
the share of ready hands that cannot win legally, with the avoidable ones; then each rule set's draw
rate of ``rule-aware`` against twice the no-minimum draw rate (the target of issue #28).

The cost: the engine's CPU time per game of each strategy in all four seats under each rule set
(``engine.play_batch`` alone, best of ``--repeat``), its ratio to ``chicken-fast``'s under the same
rules, and the CPU time per live-wall draw (games under a minimum are longer or shorter by their
draws); the script exits 1 when ``rule-aware`` costs more than twice ``chicken-fast`` per game under
any rule set. Usage: ``python benchmarks/hongkong_competence.py [--games N] [--cost-games N]
[--repeat R]``.
"""

from __future__ import annotations

import argparse
import sys
import time

from simharness import engine
from simharness.games.hongkong import competence

BOUND = 2.0
RULE_AWARE = "rule-aware"


def cost(
    preset: str, overrides: dict[str, object], name: str, games: int, repeat: int
) -> tuple[float, float]:
    """Engine CPU seconds per game and per live-wall draw of ``name`` in all four seats."""
    rules = engine.resolve_rules("hongkong", preset, overrides)
    lineup = [competence.knobs(name)] * 4
    best = float("inf")
    turns = 1
    for _ in range(repeat):
        start = time.process_time()
        tables = engine.play_batch("hongkong", rules, lineup, seed=1, first_game=0, count=games)
        best = min(best, time.process_time() - start)
        turns = int(tables["games"]["turns"].sum())
    return best / games, best / turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games per row of the table")
    parser.add_argument("--cost-games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    rows = competence.table(args.games, seed=1)
    print(f"competence, {args.games:,} games per row ({time.perf_counter() - start:.0f} s):")
    print(competence.markdown(rows, competence.VALUE_UNIT))
    base = next(r for r in rows if r.rules == competence.NO_MINIMUM and r.strategy == RULE_AWARE).draw_rate
    print(
        f"\ndraw rate of {RULE_AWARE} against 2 × its no-minimum rate "
        f"({base.estimate:.2%}, upper bound {base.hi:.2%}):"
    )
    for r in rows:
        if r.strategy == RULE_AWARE and r.rules != competence.NO_MINIMUM:
            ratio = r.draw_rate.estimate / max(base.estimate, 1e-9)
            verdict = "within" if r.draw_rate.hi <= 2 * base.hi else "OVER"
            print(
                f"  {r.rules:<20} {r.draw_rate.estimate:.2%} "
                f"[{r.draw_rate.lo:.2%}, {r.draw_rate.hi:.2%}]  ×{ratio:.1f}  {verdict}"
            )
    print(f"\nengine CPU, 4 seats of one strategy ({args.cost_games:,} games, best of {args.repeat}):")
    over = []
    for label, (preset, overrides) in competence.RULES.items():
        chicken, chicken_turn = cost(preset, overrides, "chicken-fast", args.cost_games, args.repeat)
        aware, aware_turn = cost(preset, overrides, RULE_AWARE, args.cost_games, args.repeat)
        print(
            f"  {label:<20} chicken-fast {chicken * 1e3:7.2f} ms/game {chicken_turn * 1e6:5.2f} µs/draw   "
            f"{RULE_AWARE} {aware * 1e3:7.2f} ms/game {aware_turn * 1e6:5.2f} µs/draw   "
            f"×{aware / chicken:.2f} per game, ×{aware_turn / chicken_turn:.2f} per draw"
        )
        if aware > BOUND * chicken:
            over.append(label)
    if over:
        print(
            f"FAILED: {RULE_AWARE} costs more than {BOUND}× chicken-fast per game under {', '.join(over)}",
            file=sys.stderr,
        )
        sys.exit(1)


if __name__ == "__main__":
    main()
