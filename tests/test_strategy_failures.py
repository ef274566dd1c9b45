"""A Python strategy that fails is told the same way in all five games: where (the game index, lineup
slot, seat and decision point; for ``__init__`` the game, slot and strategy), then the strategy's own
exception and frames, exit status 2 from the CLI; and a stopped run's cancel flag and interrupt reach
a strategy's batch, even one stuck in ``decide``."""

from __future__ import annotations

import re
import threading
import traceback
from pathlib import Path
from typing import Any

import failing_strategies
import pytest
from harness_helpers import in_repo  # noqa: F401 (a fixture)
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from simharness import _engine, engine
from simharness.cli import app

# Each game's lineup size for these tests, a native strategy script of it, and its decision points.
GAMES = {
    "riichi": (4, "efficiency", {"turn", "response"}),
    "hongkong": (4, "chicken-fast", {"tsumo", "ron", "claim", "kong", "discard"}),
    "trump": (3, "always-riichi", {"joker", "tsumo", "discard", "ron"}),
    "suzume": (3, "fastest", {"tsumo", "discard", "ron"}),
    "sugoroku": (
        3,
        "naive",
        {"pinzoro_reroll", "extra_roll", "pinzoro_offset", "sixzoro_offset", "agree_end"},
    ),
}
STRATEGY_FILE = Path(failing_strategies.__file__)


def _lineup(game: str, cls: str, slot: int = 1) -> list[dict[str, Any]]:
    """Default knobs in every slot, the class ``cls`` of failing_strategies in ``slot``."""
    knobs = engine.resolve_knobs(game, {})
    lineup = [dict(knobs) for _ in range(GAMES[game][0])]
    lineup[slot]["python"] = f"{failing_strategies.MODULE}:{cls}"
    return lineup


def _play(game: str, lineup: list[dict[str, Any]], first: int, count: int, **kw: Any) -> Any:
    return engine.play_batch(
        game, engine.resolve_rules(game), lineup, seed=5, first_game=first, count=count, **kw
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_failing_decide_names_its_game_slot_seat_and_point(game: str) -> None:
    lineup = _lineup(game, "Raises")
    # The first game from 7 on in which slot 1 is asked anything, found by playing one game at a time.
    first = next(g for g in range(7, 200) if _raises(lambda g=g: _play(game, lineup, g, 1)))
    with pytest.raises(KeyError) as failed:
        _play(game, lineup, 7, first - 7 + 3)
    message = failed.value.args[0]
    # Without duplicate play, lineup slot 1 sits in seat 1.
    m = re.fullmatch(
        r"game (\d+): Python strategy of lineup slot 1 \(seat 1\) at (\w+): KeyError: 'no such key'", message
    )
    assert m is not None, message
    assert int(m.group(1)) == first and m.group(2) in GAMES[game][2]
    cause = failed.value.__cause__
    assert isinstance(cause, KeyError) and cause.args == ("no such key",)
    assert [f.filename for f in traceback.extract_tb(cause.__traceback__)] == [str(STRATEGY_FILE)]


def _raises(play: Any) -> bool:
    try:
        play()
    except KeyError:
        return True
    return False


@pytest.mark.parametrize("game", GAMES)
def test_an_init_that_raises_names_the_game_slot_and_strategy(game: str) -> None:
    with pytest.raises(RuntimeError) as failed:
        _play(game, _lineup(game, "InitRaises", slot=0), 0, 2)
    assert failed.value.args[0] == (
        f"{game}: Python strategy of lineup slot 0 ({failing_strategies.MODULE}:InitRaises) at __init__: "
        "RuntimeError: refuses to start"
    )
    cause = failed.value.__cause__
    assert isinstance(cause, RuntimeError) and cause.args == ("refuses to start",)
    # Only the strategy's own frames: its __init__ and the method that raised.
    frames = traceback.extract_tb(cause.__traceback__)
    assert [(f.filename, f.name) for f in frames] == [
        (str(STRATEGY_FILE), "__init__"),
        (str(STRATEGY_FILE), "load"),
    ]


def _experiment(tmp_path: Path, game: str, cls: str) -> Path:
    """A config of ``game`` whose last seat plays a script naming ``cls`` of failing_strategies."""
    n, native, _ = GAMES[game]
    folder = tmp_path / "strategies" / game
    folder.mkdir(parents=True)
    (folder / "broken.toml").write_text(
        f'name = "broken"\ngame = "{game}"\npython = "{failing_strategies.MODULE}:{cls}"\n'
    )
    players = ", ".join(f'"{p}"' for p in [native] * (n - 1) + ["broken"])
    cfg = tmp_path / "broken.toml"
    cfg.write_text(f'name = "broken"\ngame = "{game}"\ngames = 40\nseed = 2\nplayers = [{players}]\n')
    return cfg


# The frames the CLI shows of each failing class: (function, its line that raised or called on).
FRAMES = {
    "InitRaises": [
        ("__init__", "self.table = self.load()"),
        ("load", 'raise RuntimeError("refuses to start")'),
    ],
    "Raises": [("decide", 'raise KeyError("no such key")')],
}


@pytest.mark.usefixtures("in_repo")
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("cls", FRAMES)
def test_the_cli_tells_a_failing_strategy_in_its_own_frames(tmp_path: Path, game: str, cls: str) -> None:
    cfg = _experiment(tmp_path, game, cls)
    args = ["run", str(cfg), "--out", str(tmp_path / "out"), "-q", "--jobs", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    slot = GAMES[game][0] - 1
    if cls == "InitRaises":
        where = f"{game}: Python strategy of lineup slot {slot} ({failing_strategies.MODULE}:InitRaises)"
        assert lines[0] == f"error: {where} at __init__: RuntimeError: refuses to start"
    else:
        # A KeyError's message is shown as written, not as the repr that str() of a KeyError gives.
        where = rf"game \d+: Python strategy of lineup slot {slot} \(seat {slot}\) at \w+"
        assert re.fullmatch(rf"error: {where}: KeyError: 'no such key'", lines[0]), lines[0]
    source = STRATEGY_FILE.read_text().splitlines()
    shown = [
        line
        for function, code in FRAMES[cls]
        for line in (
            f'  File "{STRATEGY_FILE}", line {[s.strip() for s in source].index(code) + 1}, in {function}',
            f"    {code}",
        )
    ]
    # (Python 3.11 underlines the part of a line that raised with carets.)
    assert [line for line in lines[1:] if line.strip(" ^~")] == [
        "the strategy's frames (most recent call last):",
        *shown,
        "(the whole traceback: run again with --debug)",
    ]
    debug = CliRunner().invoke(app, [*args, "--debug"])
    assert type(debug.exception) is (RuntimeError if cls == "InitRaises" else KeyError)


@pytest.mark.parametrize("game", GAMES)
def test_a_set_cancel_flag_stops_a_python_batch_before_its_next_decision(game: str) -> None:
    lineup = _lineup(game, "Counts")
    cancel = threading.Event()
    cancel.set()
    failing_strategies.Counts.asked = 0
    with pytest.raises(KeyboardInterrupt) as stopped:
        _play(game, lineup, 0, 20, cancel=cancel)
    assert failing_strategies.Counts.asked == 0 and "Python strategy" not in str(stopped.value)
    # Unset, it changes nothing: the games of a batch without one.
    cancel.clear()
    played, plain = _play(game, lineup, 0, 20, cancel=cancel), _play(game, lineup, 0, 20)
    assert failing_strategies.Counts.asked > 0
    for table in plain:
        assert_frame_equal(played[table], plain[table])


def test_an_interrupt_reaches_a_decide_that_never_returns() -> None:
    assert _engine.interrupt_python_strategies() == 0  # no thread is inside decide()
    failing_strategies.STUCK.clear()
    caught: list[BaseException] = []

    def play() -> None:
        try:
            _play("suzume", _lineup("suzume", "Spins"), 0, 1)
        except BaseException as e:
            caught.append(e)

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    assert failing_strategies.STUCK.wait(60)
    assert _engine.interrupt_python_strategies() == 1
    thread.join(60)
    assert not thread.is_alive()
    # The interrupt itself, not told as the strategy's failure.
    assert [type(e) for e in caught] == [KeyboardInterrupt] and "Python strategy" not in str(caught[0])
