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
    "duplicate-4": "d934ae36c93c69210e980b2004b5af72911203b6a24fd44ece3042145f2099b1",
    "five-players-harsh": "527674084c928a19f5ec90fb71c6f3dce4db5b145a143931bd0e41ebd77bf185",
    "two-players-plain": "b5476a4d432f70eff59c0bf478267ff096a23a3c6bf351803409c5f8db8ef092",
    "three-players-multi-ron": "fb9d82a505f2c46dd57924dd56ecc6b89e061b48740ca3ec62b2480921e1ed83",
    "every-script-in-turn": "3a74bae24ea7709ec9cb04ba540cd2c84e86e83464d048be63d1cec18b03aa94",
    "every-script-in-turn-2": "90b27285463749cd551768bb9c858b03a9e8ec6a3340e00cfcd302c523d5a82d",
    "python-witness": "b053ed1c9e335734a101598c2905304f4b7d5902903789579f42c0c278e65b1e",
    "rule-aware": "5363fdfc4c4c6db5e38f915dc05717f1129778024cd4bd0d9ed6cbbe5c578523",
}

# Games shown alone with their events: (batch, game index).
SHOWN = {"shown-5": ("five-players-harsh", 2), "shown-python": ("python-witness", 1)}
PINNED_SHOWN = {
    "shown-5": "1ac06b769a8aeccf4285c0da063c55f63d07e85adc1d6daa62d21f74e905b0e8",
    "shown-python": "4e6ac0d224dee27d7d98cb72d781300aa8c123e4f9126a41f2b190989fdce303",
}

# What the Python seats were shown, batch by batch.
PINNED_VIEWS = {
    "python-witness": "eac99592550d94f483e1c51cf8e1bb5ceb6f15fd6c1e595ae7cfe71ce4e32fdc",
    "shown-python": "4d787c1c4383c32cfb94bf923dcfb86768af90c8a709c62a733c3fe313ff84f6",
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
