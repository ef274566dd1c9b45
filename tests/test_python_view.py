"""A Python strategy's view is built as it is read (#27): a read-only mapping with the dict's keys,
order, values and repr, whose parts are converted on first access, and one a strategy keeps past
`decide` stays whole and readable."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import pytest

from simharness import engine


class Keeper:
    """Reads the view every way a mapping is read, keeps it, and notes what it held at the time."""

    kept: ClassVar[list[tuple[Any, dict[str, Any], str]]] = []

    def decide(self, view: Any, legal: list[tuple[Any, ...]]) -> int:
        assert isinstance(view, Mapping) and not isinstance(view, dict)
        keys = list(view)
        assert keys == list(view.keys()) and len(view) == len(keys) and "hand" in view
        assert [view[k] for k in keys] == list(view.values()) == [v for _, v in view.items()]
        assert view.get("no such key") is None and view.get("no such key", 7) == 7
        with pytest.raises(KeyError):
            view["no such key"]
        copy = view.copy()
        assert type(copy) is dict and list(copy) == keys and view == copy
        Keeper.kept.append((view, copy, repr(view)))
        return 0


class PointOnly:
    """Reads one key and keeps the view: the rest is built as decide returns."""

    kept: ClassVar[list[Any]] = []

    def decide(self, view: Any, legal: list[tuple[Any, ...]]) -> int:
        PointOnly.kept.append(view)
        return 1 if view["point"] == "joker" else 0


def _play(python: str) -> None:
    rules = engine.resolve_rules("trump", "default", {})
    knobs = engine.resolve_knobs("trump", {})
    lineup = [{**knobs, "python": f"{__name__}:{python}"}, knobs, knobs]
    engine.play_columns("trump", rules, lineup, seed=3, first_game=0, count=3)


def test_a_view_reads_as_the_dict_it_replaces() -> None:
    Keeper.kept.clear()
    _play("Keeper")
    assert Keeper.kept
    for view, copy, shown in Keeper.kept:
        assert shown == repr(copy)
        # Read after its decide returned: the same items.
        assert dict(view.items()) == copy and repr(view) == shown


def test_a_kept_view_is_completed_as_decide_returns() -> None:
    PointOnly.kept.clear()
    _play("PointOnly")
    assert len(PointOnly.kept) > 10
    for view in PointOnly.kept:
        whole = view.copy()
        assert list(whole)[:2] == ["point", "seat"] and whole["card"] == whole["hand"][-1]
        assert ("win" in whole) == (whole["point"] in ("tsumo", "ron"))
