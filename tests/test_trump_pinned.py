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
    "duplicate": "dbc0f8a50243bb171a8165db6658a54428167f1798a22c84975b44bfa2bb33ec",
    "strict-double-ron": "9a826c4da2fe25594339042a039368e922ea3b69802f0b996c2c0be6d607aac3",
    "mistakes": "33908648e65324345510ad76aab5468d4fc4fa32008983f1ba4e9d5e5e30d4ea",
    "no-joker-keep": "fa9bce6d0da552587d7101bbf5849602bbd6185d1100e3bfafb42b85d95556b4",
    "python-strategies": "b6d1706aadf4ef36ed0ad9cbf7f7ad992aaeb0ca04481e797a2a747efc82f246",
    "show-mistakes": "2f7938e3b5b9b305aabb565b035df3ab4aa05a6f5d7dd1c80f31f9d0f3b94c49",
    "show-python": "313fdb88d01cb31049e2ffd98559798818e24f17f9256e84cad8254753480fd9",
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
