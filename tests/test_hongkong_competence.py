"""Competence under Hong Kong's minimum fan (``simharness.games.hongkong.competence``): the audit sees
what naive play does (chicken-fast under 3 fan reaches ready hands that cannot win, most of its ready
hands), rule-aware play never reaches a ready hand that cannot win where a discard of that turn kept
a legal one, and it keeps the draw rate of hands far below naive play's under ``min_fan = 3`` and
``old_style``. The issue's target — within twice the draw rate with no minimum — is not reached: it
is asserted as an expected failure (strict: the day it holds, the test says so), with the figures
printed."""

from __future__ import annotations

import polars as pl
import pytest

from simharness import engine
from simharness.games.competence import Row
from simharness.games.hongkong import competence

GAMES = 100  # full games per row: about 3,500 hands under a 3-fan minimum, 14,000 seat-hands
MINIMUM_RULES = ("min_fan 3", "old_style")


def row(label: str, name: str, games: int = GAMES) -> Row:
    preset, overrides = competence.RULES[label]
    r = competence.row(label, preset, overrides, name, games, seed=3)
    print(
        f"{label}, {name}: {r.hands:,} hands, draw rate {r.draw_rate.estimate:.2%} "
        f"[{r.draw_rate.lo:.2%}, {r.draw_rate.hi:.2%}], ready hands {r.ready_hands:,}, cannot win "
        f"{r.cannot_win.estimate:.2%}, avoidable {r.avoidable_hands}"
    )
    return r


@pytest.fixture(scope="module")
def no_minimum() -> Row:
    return row(competence.NO_MINIMUM, "rule-aware", GAMES // 3)


@pytest.mark.parametrize("label", MINIMUM_RULES)
def test_rule_aware_play_draws_far_fewer_hands_and_never_an_avoidable_illegal_ready_hand(label: str) -> None:
    aware = row(label, "rule-aware")
    naive = row(label, "chicken-fast", GAMES // 8)
    assert aware.hands >= 3_000, aware
    assert aware.ready_hands >= 5_000, aware
    # A discard that keeps a legal ready hand always plans nearer than one that does not.
    assert aware.avoidable_hands == 0, aware
    # Measured: about 30% (old_style) and 37% (min_fan 3) of hands drawn, against about 70%.
    assert aware.draw_rate.hi < 0.7 * naive.draw_rate.lo, (aware, naive)
    assert aware.cannot_win.hi < 0.7 * naive.cannot_win.lo, (aware, naive)
    # A hand with no target in reach counts as dead, so claims never trade the last target away:
    # measured 2% (min_fan 3) and 0.02% (old_style) of ready hands cannot win, against 87-93%.
    assert aware.cannot_win.hi < 0.05, aware


@pytest.mark.xfail(
    strict=True,
    reason="issue #28's target is not reached: rule-aware draws ~28-37% of hands under a 3-fan "
    "minimum, against under 2% with none",
)
@pytest.mark.parametrize("label", MINIMUM_RULES)
def test_rule_aware_draw_rate_within_twice_the_no_minimum_rate(label: str, no_minimum: Row) -> None:
    aware = row(label, "rule-aware", GAMES // 4)
    assert aware.draw_rate.hi <= 2 * no_minimum.draw_rate.hi, (aware.draw_rate, no_minimum.draw_rate)


def test_the_audit_sees_what_naive_play_does() -> None:
    # With no minimum every complete hand is legal; under 3 fan chicken-fast's mostly are not, and
    # a discard of the same turn often kept a legal one.
    free = row(competence.NO_MINIMUM, "chicken-fast", GAMES // 5)
    assert free.ready_hands >= 500 and free.cannot_win.estimate == 0, free
    naive = row("min_fan 3", "chicken-fast", GAMES // 5)
    assert naive.cannot_win.lo > 0.5, naive
    assert naive.avoidable_hands > 0, naive


def test_the_audit_watches_the_games_a_run_plays() -> None:
    rules = engine.resolve_rules("hongkong", "old_style", {})
    lineup = [competence.knobs(n) for n in ("rule-aware", "chicken-fast", "min-fan", "random")]
    discard = 3  # Happening::Discard, the events' kind (engine/src/games/hongkong/state.rs)
    per_seat = [0] * 4
    for index in range(3):
        events = engine.show_game("hongkong", rules, lineup, seed=5, index=index, duplicate=False)["events"]
        for seat, n in events.filter(pl.col("kind") == discard).group_by("seat").len().iter_rows():
            per_seat[seat] += n
    tally = competence.audit(rules, lineup, seed=5, first_game=0, count=3)
    assert [t["discards"] for t in tally] == per_seat
    for t in tally:
        assert t["avoidable_hands"] <= t["yakuless_hands"] <= t["ready_hands"] <= t["hands"]
        assert t["avoidable_discards"] <= t["yakuless_discards"] <= t["ready_discards"] <= t["discards"]
