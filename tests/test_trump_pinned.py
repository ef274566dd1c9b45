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
    "duplicate": "964275cd09001572dcd0015fd86a1fee5783cbf89cd70841658127f26983aba9",
    "strict-double-ron": "6ffd974e6b09216cb8002959c9f1293c52d5cdd4aa6b7feda88bd7bda1c3a4f1",
    "mistakes": "ecf09cbe1e23f561285c9007dd97f4345f0fc4b500d860989a148bd833e8bf4e",
    "no-joker-keep": "55dd5582fea3dbb5dd05ce52f095fea8e119e5240eeddd779b4caf90c20e1718",
    "python-strategies": "a2487f2d673f197a26a4361ca863edd14bf0dd5076d8c39609f5ad7986435065",
    "show-mistakes": "60247bf5752b02a5fbed5da664efe730ac4f26750e94c1211024ee1d530e7848",
    "show-python": "41a3a84b92bc5fa89d13d4de6522d6e7ee1de02047cbbb736d2e8d4d16b1a931",
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
