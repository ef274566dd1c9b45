"""Competence under the rules (``simharness.games.trump.competence``): under every rule set of the
table ``rule-aware`` never reaches a ready hand that cannot win by ron where another card of that
turn kept one, and ``dama`` (T2, which never declares riichi) does so in a quarter of its ready
hands; where the plan cannot bind ``rule-aware`` plays exactly as ``always-riichi``; and the audit
sees every discard a strategy chooses."""

from __future__ import annotations

from typing import Any

import pytest

from simharness import engine
from simharness.games.trump import competence

GAMES = 2500  # games per rule set and strategy: about 16,000 hands, 48,000 seat-hands per row


@pytest.mark.parametrize("label", list(competence.RULES))
def test_rule_aware_play_keeps_ron_legal_where_dama_cannot(label: str) -> None:
    preset, overrides = competence.RULES[label]
    aware = competence.row(label, preset, overrides, "rule-aware", GAMES, seed=3)
    dama = competence.row(label, preset, overrides, "dama", GAMES, seed=3)
    assert aware.hands >= 15_000 and aware.ready_hands >= 10_000, aware
    assert aware.avoidable_hands == 0, aware
    # What is left are hands where no card of the turn kept a ron (furiten on every tenpai discard).
    assert aware.cannot_win.hi * 50 < dama.cannot_win.lo, (aware, dama)
    # dama sits in tenpai without a yaku where riichi would have made ron legal.
    assert dama.avoidable.lo > 0.2, dama
    # Ron kept legal is worth more: riichi's han, ura-dora and ippatsu.
    assert aware.mean_value > dama.mean_value * 1.3, (aware, dama)


def same_games(rules: dict[str, Any]) -> bool:
    """Whether ``always-riichi`` and ``rule-aware`` play the same 400 games under ``rules``."""
    a, b = (
        engine.play_batch("trump", rules, [competence.knobs(name)] * 3, seed=4, first_game=0, count=400)
        for name in ("always-riichi", "rule-aware")
    )
    return all(a[t].equals(b[t]) for t in a)


def test_where_the_plan_cannot_bind_rule_aware_is_always_riichi() -> None:
    # Free riichi, no furiten and no ron on the last live card: riichi makes every tenpai discard
    # ronnable but at the last live card, where none is.
    assert same_games(engine.resolve_rules("trump", "default", {"riichi_cost": 0, "last_discard_ron": False}))
    # Under furiten the plan binds a riichi player: it avoids a wait among its own discards.
    assert not same_games(engine.resolve_rules("trump", "default", {"furiten": "standard"}))


def test_the_audit_sees_every_discard_and_judges_by_the_rules() -> None:
    # No seat declares riichi, so every draw ends in a discard chosen by the player but a tsumo.
    lineup = [competence.knobs(n) for n in ("dama", "tsumo-only", "dama")]
    for preset in ("default", "strict"):
        rules = engine.resolve_rules("trump", preset, {})
        tally = competence.audit(rules, lineup, seed=5, first_game=0, count=300)
        games = engine.play_batch("trump", rules, lineup, seed=5, first_game=0, count=300)["games"]
        assert sum(t["discards"] for t in tally) == int(games["turns"].sum() - games["tsumo_hands"].sum())
        for t in tally:
            assert t["avoidable_hands"] <= t["yakuless_hands"] <= t["ready_hands"] <= t["hands"]
            assert t["yakuless_discards"] <= t["ready_discards"] <= t["discards"]
            assert t["avoidable_discards"] <= t["yakuless_discards"]
            # Without riichi a ready hand lacks a ron when no wait gives a yaku: often, in Trump.
            assert t["yakuless_hands"] > 0.15 * t["ready_hands"] > 0, t
    # With riichi at every tenpai (and no furiten) every ready hand can win by ron but where
    # riichi could not be declared.
    lineup = [competence.knobs("always-riichi")] * 3
    tally = competence.audit(
        engine.resolve_rules("trump", "default", {}), lineup, seed=5, first_game=0, count=300
    )
    assert all(t["yakuless_hands"] < 0.01 * t["ready_hands"] for t in tally), tally
