"""Python-protocol sugoroku strategies: a Python mirror of native knobs plays the same games, the
view shows the table as it is, failures name the slot, and a script with `python` runs end to end."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import polars as pl
import pytest
import tomllib
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from simharness import _engine, engine, store
from simharness.cli import app
from simharness.games.sugoroku.python import Leader

REPO = Path(__file__).resolve().parent.parent
STRATEGIES = REPO / "strategies" / "sugoroku"
ME = __name__
WINDS = range(27, 31)


def _knobs(name: str) -> dict[str, Any]:
    return engine.resolve_knobs("sugoroku", tomllib.loads((STRATEGIES / f"{name}.toml").read_text())["knobs"])


def _check_view(view: dict[str, Any]) -> None:
    """What the view must show at any decision, whoever asks."""
    n, goal, seat = len(view["positions"]), view["goal"], view["seat"]
    assert all(len(view[k]) == n for k in ("points", "rests", "multipliers"))
    assert all(0 <= p < goal for p in view["positions"])  # nobody has won while a decision is open
    assert sum(view["points"]) == 0  # every in-game payment is a transfer
    course = view["course"]
    assert len(course) == goal + 1 and course[0] is None and course[goal] is None
    # The course's face-down squares hold exactly the unseen tiles.
    assert sum(view["unseen"]) == sum(t is None for t in course[1:goal])
    assert sum(view["dora"]) == view["rules"]["dora_count"]
    pos = view["positions"][seat]
    decision = view["decision"]
    if decision in ("pinzoro_offset", "sixzoro_offset"):
        assert course[pos] in WINDS and view["rests"][seat] > 0
    elif decision == "pinzoro_reroll":
        assert pos > 0
    elif decision == "agree_end":
        assert view["roll"] == 0 and all(
            goal - p <= view["rules"]["agreement_distance"] for p in view["positions"]
        )
    else:
        assert decision == "extra_roll"


class _Fixed:
    """Answers each decision as a fixed knob set would, and records what it was asked."""

    answers: ClassVar[dict[str, bool]]
    asked: ClassVar[Counter[str]]

    def decide(self, view: dict[str, Any]) -> bool:
        _check_view(view)
        type(self).asked[view["decision"]] += 1
        return self.answers[view["decision"]]


def _fixed(knobs: dict[str, Any]) -> dict[str, bool]:
    def take(choice: str) -> bool:
        assert choice in ("always", "never"), "only deterministic knobs can be mirrored without their keys"
        return choice == "always"

    return {
        "pinzoro_reroll": take(knobs["pinzoro_reroll"]),
        "extra_roll": take(knobs["sixzoro_reroll"]),
        "pinzoro_offset": take(knobs["offset"]),
        "sixzoro_offset": take(knobs["offset"]),
        "agree_end": take(knobs["agree_end"]),
    }


class _AlwaysOffset(_Fixed):
    answers = _fixed(_knobs("always-offset"))
    asked: ClassVar[Counter[str]] = Counter()


class _NoBackRoll(_Fixed):
    answers = _fixed(_knobs("no-back-roll"))
    asked: ClassVar[Counter[str]] = Counter()


class _Agreeable(_Fixed):
    answers = _fixed(_knobs("agreeable"))
    asked: ClassVar[Counter[str]] = Counter()


MIRRORS = {"always-offset": "_AlwaysOffset", "no-back-roll": "_NoBackRoll", "agreeable": "_Agreeable"}


def _play(
    rules: dict[str, Any], lineup: list[dict[str, Any]], *, duplicate: bool, count: int = 120
) -> dict[str, pl.DataFrame]:
    return engine.play_batch(
        "sugoroku", rules, lineup, seed=91, first_game=7, count=count, duplicate=duplicate
    )


@pytest.mark.parametrize("preset", ["default", "addendum"])
@pytest.mark.parametrize("duplicate", [False, True])
def test_python_mirror_of_knobs_plays_the_same_games(preset: str, duplicate: bool) -> None:
    rules = engine.resolve_rules("sugoroku", preset)
    names = ["always-offset", "greedy", "no-back-roll", "agreeable"]
    native = [_knobs(x) for x in names]
    mirrored = [
        dict(k, python=f"{ME}:{MIRRORS[x]}") if x in MIRRORS else k
        for x, k in zip(names, native, strict=True)
    ]
    for cls in (_AlwaysOffset, _NoBackRoll, _Agreeable):
        cls.asked.clear()
    want = _play(rules, native, duplicate=duplicate)
    got = _play(rules, mirrored, duplicate=duplicate)
    for table in ("games", "players"):
        assert_frame_equal(got[table], want[table])
    # Every decision point reached Python, and answers mattered: the games agreed to end early,
    # back re-rolls were declined and rests offset exactly as the mirrored knobs do.
    asked = _AlwaysOffset.asked + _NoBackRoll.asked + _Agreeable.asked
    assert set(asked) == {"pinzoro_reroll", "extra_roll", "pinzoro_offset", "sixzoro_offset", "agree_end"}
    assert (want["games"]["early_end"] == 2).sum() == 0  # greedy and others never all agree here
    players = want["players"]
    no_back = players.filter(pl.col("player") == 2)
    assert no_back["back_rerolls"].sum() == 0 and no_back["pinzoro"].sum() > 0
    assert players.filter(pl.col("player") == 0)["offsets"].sum() > 0


def test_python_answers_replace_the_slots_knobs() -> None:
    """A mirror seated where other knobs sit plays the mirrored knobs, not the seat's."""
    rules = engine.resolve_rules("sugoroku", "default")
    naive, no_back = _knobs("naive"), _knobs("no-back-roll")
    got = _play(rules, [naive, dict(naive, python=f"{ME}:_NoBackRoll"), naive], duplicate=True)
    want = _play(rules, [naive, no_back, naive], duplicate=True)
    assert_frame_equal(got["players"], want["players"])
    assert not _play(rules, [naive, naive, naive], duplicate=True)["players"].equals(want["players"])


def test_all_python_table_agrees_to_end() -> None:
    rules = engine.resolve_rules("sugoroku", "default", {"agreement_distance": 60})
    agree = dict(_knobs("agreeable"), python=f"{ME}:_Agreeable")
    got = _play(rules, [agree, agree], duplicate=False, count=60)
    want = _play(rules, [_knobs("agreeable")] * 2, duplicate=False, count=60)
    assert_frame_equal(got["games"], want["games"])
    assert (got["games"]["early_end"] == 2).sum() > 0


class _Raises:
    def decide(self, view: dict[str, Any]) -> bool:
        raise KeyError("no_such_key")


class _ReturnsInt:
    def decide(self, view: dict[str, Any]) -> bool:
        return 1  # type: ignore[return-value]


def test_failing_strategy_names_game_and_slot() -> None:
    rules = engine.resolve_rules("sugoroku", "default")
    naive = _knobs("naive")
    with pytest.raises(
        KeyError,
        match=r"game \d+: Python strategy of lineup slot 1 \(seat \d\) at \w+: KeyError: 'no_such_key'",
    ) as e:
        _play(rules, [naive, dict(naive, python=f"{ME}:_Raises"), naive], duplicate=False)
    assert isinstance(e.value.__cause__, KeyError)
    with pytest.raises(
        TypeError, match=r"lineup slot 2 .*decide\(\) returned 1 at \w+; expected True or False"
    ):
        _play(rules, [naive, naive, dict(naive, python=f"{ME}:_ReturnsInt")], duplicate=False)
    with pytest.raises(ValueError) as v:
        _engine.play_batch_python("sugoroku", "{}", "[{}, {}]", [None], 1, 0, 1, False)
    assert v.value.args[0] == "strategies"
    with pytest.raises(ValueError) as v:
        _engine.play_batch_python("sugoroku", "{}", "[{}]", [None], 1, 0, 1, False)
    assert v.value.args[0] == "players"


def test_example_strategy_runs_through_a_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    assert engine.game_info("sugoroku").python_strategies
    cfg = tmp_path / "py.toml"
    cfg.write_text(
        'name = "py"\ngame = "sugoroku"\ngames = 40\nseed = 3\nshard_size = 8\nduplicate = true\n'
        'players = ["python-leader", "naive", "greedy", "random"]\n'
        '\n[rules]\npreset = "default"\n\n[variants.base]\n'
    )
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 0, result.output
    run = store.open_run(tmp_path / "out" / "py")
    assert run.manifest.lineup[0].knobs["python"] == "simharness.games.sugoroku.python:Leader"
    players = run.table("players")
    assert players.height == 160
    assert (players.group_by("game").agg(pl.col("final_points").sum())["final_points"] == 0).all()
    assert Leader().decide({"decision": "pinzoro_reroll", "seat": 0, "positions": [5, 9]}) is False


def test_a_failing_strategy_is_told_in_its_own_frames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "boom_strategy.py").write_text(
        "class Boom:\n"
        "    def decide(self, view):\n"
        "        return self.helper(view)\n"
        "\n"
        "    def helper(self, view):\n"
        "        raise ZeroDivisionError('oops')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    folder = tmp_path / "strategies" / "sugoroku"
    folder.mkdir(parents=True)
    (folder / "boom.toml").write_text('name = "boom"\ngame = "sugoroku"\npython = "boom_strategy:Boom"\n')
    cfg = tmp_path / "boom.toml"
    cfg.write_text('name = "boom"\ngame = "sugoroku"\ngames = 20\nseed = 1\nplayers = ["boom", "boom"]\n')
    args = ["run", str(cfg), "--out", str(tmp_path / "out"), "-q", "--jobs", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: game 0: Python strategy of lineup slot 0 (seat 0) at ")
    assert lines[0].endswith(": ZeroDivisionError: oops")
    frames = [line for line in lines if line.startswith("  File ")]
    assert frames == [
        f'  File "{tmp_path / "boom_strategy.py"}", line 3, in decide',
        f'  File "{tmp_path / "boom_strategy.py"}", line 6, in helper',
    ]
    assert lines[-1] == "(the whole traceback: run again with --debug)" and len(lines) < 15
    debug = CliRunner().invoke(app, [*args, "--debug"])
    assert isinstance(debug.exception, ZeroDivisionError)
