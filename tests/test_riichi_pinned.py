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
    "tenhou-duplicate": "12790a33695035c02d0823d2d7997b8d042e4f2d14a91cf9ecd0654adfd99c90",
    "coverage-events": "be24c5bf5006ba4b7b310236ad2b0cd606141b0343342d383a162e2b171aee9f",
    "sanma-flowers": "011a53bee6924fcd0f55d983af7d02038aa71f7758bc205d813d1facc5393c48",
    "python-strategy": "70f86785fdf6e3bc336a24e3bc1a1b9569e2d8ec62337a6cb87e95c4ee84319c",
}


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_reference_batches_keep_their_tables(batch: str) -> None:
    tables = play("riichi", BATCHES[batch])
    logged = "event_log_every" in BATCHES[batch][1]
    assert all(frame.height > 0 for name, frame in tables.items() if name != "events" or logged)
    assert table_digest(tables) == PINNED[batch]
