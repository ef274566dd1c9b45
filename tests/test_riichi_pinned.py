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
    "tenhou-duplicate": "f0ae5514bfc7140b7b99033081b7feb38741d143ab49b3146752310836ef1f54",
    "coverage-events": "743ee8a9fcf0eb98928c676fb9267eb1970b8751a3a29e843017699b5505ca5d",
    "sanma-flowers": "9547a5e5cd1f6e5fa773f25e0e4d9e3db42bb6967aafa03f5cea2260219ac3e3",
    "python-strategy": "53d0a684d4109310c28cdd193d1018625f5fb6cd948d18adc33b3e2f3926f69b",
}


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_reference_batches_keep_their_tables(batch: str) -> None:
    tables = play("riichi", BATCHES[batch])
    logged = "event_log_every" in BATCHES[batch][1]
    assert all(frame.height > 0 for name, frame in tables.items() if name != "events" or logged)
    assert table_digest(tables) == PINNED[batch]
