"""Riichi games pinned to the byte (see `pinned.py`). The batches reach the rule paths the reference
configs use: four players under Tenhou rules in duplicate play, the coverage lineup with every event
logged (kans, calls, nagashi, open riichi, noten claims, yame by choice, pao), three players with
flowers, and a Python-protocol strategy."""

from __future__ import annotations

from typing import Any

import pytest
from pinned import Batch, play, table_digest

EFFICIENCY: dict[str, Any] = {}
FOLD = {"fold": "riichi", "push_ukeire": 6}
CALLER = {"calls": "any"}
DAMATEN = {"riichi": "never"}
KAN_HAPPY = {"calls": "any", "kan": "always"}
NAGASHI = {"nagashi": True, "nagashi_shanten": 2}
NOTEN_OPEN = {"noten_declaration": "when_it_ends_game_on_top", "open_riichi": True, "calls": "yakuhai"}
RANDOM = {"policy": "random"}
PYTHON = {"python": "simharness.games.riichi.python:ShantenGreedy"}

COVERAGE_RULES = {
    "game_length": "tonpuu",
    "event_log_every": 1,
    "local_yaku": ["open_riichi"],
    "allow_noten_declaration": True,
    "agari_yame": "choice",
    "tenpai_yame": "choice",
    "pao": ["daisangen", "daisuushii", "suukantsu"],
    "kan_dora_timing": "immediate",
}

# name: (preset, overrides, lineup, games, duplicate)
BATCHES: dict[str, Batch] = {
    "tenhou-duplicate": ("tenhou", {}, [EFFICIENCY, FOLD, CALLER, DAMATEN], 16, True),
    "coverage-events": ("default", COVERAGE_RULES, [KAN_HAPPY, NAGASHI, NOTEN_OPEN, RANDOM], 24, False),
    "sanma-flowers": ("sanma", {"flowers": 4, "event_log_every": 1}, [EFFICIENCY, FOLD, CALLER], 12, False),
    "python-strategy": ("tenhou", {"game_length": "tonpuu"}, [PYTHON, EFFICIENCY, CALLER, RANDOM], 4, False),
}

PINNED = {
    "tenhou-duplicate": "36361625e748ea8030e4266e28856fddaabe1b488a4b0ba26e5a8c1a3ecfb490",
    "coverage-events": "2cbfb6103eedf1866970b8ffaaf9320ea7746af6bdef96c08bff95acc74ec6ce",
    "sanma-flowers": "4424ebf4b95f1da585638fe9dc07ac3e1d899397d8964b42051a868dd1d424f3",
    "python-strategy": "03778e96c279cff7929bf0c9804e0516324fd2d7458642ee46225ced8aefb41f",
}


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_reference_batches_keep_their_tables(batch: str) -> None:
    tables = play("riichi", BATCHES[batch])
    logged = "event_log_every" in BATCHES[batch][1]
    assert all(frame.height > 0 for name, frame in tables.items() if name != "events" or logged)
    assert table_digest(tables) == PINNED[batch]
