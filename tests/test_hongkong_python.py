"""Hong Kong strategies written in Python (simharness/games/hongkong/python.py): a Python class that
re-implements the native chicken-fast policy plays the same games as the knobs, every decision
point shows a consistent view, errors name the slot, and a script with a Python class runs through
`simharness run`."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import failing_strategies
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from simharness import config, store
from simharness.cli import app
from simharness.engine import OptionError, play_batch, resolve_knobs
from simharness.games.hongkong.metrics import OUTCOME
from simharness.games.hongkong.python import ChickenFast, best_after_discard, counts, shanten

ROOT = Path(__file__).resolve().parent.parent
ME = __name__
KNOBS = [
    {},
    {"claims": "pung_only", "discard": "pungs"},
    {"defend": True, "min_win_fan": 1},
    {"discard": "random", "claims": "random"},
]


class MinFan3(ChickenFast):
    min_win_fan = 3


class Recorder(ChickenFast):
    """Decides like ChickenFast and checks what each decision point shows."""

    points: ClassVar[Counter[str]] = Counter()

    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> int:
        point, seat, hand = view["point"], view["seat"], view["hand"]
        Recorder.points[point] += 1
        own = view["melds"][seat]
        own_turn = point in ("tsumo", "kong", "discard")
        assert (view["from"] == seat) == own_turn
        assert len(hand) + 3 * len(own) == (14 if own_turn else 13), (point, hand, own)
        assert hand == sorted(hand) and all(0 <= k < 34 for k in hand)
        seen = counts(hand)
        for k, n in enumerate(view["visible"]):
            assert seen[k] + n <= 4, f"kind {k} more than four times"
        assert view["seat_wind"] == (seat - view["dealer"]) % 4
        assert len(view["points"]) == len(view["rivers"]) == len(view["flowers"]) == 4
        assert ("win" in view) == (point in ("tsumo", "ron"))
        _check_after(view, legal, seen)
        if point in ("tsumo", "ron"):
            assert legal == [(point,), ("pass",)]
            assert view["win"]["fan"] >= view["win"]["counted_fan"] >= 0
        elif point == "discard":
            assert legal == [("discard", k) for k in sorted(set(hand))]
        else:
            assert legal[-1] == ("pass",) and len(legal) >= 2
        if point == "claim":
            assert view["rivers"][view["from"]][-1] == view["tile"]
            assert all(a[0] != "chow" or view["from"] == (seat - 1) % 4 for a in legal), (
                "chow from the left only"
            )
        return super().decide(view, legal)


def _minus(c: list[int], *kinds: int) -> list[int]:
    out = list(c)
    for k in kinds:
        out[k] -= 1
    return out


def _check_after(view: dict[str, Any], legal: list[tuple[Any, ...]], c: list[int]) -> None:
    """`shanten_after` and `ukeire_after` as the module's helpers compute them from `hand`,
    `tile` and `visible`: the keys tell the seat nothing its view does not."""
    after, ukeire = view["shanten_after"], view["ukeire_after"]
    assert isinstance(after, bytes) and len(after) == len(ukeire) == len(legal)
    point, tile = view["point"], view["tile"]
    for a, s, u in zip(legal, after, ukeire, strict=True):
        if point == "discard":
            rest = _minus(c, a[1])
            assert s == shanten([rest])[0]
            draws = [j for j in range(34) if rest[j] < 4]
            drawn = shanten([[n + (k == j) for k, n in enumerate(rest)] for j in draws])
            better = [j for j, d in zip(draws, drawn, strict=True) if d < s]
            assert u == sum(max(0, 4 - rest[j] - view["visible"][j]) for j in better)
            continue
        assert u == 255
        if point in ("tsumo", "ron"):
            assert s == 255
        elif a == ("pass",):
            assert s == (shanten([c])[0] if point == "claim" else best_after_discard(c))
        elif point == "kong":
            assert s == shanten([_minus(c, *[a[1]] * c[a[1]])])[0]
        else:
            h = [n + (k == tile) for k, n in enumerate(c)]
            if a[0] == "kong":
                assert s == shanten([_minus(h, tile, tile, tile, tile)])[0]
            else:
                used = (tile, tile, tile) if a[0] == "pung" else (a[1], a[1] + 1, a[1] + 2)
                assert s == best_after_discard(_minus(h, *used))


def test_shanten_helpers_match_hand_worked_examples() -> None:
    # 123m 456p 789s 11z 23m: ready (waits 1m/4m); 14 tiles complete with 4m.
    ready = counts([0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 1, 2])
    assert shanten([ready]) == [0]
    # The same with 9m drawn: ready again after discarding it; with 4m: complete.
    assert best_after_discard(counts([0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 1, 2, 8])) == 0
    assert shanten([counts([0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 1, 2, 3])]) == [-1]
    # Thirteen orphans one away, and seven pairs ready.
    orphans = counts([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 32])
    assert shanten([orphans]) == [0]
    assert shanten([counts([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6])]) == [0]


@pytest.mark.parametrize("duplicate", [False, True])
def test_python_chicken_fast_plays_the_native_games(duplicate: bool) -> None:
    """The differential test: Python slots deciding like the native chicken-fast knobs give
    identical tables on the same seed, next to other native strategies."""
    native = [resolve_knobs("hongkong", k) for k in KNOBS]
    python = [dict(native[0], python=f"{ME}:ChickenFast"), native[1], native[2], native[3]]
    kw: dict[str, Any] = {"seed": 11, "first_game": 2, "count": 4, "duplicate": duplicate}
    a, b = play_batch("hongkong", {}, native, **kw), play_batch("hongkong", {}, python, **kw)
    assert a.keys() == b.keys() == {"games", "players", "hands"}
    for name in a:
        assert_frame_equal(a[name], b[name])


def test_python_win_decisions_mirror_min_win_fan() -> None:
    """MinFan3 declines what the knob min_win_fan = 3 declines, under a table where that matters."""
    rules = {"min_fan": 0, "mistake_rate": 0.0}
    fast = resolve_knobs("hongkong", {})
    picky = resolve_knobs("hongkong", {"min_win_fan": 3})
    kw: dict[str, Any] = {"seed": 5, "first_game": 0, "count": 3}
    native = play_batch("hongkong", rules, [picky, fast, fast, picky], **kw)
    python = play_batch("hongkong", rules, [dict(fast, python=f"{ME}:MinFan3"), fast, fast, picky], **kw)
    for name in native:
        assert_frame_equal(native[name], python[name])
    declined = play_batch("hongkong", rules, [fast] * 4, **kw)
    assert not declined["hands"].equals(native["hands"]), "the threshold changes the games"


def test_every_decision_point_is_asked_with_its_view() -> None:
    fast = resolve_knobs("hongkong", {})
    Recorder.points = Counter()
    lineup = [dict(fast, python=f"{ME}:Recorder")] * 4
    out = play_batch("hongkong", {"multi_win": "all"}, lineup, seed=9, first_game=0, count=3)
    assert out["players"]["final_points"].sum() == 0, "points are conserved"
    assert set(Recorder.points) == {"tsumo", "ron", "claim", "kong", "discard"}, Recorder.points
    wins = out["hands"].filter(claim=0)
    assert Recorder.points["tsumo"] >= (wins["outcome"] == OUTCOME["self_draw"]).sum() > 0
    assert Recorder.points["ron"] >= (wins["outcome"] == OUTCOME["discard_win"]).sum() > 0


@pytest.mark.parametrize(("cls", "error", "message"), failing_strategies.CASES)
def test_strategy_errors_name_the_slot(cls: str, error: type[Exception], message: str) -> None:
    fast = resolve_knobs("hongkong", {})
    lineup = [fast, dict(fast, python=f"{failing_strategies.MODULE}:{cls}"), fast, fast]
    where = r"lineup slot 1 \(seat \d\) at (discard|tsumo|ron|claim|kong): "
    with pytest.raises(error, match=f"{where}.*{message}") as failed:
        play_batch("hongkong", {}, lineup, seed=1, first_game=0, count=2)
    assert failed.value.__cause__ is not None, "the strategy's own exception is kept as the cause"
    with pytest.raises(OptionError) as e:
        play_batch(
            "hongkong",
            {},
            [fast, dict(fast, python="nowhere:Nothing"), fast, fast],
            seed=1,
            first_game=0,
            count=1,
        )
    assert e.value.field == "lineup[1].python"


def test_a_python_script_runs_through_simharness_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    cfg = tmp_path / "py.toml"
    cfg.write_text(
        'name = "py"\ngame = "hongkong"\ngames = 8\nshard_size = 4\nseed = 4\nduplicate = true\n'
        'players = ["python-chicken-fast", "chicken-fast", "pung-hunter", "defensive"]\n'
        '[rules]\npreset = "default"\n'
    )
    out = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path / "out"), "--quiet"])
    assert out.exit_code == 0, out.output
    run = store.open_run(tmp_path / "out" / "py")
    assert run.manifest.lineup[0].knobs["python"] == "simharness.games.hongkong.python:ChickenFast"
    # The same games as the native chicken-fast knobs in that slot.
    native = [{k: v for k, v in s.knobs.items() if k != "python"} for s in config.load(cfg).lineup]
    whole = play_batch("hongkong", {}, native, seed=4, first_game=0, count=8, duplicate=True)
    assert run.table("hands").drop("variant").equals(whole["hands"])
