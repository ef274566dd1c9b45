"""Competence under the rules: does a strategy play to win legally under the rules it plays?

One row per rule set that changes what a good player aims for (kuitan on and off, a 2-han minimum,
完先 ``nashi_nashi``) and per strategy, each strategy playing all four seats (its own table), East-only
games: win rate (per hand), exhaustive draw rate (per hand), mean value of a win (points before honba
and deposits), and the share of its ready hands that cannot win legally — ready after one of its
discards with no wait that wins by ron or tsumo under the rules (``engine/src/games/riichi/
competence.rs``). ``avoidable`` counts the hands that were so although another discard of that
turn kept a legal ready hand: the target of a rule-aware strategy is none. Intervals are Wilson 95%
intervals over hands (``simharness.games.competence``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import polars as pl

from simharness import engine
from simharness.games import competence
from simharness.games.competence import Row, markdown

GAME = "riichi"
# The rule sets under which a good player aims for something else.
RULES: competence.RuleSets = {
    "tenhou": ("tenhou", {}),
    "tenhou, kuitan off": ("tenhou", {"kuitan": False}),
    "tenhou, min_han 2": ("tenhou", {"min_han": 2}),
    "nashi_nashi": ("nashi_nashi", {}),
}
STRATEGIES = ("efficiency", "call-happy", "rule-aware", "balanced")


# Per lineup slot, its ready hands and how many could not win legally; a built-in script's knobs.
audit = partial(competence.audit, GAME)
knobs = partial(competence.knobs, GAME)


def _counts(rules: dict[str, Any], tables: dict[str, pl.DataFrame]) -> competence.Counts:
    players = tables["players"]
    wins = int(players["wins"].sum())
    return competence.Counts(wins=wins, mean_value=float(players["win_points"].sum()) / max(wins, 1))


def row(label: str, preset: str, overrides: dict[str, Any], name: str, games: int, seed: int) -> Row:
    """``name`` in all four seats of ``games`` tonpuu games under ``preset`` plus ``overrides``."""
    rules = engine.resolve_rules(GAME, preset, {**overrides, "game_length": "tonpuu"})
    return competence.row(GAME, 4, _counts, label, rules, name, games, seed)


def table(
    games: int, seed: int = 1, rules: competence.RuleSets = RULES, names: Sequence[str] = STRATEGIES
) -> list[Row]:
    """The competence table: every rule set of ``rules`` × ``names``."""
    return competence.table(row, rules, names, games, seed)


__all__ = ["RULES", "STRATEGIES", "Row", "audit", "knobs", "markdown", "row", "table"]
