"""Trump mahjong games pinned to the byte (see `pinned.py`). The batches reach the rule paths the
reference configs use: duplicate play, every built-in strategy, the strict preset with double ron,
mistake injection (chombo and replays), Python-protocol strategies (the example one, and one whose
every choice hangs on the whole view and legal list it is given, so that the protocol's dict and
tuples are pinned too), and shown games with their event, yaku and payment tables."""

from __future__ import annotations

import hashlib
from typing import Any

import polars as pl
import pytest
from pinned import Batch, play, table_digest

from simharness import engine

ALWAYS_RIICHI: dict[str, Any] = {}
DAMA = {"riichi": False}
FOLD = {"fold": True, "fold_min_live": 4}
TSUMO_ONLY = {"riichi": False, "ron": False}
KOKUSHI = {"kokushi_hunt": True, "kokushi_kinds": 4, "kokushi_shanten": 3}
MAX_HAN = {"min_han": 3, "min_han_relax_live": 3}
RANDOM = {"discard": "random"}
PYTHON = {"python": "simharness.games.trump.python:AlwaysRiichi"}


class ViewDigest:
    """Chooses from a digest of everything `decide` receives: any change to the protocol's view
    dict (keys, values, order) or to the legal tuples changes its choices and so the tables."""

    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> int:
        seen = repr((list(view.items()), legal)).encode()
        return int.from_bytes(hashlib.sha256(seen).digest()[:4], "little") % len(legal)


VIEW_DIGEST = {"python": f"{__name__}:ViewDigest"}

MISTAKES = {"mistake_rate": 0.04, "chombo_penalty": 3}
NO_JOKER_KEEP = {"joker_keep_allowed": False, "rounds": 1}
STRICT_DOUBLE = {"multi_ron": "double", "end_on_zero": False, "double_riichi_stacks": "add"}

# name: (preset, overrides, lineup, games, duplicate)
BATCHES: dict[str, Batch] = {
    "duplicate": ("default", {}, [ALWAYS_RIICHI, FOLD, KOKUSHI], 24, True),
    "strict-double-ron": ("strict", STRICT_DOUBLE, [MAX_HAN, TSUMO_ONLY, DAMA], 24, False),
    "mistakes": ("default", MISTAKES, [RANDOM, FOLD, MAX_HAN], 24, True),
    "no-joker-keep": ("default", NO_JOKER_KEEP, [KOKUSHI, RANDOM, DAMA], 12, False),
    "python-strategies": ("strict", MISTAKES, [PYTHON, VIEW_DIGEST, KOKUSHI], 6, True),
}

# name: (batch, game index): the game played again alone with its events.
SHOWN = {
    "show-mistakes": ("mistakes", 5),
    "show-python": ("python-strategies", 2),
}

PINNED = {
    "duplicate": "9067eb4fab701bab7214a22412d64b6467c49ce1ca470be63965a9092a2558a6",
    "strict-double-ron": "c54257e5e2048a7f9400f7f0afd8b913c66a9a37af73dcf2b5ebdf3813d48cd8",
    "mistakes": "3a9d54558df357a89d1eea0dbf73a37faf9b5bb18c38af6b92710f204d6c0c85",
    "no-joker-keep": "086a8f88ad6f10a70299a7ff978727483619da81d995954af988340ddbf02c42",
    "python-strategies": "d0b079f6e0497a0d01006f23aaec7b5488f8263eb7f7f7912d3746e00fd04028",
    "show-mistakes": "56228a30cec9cbb1b186b1d695869ee2556474e755c31cc04901589ac2a92c97",
    "show-python": "20fc5e4caa41f484e3ed80f83559134aa417adb88433b187a4757842c80894be",
}


def show(batch: Batch, index: int, seed: int = 11) -> dict[str, pl.DataFrame]:
    preset, overrides, lineup, _games, duplicate = batch
    rules = engine.resolve_rules("trump", preset, overrides)
    return engine.show_game("trump", rules, lineup, seed=seed, index=index, duplicate=duplicate)


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_reference_batches_keep_their_tables(batch: str) -> None:
    tables = play("trump", BATCHES[batch])
    assert all(frame.height > 0 for frame in tables.values())
    assert table_digest(tables) == PINNED[batch]


@pytest.mark.parametrize("shown", sorted(SHOWN))
def test_shown_games_keep_their_events(shown: str) -> None:
    batch, index = SHOWN[shown]
    tables = show(BATCHES[batch], index)
    assert {"events", "win_yaku", "payments"} <= set(tables) and tables["events"].height > 0
    assert table_digest(tables) == PINNED[shown]
