"""Mahjong sugoroku games pinned to the byte (see `pinned.py`). The batches reach the rule paths and
every decision point (G-D1…G-D4) of the reference configs: four players in duplicate play with every
built-in strategy kind (greedy's lookahead included), five players under the 8/1 addendum with every
optional roll and 1-1 again on the back re-roll, two players under unusual options (dora `next`, no
cap, plain extra rolls, overshoot `stay`, an agreement offered from afar, a turn limit), and a Python-protocol
strategy; and shown games (`simharness show`: course, dora, positions, rolls, decisions), native and
with the Python strategy."""

from __future__ import annotations

from typing import Any

import pytest
from pinned import Batch, play, table_digest

from simharness import engine

NAIVE: dict[str, Any] = {}
GREEDY = {"pinzoro_reroll": "greedy", "sixzoro_reroll": "greedy", "offset": "greedy", "agree_end": "greedy"}
RANDOM = {"pinzoro_reroll": "random", "sixzoro_reroll": "random", "offset": "random", "agree_end": "random"}
OFFSET = {"offset": "always"}
AGREEABLE = {"agree_end": "always"}
NO_BACK = {"pinzoro_reroll": "never"}
TUNED = {**GREEDY, "square_value": 2.5, "rest_value": 7.0}
PYTHON = {"python": "simharness.games.sugoroku.python:Leader"}

ADDENDUM = {"pinzoro_reroll_doubles": "again", "cap_scope": "everything", "gold_5s": 2, "pochi_count": 3}
UNUSUAL = {
    "dora_mode": "next",
    "dora_count": 40,
    "payout_cap": "none",
    "sixzoro_extra_roll": "plain",
    "overshoot": "stay",
    "loop_rule": "repeat-square",
    "agreement_distance": 60,
    "max_turns": 40,
    "ties": "seat_order",
}

# name: (preset, overrides, lineup, games, duplicate)
BATCHES: dict[str, Batch] = {
    "default-duplicate": ("default", {}, [NAIVE, GREEDY, RANDOM, OFFSET], 40, True),
    "addendum-five": ("addendum", ADDENDUM, [GREEDY, AGREEABLE, NO_BACK, RANDOM, TUNED], 60, False),
    "two-unusual": ("default", UNUSUAL, [TUNED, RANDOM], 80, False),
    "python-strategy": ("default", {}, [PYTHON, GREEDY, RANDOM], 30, False),
}

PINNED = {
    "default-duplicate": "8668c2379f6869831a6baebf2bfb0efeb4636e198dcb8c7c491e4e81e8afcc85",
    "addendum-five": "ceb726061feaeca2419fd8aa7c14260b00e429659b45937450f186f8dbfc8100",
    "two-unusual": "37ab547f09a0516e00b141eb5a6c1d68cc8353456a94703feafc7da011e81e4a",
    "python-strategy": "838c5124f11a6c5cf413791c2e70de97dd47a815aa4fbbf28e8733d3e6199881",
}

# name: (batch whose rules and lineup are shown, game index)
SHOWN = {"show-addendum": ("addendum-five", 13), "show-python": ("python-strategy", 14)}

# Re-recorded when decisions.decision became a coded column counting from 0 (it counted from 1): the
# old digests are these tables with 1 added to that column, nothing else changed (#23).
PINNED_SHOWN = {
    "show-addendum": "bd794d107935e482e81ff781cbabf51c2423418e64e3877b7463b0031fe4dd97",
    "show-python": "9a6a5ce8958040792872973964e0df87a18dca998f480feb9738f7566c84b5c2",
}


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_reference_batches_keep_their_tables(batch: str) -> None:
    tables = play("sugoroku", BATCHES[batch])
    assert all(frame.height > 0 for frame in tables.values())
    assert table_digest(tables) == PINNED[batch]


@pytest.mark.parametrize("shown", sorted(SHOWN))
def test_shown_games_keep_their_events(shown: str) -> None:
    name, index = SHOWN[shown]
    preset, overrides, lineup, _games, duplicate = BATCHES[name]
    rules = engine.resolve_rules("sugoroku", preset, overrides)
    tables = engine.show_game("sugoroku", rules, lineup, seed=11, index=index, duplicate=duplicate)
    assert tables["decisions"].height > 0
    assert table_digest(tables) == PINNED_SHOWN[shown]
