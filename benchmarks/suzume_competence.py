"""Suzume-jong's competence table and what rule-aware play costs.

The table (``simharness.games.suzume.competence``, the one in docs/suzume.md): per rule set that
changes what a good player aims for and per strategy (all four seats), win rate, draw rate, mean
score and the share of ready hands that cannot win legally, with the avoidable ones. The cost: the
engine's CPU time per game of each strategy in all four seats under the default rules (5-point
minimum), and its ratio to ``fastest``'s; exits 1 when ``rule-aware`` costs more than twice as much
(``_competence.py``). Usage: ``python benchmarks/suzume_competence.py [--games N] [--cost-games N]
[--repeat R]``.
"""

from __future__ import annotations

import _competence

from simharness import engine
from simharness.games.suzume import competence

if __name__ == "__main__":
    _competence.main(
        __doc__ or "",
        competence,
        rules=engine.resolve_rules("suzume", "default", {}),
        players=competence.PLAYERS,
        baseline="fastest",
        rule_aware=("rule-aware",),
        games=5000,
    )
