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
NAMES = sorted(p.stem for p in STRATEGIES.glob("*.toml"))
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
}  # fmt: skip

PINNED = {
    "duplicate-4": "645fb9b621657793dd6448c606deb44e3ab09f1793a0a9754028703b2b07c03f",
    "five-players-harsh": "1befdfc7f432913bd12f8ca13587fdf74e0ad9ce4026fb87f8e65fee164a0e86",
    "two-players-plain": "09846cac9fc4b87ff919d944fd42e159ab2c3b945a13126570be717368964e18",
    "three-players-multi-ron": "9c6d4a038f1b7dbcf10f581ecf7387acd535b577e0bb394dfe57295d0a43f5de",
    "every-script-in-turn": "65110bc104be05dbd9f11154376ff62c6d60481c1a59a9bedb243d9dc0970085",
    "every-script-in-turn-2": "5ace76bfe6b7bbb88ac182925dadaf36a10d26a0e091ad05106c7f75d7967eb4",
    "python-witness": "494e5c54ab5a500c949e70edbfee143ebe673a99dd0b63ae98b8e881638c2700",
}

# Games shown alone with their events: (batch, game index).
SHOWN = {"shown-5": ("five-players-harsh", 2), "shown-python": ("python-witness", 1)}
PINNED_SHOWN = {
    "shown-5": "8b805b6bbc8feac9688078b5dfdb210914a8e62040e46ffe81f1f4233c2b91bd",
    "shown-python": "3f2baf96834e84d5ebdb70e3a78d81af6e2df632d6b8c97f17095d2973a2c43f",
}

# What the Python seats were shown, batch by batch.
PINNED_VIEWS = {
    "python-witness": "eac99592550d94f483e1c51cf8e1bb5ceb6f15fd6c1e595ae7cfe71ce4e32fdc",
    "shown-python": "4d787c1c4383c32cfb94bf923dcfb86768af90c8a709c62a733c3fe313ff84f6",
}


def test_every_script_is_seated() -> None:
    assert len(NAMES) == 8 and all(
        script(n) in BATCHES["every-script-in-turn"][2] + BATCHES["every-script-in-turn-2"][2] for n in NAMES
    )


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
