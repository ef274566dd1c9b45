"""Trump mahjong's competence table and what rule-aware play costs.

The table (``simharness.games.trump.competence``, the one in docs/trump.md): per rule set that cuts
off ron (furiten, 完全先付け) and per strategy (all three seats), win rate, draw rate, mean table
value of a win and the share of ready hands that cannot win by ron, with the avoidable ones. The
cost: the engine's CPU time per game of each strategy in all three seats under the ``strict`` preset
(furiten and 完全先付け on, where the plan judges most), and its ratio to ``always-riichi``'s (T1,
the defaults); exits 1 when ``rule-aware`` costs more than twice as much (``_competence.py``).
Usage: ``python benchmarks/trump_competence.py [--games N] [--cost-games N] [--repeat R]``.
"""

from __future__ import annotations

import _competence

from simharness import engine
from simharness.games.trump import competence

if __name__ == "__main__":
    _competence.main(
        __doc__ or "",
        competence,
        rules=engine.resolve_rules("trump", "strict", {}),
        players=competence.PLAYERS,
        baseline="always-riichi",
        rule_aware=("rule-aware",),
        games=5000,
    )
