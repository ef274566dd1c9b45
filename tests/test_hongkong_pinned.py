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
    "default-duplicate": "e78cc4878b47d0596bae3629204c10ca11072d510575ba6e2c87094b2fbb555d",
    "old-style": "282d026d5047710b72985a5b86f1b3436aa534673e8f58980cfc571958a4a355",
    "settlement-136": "7fbec63ce4eac53c5eb1c01fb1922088f0f55f066c4e5a3922a3d5be2fc0a12a",
    "python-strategy": "45256b11cba5861d40106a9dd412cbafdcb3b1180c99643182a2668fbb2d329c",
    "python-view": "6be550dd7a2df66d3b05f240153b53004e83922fa7307b1697ba119f8522edfb",
    "rule-aware": "2e9a3a908ff1a343048c4518db9a1e126e7617ea4382b6b668a31184b51ea8ac",
    "show-old-style": "8d6af3da4debb3e0ec28b7d5edb335a3bbfa0c59d0cc353a037ad6009d1df570",
    "show-python": "70cd4dc959ea0dfb0902e5c0c5056ee7dea4f5d041cca5f0bbc5e8852d7cc9d4",
    "show-python-view": "7bae50bd30fa665e2be91624d3f51ccc75e047d457fcb7b16faf2e200af04aba",
}

PINNED_NUMERIC = {
    "default-duplicate": "4e63c064f3f7565d2a5e2457a051183875db76967b59d39a63fc4199790f2039",
    "old-style": "f60925253591c64dbfb12803703a4b1a66e9198dae42219cb6204984e8332291",
    "settlement-136": "85fe0afa5109d8b8edb76ddf8a8bb48ae4d6a31efd629abf2f28f2e445791fde",
    "python-strategy": "8dd7f5dfe05ee90d9d7a8777c5e0e7c533ec481dc30d46ed16867cda8b4fded9",
    "python-view": "f01eb721cc14780e45dcf00e3ea66fee8108eef889cca9fbdeef82f3490c3736",
    "rule-aware": "a6b76c943ae2b3b1d873b45f176043cb3db8ffa273512a995236b2430ada290c",
    "show-old-style": "a4871e57025b8c73c2af23ec55b250caa94e30aa6e706efeef6ff2a6a41ad11f",
    "bao": "eb9458663c2bc51fb23535af97b2abb7c8d91c335aaee748c6f1817b5f54dde3",
    "show-python": "3e0932b1fac660bff09b6f18bfa7f46bc3997de85a609573d2964681263e6464",
    "show-python-view": "612732782eb781837b88887d131ea3d3daced09914260a3a0d11704e43fdf8e5",
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
