"""Competence under the rules: does a Suzume-jong strategy play to win legally under the rules it
plays?

Suzume-jong has no yaku: what makes a ready hand unable to win is the minimum base (``min_points``,
§5.4; the dealer bonus does not count), reached through the scoring table (triplets, red tiles, the
dora, tanyao, chanta, the yakuman). One row per rule set that changes what a good player aims for
(the 5-point minimum, the beginner rule without it, a 7-point minimum, no red tiles) and per strategy,
each strategy playing all four seats (its own table): win rate (per seat and hand), exhaustive draw
rate (per hand), mean score of a win (dealer bonus included), and the share of its ready hands that
cannot win legally — ready after one of its discards with no wait completing a hand that reaches the
minimum (``engine/src/games/suzume/competence.rs``). ``avoidable`` counts the hands that were so
although another tile of that turn kept a legal ready hand: the target of ``rule-aware`` is none.
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

GAME = "suzume"
# The rule sets under which a good player aims for something else.
RULES: competence.RuleSets = {
    "default (min_points 5)": ("default", {}),
    "beginner (no minimum)": ("beginner", {}),
    "min_points 7": ("default", {"min_points": 7}),
    "red_tiles off": ("default", {"red_tiles": False}),
}
STRATEGIES = ("fastest", "max-points", "rule-aware")
PLAYERS = 4


# Per lineup slot, its ready hands and how many could not win legally; a built-in script's knobs.
audit = partial(competence.audit, GAME)
knobs = partial(competence.knobs, GAME)


def _counts(rules: dict[str, Any], tables: dict[str, pl.DataFrame]) -> competence.Counts:
    players = tables["players"]
    wins = int(players["wins"].sum())
    return competence.Counts(wins=wins, mean_value=float(players["points_scored"].sum()) / max(wins, 1))


def row(label: str, preset: str, overrides: dict[str, Any], name: str, games: int, seed: int) -> Row:
    """``name`` in all four seats of ``games`` games under ``preset`` plus ``overrides``."""
    rules = engine.resolve_rules(GAME, preset, overrides)
    return competence.row(GAME, PLAYERS, _counts, label, rules, name, games, seed)


def table(
    games: int, seed: int = 1, rules: competence.RuleSets = RULES, names: Sequence[str] = STRATEGIES
) -> list[Row]:
    """The competence table: every rule set of ``rules`` × ``names``."""
    return competence.table(row, rules, names, games, seed)


__all__ = ["RULES", "STRATEGIES", "Row", "audit", "knobs", "markdown", "row", "table"]
