"""Suzume-jong games pinned to the byte (see `pinned.py`). The batches reach the rule paths: duplicate
play, two to five players, every built-in strategy script, red tiles and dora off, head-bump and
multiple ron, mistake injection, negative payments, shown games with their events, and Python-protocol
seats whose every view and legal list is pinned too (the protocol is part of what must not change)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pinned import Batch, play, table_digest

from simharness import engine, tomlfile
from simharness.games.suzume.python import Fastest

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies" / "suzume"


def script(name: str) -> dict[str, Any]:
    """The knob set of built-in strategy script `name` (a Python script: its `python` entry)."""
    data = tomlfile.load(STRATEGIES / f"{name}.toml")
    return {"python": data["python"]} if "python" in data else dict(data.get("knobs", {}))


def scripts(*names: str) -> list[dict[str, Any]]:
    return [script(n) for n in names]


class Witness(Fastest):
    """Decides like `Fastest` but declines some wins (chosen from the view, so the games stay a pure
    function of the seed), and hashes every view and legal list it is shown, key order and types
    included."""

    seen: ClassVar[Any] = hashlib.sha256()

    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> int:
        shown = repr((view, legal)).encode()
        Witness.seen.update(shown)
        if view["point"] != "discard" and hashlib.sha256(shown).digest()[0] % 3 == 0:
            return 1
        return super().decide(view, legal)


WITNESS = {"python": engine.register_class(Witness)}
# The scripts of the two every-script batches, as they were pinned; a later script gets its own batch.
NAMES = [
    "bonus-pusher", "dealer-push", "defensive", "fastest",
    "max-points", "python-fastest", "random", "tsumo-only",
]  # fmt: skip
ALL = [script(n) for n in NAMES]
WITNESSED = [WITNESS, script("fastest"), WITNESS, script("max-points")]

HARSH = {
    "multi_ron": "head_bump",
    "mistake_rate": 0.05,
    "payment_floor": "negative",
    "furiten": False,
    "last_discard_ron": False,
    "ties": "seat_order",
    "starting_points": 12,
}
MULTI_RON = {"multi_ron_order": "highest", "dealer_bonus": 3}
PLAIN = {"red_tiles": False, "dora": False, "first_dealer": "seat0", "tsumo_rounding": "floor", "laps": 2}

# name: (preset, overrides, lineup, games, duplicate)
BATCHES: dict[str, Batch] = {
    "duplicate-4": ("default", {}, scripts("fastest", "max-points", "defensive", "random"), 8, True),
    "five-players-harsh": (
        "default", HARSH, scripts("bonus-pusher", "dealer-push", "tsumo-only", "random", "fastest"), 6, False
    ),
    "two-players-plain": ("beginner", PLAIN, scripts("dealer-push", "tsumo-only"), 10, True),
    "three-players-multi-ron": (
        "no-bonus", MULTI_RON, scripts("bonus-pusher", "max-points", "defensive"), 8, False
    ),
    "every-script-in-turn": ("default", {"laps": 1}, ALL[:4], 4, False),
    "every-script-in-turn-2": ("default", {"laps": 1}, ALL[4:], 4, True),
    "python-witness": ("default", {"mistake_rate": 0.02}, WITNESSED, 3, True),
    "rule-aware": (
        "default", {"min_points": 6}, scripts("rule-aware", "fastest", "max-points", "defensive"), 6, True
    ),
}  # fmt: skip

PINNED = {
    "duplicate-4": "f42162a3a4d37d89fec0de750d8dd38f0323d15667b177a8aa80d0caa28032e6",
    "five-players-harsh": "dae5831b604986f671cedd2b1ab9191c89fee7b7e9b333b21847a0f38fe642fe",
    "two-players-plain": "a7c7b04cbfdd8d334e3b1c2e5c89319b8eaaad4d2930fc52082c92901d0385f6",
    "three-players-multi-ron": "0e6fb08ec7956003a2d49fbda07f528539866fbd399748c5c2610a5e661dec52",
    "every-script-in-turn": "fb1f5b428b3a3f69c989d0bdf3d00c21fd320212d2d8e6cb05f4876be6ff39cc",
    "every-script-in-turn-2": "77eaba33133f8c9e246aa26d49698494c346c24364ce6906ca45ad85c71e88db",
    "python-witness": "a84b5ebf1d8f90001ffbe1220ddbd8d1b475d69ac0efcdacc0ec08c48364007c",
    "rule-aware": "d2d82c036b52ac04ca213ca4237297389e837e894d0b826924c79ab4d4ff5bd6",
}

# Games shown alone with their events: (batch, game index).
SHOWN = {"shown-5": ("five-players-harsh", 2), "shown-python": ("python-witness", 1)}
PINNED_SHOWN = {
    "shown-5": "02944557e2f4559a907e062165fc56084156ed05b7dcb920ec778606679598e2",
    "shown-python": "8365cb2acedec0bbb3f65eb350d0bd6d1506b63cb0ba47897891647dbab51a6a",
}

# What the Python seats were shown, batch by batch.
PINNED_VIEWS = {
    "python-witness": "7a448023ef5c2e948a3d5d3eaf06c515a3f67d6ee48b2b3b2dd66c0f4afe7262",
    "shown-python": "eb2317d28eef3cf91d53b043493c06ddb5712fe04a86c403590eb02c7dfe3079",
}


def test_every_script_is_seated() -> None:
    seated = [knobs for batch in BATCHES.values() for knobs in batch[2]]
    assert all(script(p.stem) in seated for p in STRATEGIES.glob("*.toml"))


@pytest.mark.parametrize("batch", sorted(BATCHES))
def test_reference_batches_keep_their_tables(batch: str) -> None:
    Witness.seen = hashlib.sha256()
    tables = play("suzume", BATCHES[batch])
    assert all(frame.height > 0 for frame in tables.values())
    assert table_digest(tables) == PINNED[batch]
    if batch in PINNED_VIEWS:
        assert Witness.seen.hexdigest() == PINNED_VIEWS[batch]


@pytest.mark.parametrize("name", sorted(SHOWN))
def test_shown_games_keep_their_events(name: str) -> None:
    Witness.seen = hashlib.sha256()
    batch, index = SHOWN[name]
    preset, overrides, lineup, _games, duplicate = BATCHES[batch]
    rules = engine.resolve_rules("suzume", preset, overrides)
    tables = engine.show_game("suzume", rules, lineup, seed=11, index=index, duplicate=duplicate)
    assert tables["events"].height > 0
    assert table_digest(tables) == PINNED_SHOWN[name]
    if name in PINNED_VIEWS:
        assert Witness.seen.hexdigest() == PINNED_VIEWS[name]
