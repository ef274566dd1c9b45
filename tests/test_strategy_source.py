"""A Python strategy's source is part of a run's identity: resuming a run after editing the file
that defines the class would mix two strategies under one name, so it is refused naming the
strategy and the file, and `show` blames the strategy (not the engine) for a game that differs."""

from __future__ import annotations

import hashlib
import importlib
import sys
from pathlib import Path

import pytest
from harness_helpers import in_repo  # noqa: F401 (a fixture)
from typer.testing import CliRunner

from simharness import config, store
from simharness.cli import app

CONFIG = """\
name = "edited"
game = "sugoroku"
games = 40
seed = 3
shard_size = 20
players = ["bold", "naive"]
"""


def _strategy(answer: bool) -> str:
    return f"class Bold:\n    def decide(self, view):\n        return {answer}\n"


def test_an_edited_python_strategy_is_named_on_resume_and_by_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = tmp_path / "edited_strategy.py"
    module.write_text(_strategy(True))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    folder = tmp_path / "strategies" / "sugoroku"
    folder.mkdir(parents=True)
    (folder / "bold.toml").write_text('name = "bold"\ngame = "sugoroku"\npython = "edited_strategy:Bold"\n')
    cfg = tmp_path / "edited.toml"
    cfg.write_text(CONFIG)
    out = tmp_path / "out"
    args = ["run", str(cfg), "--out", str(out), "-q", "--jobs", "1"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    run_dir = out / "edited"
    recorded = store.open_run(run_dir).manifest.lineup
    digest = hashlib.sha256(module.read_bytes()).hexdigest()[:16]
    assert recorded[0].source == {"file": str(module), "sha256": digest}
    assert recorded[1].source is None  # a knob strategy's identity is its knobs
    before = config.load(cfg).config_hash

    module.write_text(_strategy(False))  # the same class, other answers: other games
    monkeypatch.delitem(sys.modules, "edited_strategy")
    importlib.invalidate_caches()
    assert config.load(cfg).config_hash != before
    # an interrupted run: its second shard is missing
    store.shard_path(run_dir, "players", "base", 20).unlink()
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    edited = (
        'the Python strategy "bold" of lineup slot 0 (edited_strategy:Bold) changed since the run was made: '
        f"{module} is not the source the run recorded"
    )
    assert result.stderr == (
        f"error: {run_dir}: holds a run of a different config ({edited}); use --force to replace it or "
        "--out for a new directory\n"
    )
    assert not store.shard_path(run_dir, "players", "base", 20).exists()

    shown = CliRunner().invoke(app, ["show", str(run_dir), "--game", "0"])
    assert shown.exit_code == 2
    assert "game 0 of variant base plays differently now: " in shown.stderr
    assert (
        f"The{edited[3:]}; show it with the source that made the run, or run the config again" in shown.stderr
    )
    assert "engine changed" not in shown.stderr
