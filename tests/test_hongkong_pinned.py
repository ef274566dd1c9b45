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
    "default-duplicate": "cbd4092d3cdc43872071d14630936cde45021d9a118e933bd12dd0d7c8989b51",
    "old-style": "180dee549899e9722c9d46df504abccb8c8cb91b43ab39a2c00ee19fa8278cc5",
    "settlement-136": "e6f4b930ab5e4002c7543c38a524026abd69282d3394074da67968a6125a1f15",
    "python-strategy": "8249067a9a5ec6c619c22e98f642de30c5a5b118e533b70a6ea0844e85319418",
    "python-view": "0b45d2e981f5082da5dae6adbe0e58ee4773d316b6dda321fbdde6fe7ac444eb",
    "show-old-style": "e04dea9b24dd0ac3644d97a3213f0d7e6e71270b235d9161d08a1406ff36352c",
    "show-python": "37830d0232dba122910dd24749b726d15c80988d1af1a0431739b0e1488bcb51",
    "show-python-view": "4e112c19eab838abd29619ae90af87f66f889ec478b916643a6db653924fdb53",
}

PINNED_NUMERIC = {
    "default-duplicate": "713696a557b21321fba73336f001391ab054a431754958bbac127dcabd846242",
    "old-style": "cdc862bdbe7b6205b82b7a097ef1974fa564761d36ca6372e04fc2ed4acaafa6",
    "settlement-136": "8ca6091e8a3235f31cba2080fc4b4c1fbdae3a524cd6537702c269a66dbea738",
    "python-strategy": "fad0131852fc59122bf705338f15e38ed0e122fe5041f45416b26397e95a9a4a",
    "python-view": "aa38543954a76385adbd76174cc9560a988f36819deb9c9df849cc8ac31b006f",
    "show-old-style": "8466ceef088a490387cc78eac4d281e37914e0dd94b4517aab862853d3759d9f",
    "bao": "5816bf0d7f05c0126f2e9c753af922f23dde5b4be56b4aa92e13a7ca4e24bd08",
    "show-python": "1d77bdca30a4d3150c44166acce1dbb0d1283ef8eea468dcee48bce761934e76",
    "show-python-view": "498079d588291534058a2466e9e945799e961d1c44f8ecc8fa1e62b9df3b2086",
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
