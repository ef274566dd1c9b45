"""Competence under the rules (``simharness.games.riichi.competence``): the rule-aware strategies
never reach a ready hand without a legal win where a discard of that turn kept one, under every rule
set that changes what a good player aims for, on tens of thousands of hands, while a strategy that
calls without planning does, often enough for the test to see it."""

from __future__ import annotations

import polars as pl
import pytest

from simharness import engine
from simharness.games.riichi import competence

GAMES = 800  # tonpuu games per rule set: about 4,000 hands, 16,000 seat-hands


@pytest.mark.parametrize("label", sorted(competence.RULES))
def test_rule_aware_play_never_reaches_an_avoidable_yakuless_ready_hand(label: str) -> None:
    preset, overrides = competence.RULES[label]
    for name in ("rule-aware", "balanced"):
        r = competence.row(label, preset, overrides, name, GAMES, seed=3)
        assert r.hands * 4 >= 15_000, r
        assert r.ready_hands >= 5_000, r
        assert r.avoidable_hands == 0, r
        # Where no discard keeps a legal win (no riichi left to declare, too few points to
        # declare it) a ready hand may still have none: rare, and bounded with its interval.
        assert r.cannot_win.hi < 0.01, r
    calls = competence.row(label, preset, overrides, "call-happy", GAMES // 4, seed=3)
    assert calls.cannot_win.lo > 0.05, calls
    assert calls.avoidable_hands > 0, calls


def test_the_audit_watches_the_games_a_run_plays() -> None:
    rules = engine.resolve_rules("riichi", "tenhou", {"game_length": "tonpuu", "event_log_every": 1})
    lineup = [competence.knobs(n) for n in ("rule-aware", "call-happy", "efficiency", "balanced")]
    events = engine.play_batch("riichi", rules, lineup, seed=5, first_game=0, count=40)["events"]
    kinds = engine.codes("riichi", "events", "kind")
    discards = (
        events.filter(pl.col("kind").is_in([kinds["discard"], kinds["riichi_discard"]]))
        .group_by("seat")
        .len()
        .sort("seat")["len"]
        .to_list()
    )
    tally = competence.audit(rules, lineup, seed=5, first_game=0, count=40)
    assert [t["discards"] for t in tally] == discards
    for t in tally:
        assert t["avoidable_hands"] <= t["yakuless_hands"] <= t["ready_hands"] <= t["hands"]
        assert t["yakuless_discards"] <= t["ready_discards"] <= t["discards"]
    # A closed hand always has menzen tsumo: efficiency never calls, so never lacks a yaku.
    assert tally[2]["yakuless_hands"] == 0 < tally[2]["ready_hands"]
