"""Hong Kong mahjong games pinned to the byte (see `pinned.py`). The batches reach the rule paths the
reference configs use: the default table in duplicate play, the `old_style` preset (包, false wins by
mistake injection, several winners on one discard), the 136-tile set with a bust end and the other
settlement options, every built-in strategy, and a Python-protocol strategy; and `show`'s event
tables of a game with native and with Python players.

Each is pinned under both keyed-chance recipes: the default `named` one (seed / ASCII tag / deal /
hand, as in every game) and `numeric`, Hong Kong's recipe before it, which must keep playing the
games of earlier releases byte for byte (the `numeric` digests are those recorded before the change;
the `named` ones changed with it, on purpose: other walls from the same distribution,
`test_hongkong_chance.py`)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from pinned import Batch, play, table_digest

from simharness import engine, tomlfile

CHICKEN_FAST: dict[str, Any] = {}
CONCEALED = {"claims": "never"}
PUNG_HUNTER = {"claims": "pung_only", "discard": "pungs"}
DEFENSIVE = {"defend": True, "min_win_fan": 1, "threat_melds": 3, "threat_live": 20, "threat_late_melds": 2}
SELF_DRAW_ONLY = {"claims": "never", "win_on_discard": False}
MIN_FAN = {"min_win_fan": 3, "relax_live": 8, "discard": "value"}
RANDOM = {"discard": "random", "claims": "random"}
RULE_AWARE = {"fan_plan": "rules"}
PYTHON = {"python": "simharness.games.hongkong.python:ChickenFast"}


class ViewDigest:
    """Chooses by a hash of everything `decide` receives, so that a change to the protocol's view
    dict or legal list (a key, a value, an order) changes the game; ChickenFast alone would not
    notice a seat played by its native twin."""

    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> int:
        digest = hashlib.sha256(repr((view, legal)).encode()).digest()
        return int.from_bytes(digest[:8], "little") % len(legal)


VIEW_DIGEST = {"python": f"{__name__}:ViewDigest"}

OLD_STYLE = {"mistake_rate": 0.002, "multi_win": "all"}
SETTLEMENT_136 = {
    "tile_set": 136,
    "starting_points": 200,
    "bust_ends_game": True,
    "earthly_hand_def": "riichi",
    "kong_on_kong_limit": True,
    "dealer_double": True,
    "discarder_pays_all": True,
    "base_table": "spicy",
    "multi_win": "all",
    "ties": "seat_order",
}

# name: (preset, overrides, lineup, games, duplicate)
BATCHES: dict[str, Batch] = {
    "default-duplicate": ("default", {}, [CHICKEN_FAST, CONCEALED, PUNG_HUNTER, DEFENSIVE], 8, True),
    "old-style": ("old_style", OLD_STYLE, [MIN_FAN, SELF_DRAW_ONLY, RANDOM, PUNG_HUNTER], 8, False),
    "settlement-136": ("default", SETTLEMENT_136, [RANDOM, CHICKEN_FAST, DEFENSIVE, MIN_FAN], 8, False),
    "python-strategy": ("default", {}, [PYTHON, CHICKEN_FAST, RANDOM, SELF_DRAW_ONLY], 2, False),
    # Rule-aware play plans for the minimum fan: old_style's 3 fan, half flush and concealed hand.
    "rule-aware": ("old_style", {}, [RULE_AWARE, CHICKEN_FAST, MIN_FAN, RULE_AWARE], 4, False),
    "python-view": (
        "old_style",
        {"min_fan": 0},
        [CHICKEN_FAST, VIEW_DIGEST, PUNG_HUNTER, VIEW_DIGEST],
        2,
        False,
    ),
}

# The one liable (包) win of 2,000 games of the coverage lineup under seed 99 and the numeric recipe
# (game 982: big three dragons won on the discard that made the third exposed dragon set;
# `test_hongkong.py`).
BAO_LINEUP = [PUNG_HUNTER, {**PUNG_HUNTER, "discard": "value"}, MIN_FAN, RANDOM]
BAO_RULES = {"mistake_rate": 0.02, "bao": "third_set", "chance_recipe": "numeric"}

# name: (batch whose rules and lineup are shown, game index)
SHOWN: dict[str, tuple[str, int]] = {
    "show-old-style": ("old-style", 3),
    "show-python": ("python-strategy", 1),
    "show-python-view": ("python-view", 1),
}

# The digests of the default recipe (`named`), then of `numeric` (the earlier releases' games).
PINNED = {
    "default-duplicate": "149c47c4ebeda7f5506c8b64159e37a34db5b6f9549852a6da9c535ea263de51",
    "old-style": "5df9ba504ef1a5b28230307f9ced4aef403d3af4bcde8c9419b041efd2d4dc84",
    "settlement-136": "b29de1a804ba519148ffaeac4c95e7be1725d277291e8fd6452cc4a0915fa20c",
    "python-strategy": "699bc30031c14d9230ba597cbf4fe92a9dead059a4146a7aec84c174bdd6981d",
    "python-view": "2c4784c1f3d64d06c6eccbb4af2e11ea04f2531f2ede9da14802e1f4bb50df58",
    "show-old-style": "03e9eaf8441de43c91331299fc56ccf1c3eb9d3feb90be9306ab61a7812054c8",
    "show-python": "f0dac6a964d6dc8a534dc4c96355edc9d5618fe49f08242ed9a45300ec3f2066",
    "show-python-view": "c4b21c516c057607748966dc7b59f514daee66729e4e40a99285eea532ea9b47",
    "rule-aware": "c24033d185031730c86ec08e1a1ac9d597017455acbadb81fd158cf4922a5874",
}

PINNED_NUMERIC = {
    "default-duplicate": "f25bcb9a551dad38fa65217aa1088675920d4ed7d830b01c2eeaaf5d3dc08bff",
    "old-style": "10a1544c4e88298cd1be71dfbd99c3ff3078ff89db1f1d59cebdab44fafbc3ba",
    "settlement-136": "b29e3b532cd3be6db07ba202960250a3047c8fe98ac7580ffb2926e1aacaedd7",
    "python-strategy": "21d759b7f30de2bb5049b1725293dcd6dbb715a6634f9afdd924e5f1997ca635",
    "python-view": "96503cde78bcf0381915042e009dbc313c1a9d021bcec5aea4023e6c7dd2a42f",
    "show-old-style": "6ef5b86822145080fcadbda0e18117150748b7e18757010fd5ff49a68078ccdc",
    "bao": "9ccbec4336605cd5796b6fe4c5b3aea5e9c81ef614bea8837ca25e63f818540b",
    "show-python": "40419298aae0b23c28a00aab7af27f1a38f9a1ecaf16efa44d89df4f2f3aa7f6",
    "show-python-view": "2accbab5b5312827c9762452038b2bd1564fa0518420968b8e2f78d382c29954",
    "rule-aware": "38f20d1361b64aab8cfaaa17b8e8073cf62041554aea5729dcb8f4e18df5511c",
}


def with_recipe(batch: Batch, numeric: bool) -> Batch:
    """`batch` under the default recipe, or with `chance_recipe = "numeric"`."""
    preset, overrides, lineup, games, duplicate = batch
    return (
        preset,
        {**overrides, "chance_recipe": "numeric"} if numeric else overrides,
        lineup,
        games,
        duplicate,
    )


def show(batch: Batch, index: int, seed: int = 11) -> dict[str, pl.DataFrame]:
    """Game `index` of `batch` played again with its events, as `simharness show` plays it."""
    preset, overrides, lineup, _, duplicate = batch
    rules = engine.resolve_rules("hongkong", preset, overrides)
    return engine.show_game("hongkong", rules, lineup, seed=seed, index=index, duplicate=duplicate)


def test_the_batches_seat_every_builtin_strategy() -> None:
    scripts = Path(__file__).parent.parent / "strategies" / "hongkong"
    seated = [knobs for batch in BATCHES.values() for knobs in batch[2]]
    for script in sorted(scripts.glob("*.toml")):
        data = tomlfile.load(script)
        knobs = {"python": data["python"]} if "python" in data else data.get("knobs", {})
        assert knobs in seated, f"{script.name} is in no pinned batch"
    assert VIEW_DIGEST in seated


@pytest.mark.parametrize("numeric", [False, True], ids=["named", "numeric"])
@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_reference_batches_keep_their_tables(batch: str, numeric: bool) -> None:
    tables = play("hongkong", with_recipe(BATCHES[batch], numeric))
    assert all(frame.height > 0 for frame in tables.values())
    assert table_digest(tables) == (PINNED_NUMERIC if numeric else PINNED)[batch]


def test_a_liable_win_keeps_its_tables() -> None:
    rules = engine.resolve_rules("hongkong", "default", BAO_RULES)
    tables = engine.play_batch("hongkong", rules, BAO_LINEUP, seed=99, first_game=982, count=1)
    assert (tables["hands"]["liable"] >= 0).sum() == 1
    assert table_digest(tables) == PINNED_NUMERIC["bao"]


@pytest.mark.parametrize("numeric", [False, True], ids=["named", "numeric"])
@pytest.mark.parametrize("shown", sorted(SHOWN))
def test_shown_games_keep_their_events(shown: str, numeric: bool) -> None:
    batch, index = SHOWN[shown]
    tables = show(with_recipe(BATCHES[batch], numeric), index)
    assert tables["events"].height > 0
    assert table_digest(tables) == (PINNED_NUMERIC if numeric else PINNED)[shown]
