"""Competence under the rules (``simharness.games.suzume.competence``): under every minimum that
binds, ``rule-aware`` never reaches a ready hand without a legal win where another tile of that turn
kept one, cannot win far less often than ``fastest`` and wins more, with fewer drawn hands; where no
minimum binds it plays exactly as ``fastest``; and the audit sees what ``fastest`` does."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from simharness import engine
from simharness.games.competence import share
from simharness.games.suzume import competence

GAMES = 1000  # games of 16 hands per rule set: 16,000 hands, 64,000 seat-hands per row
BINDING = [label for label, (preset, _) in competence.RULES.items() if preset != "beginner"]


@pytest.mark.parametrize("label", BINDING)
def test_rule_aware_play_wins_legally_where_fastest_cannot(label: str) -> None:
    preset, overrides = competence.RULES[label]
    aware = competence.row(label, preset, overrides, "rule-aware", GAMES, seed=3)
    fastest = competence.row(label, preset, overrides, "fastest", GAMES, seed=3)
    assert aware.hands >= 15_000 and aware.ready_hands >= 10_000, aware
    assert aware.avoidable_hands == 0, aware
    # Where no tile keeps a legal wait (every ready shape of the hand under the minimum) a ready
    # hand may still have none: bounded far below fastest's share.
    assert aware.cannot_win.hi * 3 < fastest.cannot_win.lo, (aware, fastest)
    assert fastest.avoidable.lo > 0.05, fastest
    # The minimum demands value: planning for it wins at least as often and leaves fewer hands drawn.
    assert aware.draw_rate.hi < fastest.draw_rate.lo, (aware, fastest)
    seat_hands = 4 * aware.hands
    wins_aware = share(round(aware.win_rate * seat_hands), seat_hands)
    wins_fastest = share(round(fastest.win_rate * 4 * fastest.hands), 4 * fastest.hands)
    if fastest.cannot_win.lo > 0.5:
        # Most of fastest's ready hands cannot win: planning wins clearly more.
        assert wins_aware.lo > wins_fastest.hi, (wins_aware, wins_fastest)
    else:
        # Non-inferior within one point of win rate.
        assert wins_aware.lo > wins_fastest.estimate - 0.01, (wins_aware, wins_fastest)


def play(rules: dict[str, Any], name: str) -> dict[str, pl.DataFrame]:
    """300 games of ``name`` in all four seats."""
    lineup = [competence.knobs(name)] * 4
    return engine.play_batch("suzume", rules, lineup, seed=4, first_game=0, count=300)


def test_without_a_binding_minimum_rule_aware_is_fastest() -> None:
    rules = engine.resolve_rules("suzume", "beginner", {})
    tables = {name: play(rules, name) for name in ("fastest", "rule-aware")}
    assert all(tables["fastest"][t].equals(tables["rule-aware"][t]) for t in tables["fastest"])


def test_the_audit_sees_every_discard_and_judges_by_the_minimum() -> None:
    lineup = [competence.knobs(n) for n in ("fastest", "rule-aware", "max-points", "fastest")]
    for preset in ("default", "beginner"):
        rules = engine.resolve_rules("suzume", preset, {})
        tally = competence.audit(rules, lineup, seed=5, first_game=0, count=200)
        games = engine.play_batch("suzume", rules, lineup, seed=5, first_game=0, count=200)["games"]
        # Every turn ends in a discard but the one won by tsumo.
        assert sum(t["discards"] for t in tally) == int(games["turns"].sum() - games["tsumo_hands"].sum())
        for t in tally:
            assert t["avoidable_hands"] <= t["yakuless_hands"] <= t["ready_hands"] <= t["hands"]
            assert t["yakuless_discards"] <= t["ready_discards"] <= t["discards"]
            assert t["avoidable_discards"] <= t["yakuless_discards"]
        if preset == "beginner":
            # Without a minimum every ready hand wins legally.
            assert all(t["yakuless_hands"] == 0 < t["ready_hands"] for t in tally)
        else:
            # fastest sits ready under the minimum where another tile kept a legal wait.
            assert tally[0]["avoidable_hands"] > 20 and tally[3]["avoidable_hands"] > 20, tally
            assert tally[1]["avoidable_hands"] == 0 < tally[1]["ready_hands"], tally
