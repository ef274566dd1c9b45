"""Competence under the rules: does a strategy play to win legally under Hong Kong's minimum fan?

One row per rule set that changes what a good player aims for (the default table with no minimum,
``min_fan`` 1 and 3, and the ``old_style`` preset: 3-fan minimum, half flush, concealed hand) and per
strategy, each strategy playing all four seats (its own table), full games: win rate (per hand),
exhaustive draw rate (per hand), mean value of a win (fan counted toward the minimum: bonus tiles
excluded, a limit hand as ``max_fan``), and the share of its ready hands that cannot win legally —
ready after one of its discards with no wait that wins by a discard or a self-draw under the minimum
(``engine/src/games/hongkong/competence.rs``). ``avoidable`` counts the hands that were so although
another discard of that turn kept a legal ready hand: the target of a rule-aware strategy is none.
Intervals are Wilson 95% intervals over hands (``simharness.games.competence``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import polars as pl

from simharness import engine
from simharness.games import competence
from simharness.games.competence import Row, markdown
from simharness.games.hongkong.metrics import WINS

GAME = "hongkong"
# The rule sets under which a good player aims for something else.
RULES: competence.RuleSets = {
    "default (min_fan 0)": ("default", {}),
    "min_fan 1": ("default", {"min_fan": 1}),
    "min_fan 3": ("default", {"min_fan": 3}),
    "old_style": ("old_style", {}),
}
# The rule set whose draw rate the others are held to (no minimum).
NO_MINIMUM = "default (min_fan 0)"
STRATEGIES = ("chicken-fast", "min-fan", "rule-aware")
VALUE_UNIT = "fan counted toward the minimum"


# Per lineup slot, its ready hands and how many could not win legally; a built-in script's knobs.
audit = partial(competence.audit, GAME)
knobs = partial(competence.knobs, GAME)


def _counts(rules: dict[str, Any], tables: dict[str, pl.DataFrame]) -> competence.Counts:
    won = tables["hands"].filter(pl.col("outcome").is_in(WINS))
    return competence.Counts(wins=won.height, mean_value=float(won["counted_fan"].sum()) / max(won.height, 1))


def row(label: str, preset: str, overrides: dict[str, Any], name: str, games: int, seed: int) -> Row:
    """``name`` in all four seats of ``games`` games under ``preset`` plus ``overrides``."""
    rules = engine.resolve_rules(GAME, preset, overrides)
    return competence.row(GAME, 4, _counts, label, rules, name, games, seed)


def table(
    games: int, seed: int = 1, rules: competence.RuleSets = RULES, names: Sequence[str] = STRATEGIES
) -> list[Row]:
    """The competence table: every rule set of ``rules`` × ``names``."""
    return competence.table(row, rules, names, games, seed)


__all__ = [
    "NO_MINIMUM",
    "RULES",
    "STRATEGIES",
    "VALUE_UNIT",
    "Row",
    "audit",
    "knobs",
    "markdown",
    "row",
    "table",
]
