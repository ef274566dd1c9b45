"""Suzume-jong strategies written in Python (simharness/games/suzume/python.py): a Python class that
re-implements the native `fastest` policy plays the same games as the knobs, errors name the slot,
and a script with a Python class runs through `simharness run`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import failing_strategies
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from simharness import config, store
from simharness.cli import app
from simharness.engine import OptionError, play_batch, resolve_knobs, resolve_rules
from simharness.games.suzume.python import Fastest, improving, need

ROOT = Path(__file__).resolve().parent.parent
ME = __name__


class Picky(Fastest):
    min_win_score = 8


class Recorder(Fastest):
    """Decides like Fastest and checks what each decision point shows."""

    points: ClassVar[dict[str, int]] = {}

    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> int:
        point = view["point"]
        Recorder.points[point] = Recorder.points.get(point, 0) + 1
        hand = view["hand"]
        assert len(hand) == 6 and view["tile"] == hand[-1]
        assert len(view["rivers"]) == view["players"] == len(view["points"]) == len(view["streak"])
        lists = ("hand", "rivers", "streak", "red_seen", "points")
        assert all(isinstance(view[k], list) for k in lists) and isinstance(view["tile"], int)
        held = hand[:-1] if point == "ron" else hand  # the ronned tile is in its river too
        tiles = held + [t for r in view["rivers"] for t in r]
        assert len(set(tiles)) == len(tiles), "a tile is in one place"
        _check_after(view, legal)
        if point == "discard":
            assert legal == [("discard", t) for t in hand] and "win" not in view
        else:
            assert legal == [(point,), ("pass",)] and view["win"]["score"] >= 5
        if point == "ron":
            assert view["from"] != view["seat"] and view["rivers"][view["from"]][-1] == view["tile"]
        return super().decide(view, legal)


def _check_after(view: Mapping[str, Any], legal: list[tuple[Any, ...]]) -> None:
    """`need_after`, `ukeire_after` and `safe` as the module's helpers compute them from `hand`,
    `rivers` and `dora`: the keys tell the seat nothing its view does not."""
    keys = ("need_after", "ukeire_after", "safe")
    after = [view[k] for k in keys]
    assert all(isinstance(b, bytes) and len(b) == len(legal) for b in after)
    if view["point"] != "discard":
        assert all(set(b) == {255} for b in after)
        return
    held = [0] * 11
    for t in view["hand"]:
        held[t // 4] += 1
    seen = [0] * 11
    for river in view["rivers"]:
        for t in river:
            seen[t // 4] += 1
    if view["dora"] is not None:
        seen[view["dora"]] += 1
    unseen = [max(0, 4 - s - h) for s, h in zip(seen, held, strict=True)]
    others = [{t // 4 for t in r} for p, r in enumerate(view["rivers"]) if p != view["seat"]]
    for (_, tile), n, u, s in zip(legal, *after, strict=True):
        rest = list(held)
        rest[tile // 4] -= 1
        assert n == need(tuple(rest))
        assert u == sum(unseen[k] for k in improving(tuple(rest)))
        assert s == sum(tile // 4 in r for r in others)


def test_distance_helpers_match_hand_worked_examples() -> None:
    def counts(kinds: str) -> tuple[int, ...]:
        c = [0] * 11
        for k in kinds:
            c[int(k, 16)] += 1
        return tuple(c)

    # 1 2 3 5 5 (kinds 0,1,2,4,4) waits only on a third 5; 2 3 4 6 7 waits on 5 or 8.
    assert need(counts("01244")) == 1 and improving(counts("01244")) == {4}
    assert need(counts("12356")) == 1 and improving(counts("12356")) == {4, 7}
    assert need(counts("0369A")) == 4  # 1 4 7 發 中: far from anything


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("duplicate", [False, True])
def test_python_fastest_plays_the_native_games(players: int, duplicate: bool) -> None:
    """The differential test: Python slots deciding like the native fastest knobs give identical
    tables on the same seed, next to other native strategies."""
    rules = resolve_rules("suzume", "beginner" if players == 3 else "default")
    fastest = resolve_knobs("suzume", {})
    others = [
        resolve_knobs("suzume", k) for k in ({"fold": True}, {"discard": "max_points"}, {"ron": False}, {})
    ]
    native = [fastest, *others[: players - 1]]
    python = [dict(fastest, python=f"{ME}:Fastest"), *native[1:]]
    if players == 4:
        python[2] = dict(native[2], python=f"{ME}:Fastest")
        native[2] = fastest
    kw: dict[str, Any] = {"seed": 11, "first_game": 3, "count": players * 3, "duplicate": duplicate}
    a, b = play_batch("suzume", rules, native, **kw), play_batch("suzume", rules, python, **kw)
    assert a.keys() == b.keys() == {"games", "players", "hands"}
    for name in a:
        assert_frame_equal(a[name], b[name])


def test_python_win_decisions_mirror_min_win_score() -> None:
    picky = resolve_knobs("suzume", {"min_win_score": 8})
    fastest = resolve_knobs("suzume", {})
    kw: dict[str, Any] = {"seed": 2, "first_game": 0, "count": 8}
    native = play_batch("suzume", {}, [picky, fastest, picky, fastest], **kw)
    python = play_batch("suzume", {}, [dict(fastest, python=f"{ME}:Picky"), fastest, picky, fastest], **kw)
    for name in native:
        assert_frame_equal(native[name], python[name])
    declined = play_batch("suzume", {}, [fastest] * 4, **kw)
    assert not declined["hands"].equals(native["hands"]), "the threshold changes the games"


def test_every_decision_point_is_asked_with_its_view() -> None:
    fastest = resolve_knobs("suzume", {})
    Recorder.points = {}
    lineup = [dict(fastest, python=f"{ME}:Recorder")] * 4
    out = play_batch("suzume", {}, lineup, seed=9, first_game=0, count=6)
    assert out["players"]["final_points"].sum() == 6 * 4 * 40, "points are conserved"
    hands = out["hands"].filter(claim=0)
    wins_by_tsumo = (hands["outcome"] == 1).sum()
    assert Recorder.points["tsumo"] >= wins_by_tsumo > 0
    assert (
        Recorder.points["ron"] > 0
        and Recorder.points["discard"] == out["games"]["turns"].sum() - wins_by_tsumo
    )


@pytest.mark.parametrize(("cls", "error", "message"), failing_strategies.CASES)
def test_strategy_errors_name_the_slot(cls: str, error: type[Exception], message: str) -> None:
    fastest = resolve_knobs("suzume", {})
    lineup = [fastest, dict(fastest, python=f"{failing_strategies.MODULE}:{cls}"), fastest]
    where = r"lineup slot 1 \(seat \d\) at (discard|tsumo|ron): "
    with pytest.raises(error, match=f"{where}.*{message}") as failed:
        play_batch("suzume", {}, lineup, seed=1, first_game=0, count=2)
    assert failed.value.__cause__ is not None, "the strategy's own exception is kept as the cause"
    with pytest.raises(OptionError) as e:
        play_batch(
            "suzume", {}, [fastest, dict(fastest, python="nowhere:Nothing")], seed=1, first_game=0, count=1
        )
    assert e.value.field == "lineup[1].python"


def test_a_python_script_runs_through_simharness_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    cfg = tmp_path / "py.toml"
    cfg.write_text(
        'name = "py"\ngame = "suzume"\ngames = 6\nshard_size = 3\nseed = 4\nduplicate = true\n'
        'players = ["python-fastest", "fastest", "max-points"]\n[rules]\npreset = "default"\n'
    )
    out = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path / "out"), "--quiet"])
    assert out.exit_code == 0, out.output
    run = store.open_run(tmp_path / "out" / "py")
    assert run.manifest.lineup[0].knobs["python"] == "simharness.games.suzume.python:Fastest"
    # The same games as the native fastest knobs in that seat.
    native = [{k: v for k, v in s.knobs.items() if k != "python"} for s in config.load(cfg).lineup]
    whole = play_batch("suzume", {}, native, seed=4, first_game=0, count=6, duplicate=True)
    assert run.table("hands").drop("variant").equals(whole["hands"])
