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

import json
from collections.abc import Sequence
from typing import Any

from simharness import _engine, engine
from simharness.games import competence
from simharness.games.competence import Row, markdown, share

GAME = "riichi"
# The rule sets under which a good player aims for something else.
RULES: competence.RuleSets = {
    "tenhou": ("tenhou", {}),
    "tenhou, kuitan off": ("tenhou", {"kuitan": False}),
    "tenhou, min_han 2": ("tenhou", {"min_han": 2}),
    "nashi_nashi": ("nashi_nashi", {}),
}
STRATEGIES = ("efficiency", "call-happy", "rule-aware", "balanced")


def audit(
    rules: dict[str, Any], lineup: list[dict[str, Any]], *, seed: int, first_game: int, count: int
) -> list[dict[str, int]]:
    """Per lineup slot, its ready hands and how many could not win legally (``riichi_audit``)."""
    return list(_engine.riichi_audit(json.dumps(rules), json.dumps(lineup), seed, first_game, count))


def knobs(name: str) -> dict[str, Any]:
    """The complete knob set of the built-in script ``name``."""
    return competence.knobs(GAME, name)


def row(label: str, preset: str, overrides: dict[str, Any], name: str, games: int, seed: int) -> Row:
    """``name`` in all four seats of ``games`` tonpuu games under ``preset`` plus ``overrides``."""
    rules = engine.resolve_rules(GAME, preset, {**overrides, "game_length": "tonpuu"})
    lineup = [knobs(name)] * 4
    tables = engine.play_batch(GAME, rules, lineup, seed=seed, first_game=0, count=games)
    hands = tables["hands"]
    players = tables["players"]
    n_hands = hands.height
    drawn = engine.codes(GAME, "hands", "outcome")["exhaustive_draw"]
    wins = int(players["wins"].sum())
    tally = audit(rules, lineup, seed=seed, first_game=0, count=games)
    total = {k: sum(t[k] for t in tally) for k in tally[0]}
    ready = total["ready_hands"]
    return Row(
        rules=label,
        strategy=name,
        hands=n_hands,
        win_rate=wins / (4 * n_hands),
        draw_rate=share(int((hands["outcome"] == drawn).sum()), n_hands),
        mean_value=float(players["win_points"].sum()) / max(wins, 1),
        ready_hands=ready,
        cannot_win=share(total["yakuless_hands"], ready),
        avoidable=share(total["avoidable_hands"], ready),
        avoidable_hands=total["avoidable_hands"],
    )


def table(
    games: int, seed: int = 1, rules: competence.RuleSets = RULES, names: Sequence[str] = STRATEGIES
) -> list[Row]:
    """The competence table: every rule set of ``rules`` × ``names``."""
    return competence.table(row, rules, names, games, seed)


__all__ = ["RULES", "STRATEGIES", "Row", "audit", "knobs", "markdown", "row", "table"]
