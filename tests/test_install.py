"""simharness away from its checkout: built-in strategies and configs, `init`, and a wheel installed
into a fresh venv that runs built-in strategies from an empty directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simharness import buildinfo, config, engine, starter, strategies
from simharness.cli import app

REPO = Path(__file__).resolve().parent.parent

RIICHI = """\
name = "builtin"
game = "riichi"
games = 8
seed = 3
players = ["efficiency", "fold-on-riichi", "efficiency", "tsumo-only"]
"""


def test_every_builtin_script_and_config_ships_from_the_top_level_folders() -> None:
    for folder, pattern in (("strategies", "*/*.toml"), ("configs", "*.toml")):
        source = sorted(p.relative_to(REPO / folder) for p in (REPO / folder).glob(pattern))
        shipped = sorted(
            p.relative_to(strategies.BUILTIN / folder) for p in (strategies.BUILTIN / folder).glob(pattern)
        )
        assert source and shipped == source


def test_builtin_strategies_are_found_from_anywhere_and_a_user_script_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "builtin.toml").write_text(RIICHI)
    exp = config.load(tmp_path / "builtin.toml")
    assert [Path(s.path).is_relative_to(strategies.BUILTIN) for s in exp.lineup] == [True] * 4
    listed = CliRunner().invoke(app, ["strategies", "riichi"])
    assert listed.exit_code == 0
    assert "riichi/efficiency  v1  built-in" in listed.stdout

    mine = tmp_path / "strategies" / "riichi" / "efficiency.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text(
        'name = "efficiency"\ngame = "riichi"\ndescription = "mine"\n[knobs]\ncalls = "yakuhai"\n'
    )
    exp = config.load(tmp_path / "builtin.toml")
    assert Path(exp.lineup[0].path) == mine.resolve()
    assert exp.lineup[0].knobs["calls"] == "yakuhai"
    assert Path(exp.lineup[1].path).is_relative_to(strategies.BUILTIN)
    listed = CliRunner().invoke(app, ["strategies", "riichi"])
    assert (
        "riichi/efficiency  v1  strategies/riichi/efficiency.toml (instead of the built-in)" in listed.stdout
    )
    assert "riichi/fold-on-riichi  v1  built-in" in listed.stdout


@pytest.mark.parametrize("game", engine.game_names())
def test_init_writes_a_starter_that_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["init", "my exp", "--game", game])
    assert result.exit_code == 0, result.output
    cfg = tmp_path / "my exp" / starter.CONFIG
    text = cfg.read_text()
    assert 'name = "my-exp"' in text and f"simharness rules {game}" in text
    script = (tmp_path / "my exp" / "strategies" / game / f"{starter.SCRIPT}.toml").read_text()
    # Every knob is there, commented out at its default.
    assert all(f"\n# {k.name} = " in script for k in engine.knob_options(game))
    monkeypatch.chdir(tmp_path / "my exp")
    result = CliRunner().invoke(app, ["run", starter.CONFIG, "--games", "12", "-q"])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "my exp" / "results" / "my-exp" / "manifest.json").read_text())
    assert manifest["complete"] and manifest["lineup"][0]["strategy"] == starter.SCRIPT
    again = CliRunner().invoke(app, ["init", str(tmp_path / "my exp"), "--game", game])
    assert again.exit_code == 2 and "already exists" in again.stderr


def test_a_wheel_in_a_fresh_venv_runs_builtin_strategies_from_an_empty_directory(tmp_path: Path) -> None:
    """The real install: pip builds the (abi3) wheel and installs it into a new venv. The venv borrows
    this one's dependencies through a .pth line (not its simharness: a path a .pth adds is not scanned
    for further .pth files), so the test needs no download."""
    dist = tmp_path / "dist"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(dist), str(REPO)], check=True, timeout=900)
    (wheel,) = dist.glob("simharness-*.whl")
    assert "-abi3-" in wheel.name
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [*pip, "--python", str(python), "install", "--no-deps", str(wheel)], check=True, timeout=300
    )
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    Path(site, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    empty = tmp_path / "empty"
    empty.mkdir()
    cfg = tmp_path / "elsewhere" / "builtin.toml"
    cfg.parent.mkdir()
    cfg.write_text(RIICHI)
    simharness = venv / "bin" / "simharness"

    def sh(*args: str) -> str:
        done = subprocess.run([simharness, *args], cwd=empty, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout

    where = subprocess.run(
        [python, "-c", "import simharness; print(simharness.__file__)"],
        cwd=empty, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert Path(where).is_relative_to(venv)
    assert "riichi/efficiency  v1  built-in" in sh("strategies", "riichi")
    sh("run", str(cfg), "--out", "results", "-q")
    manifest = json.loads((empty / "results" / "builtin" / "manifest.json").read_text())
    assert manifest["complete"]
    assert [s["strategy"] for s in manifest["lineup"]] == [
        "efficiency",
        "fold-on-riichi",
        "efficiency",
        "tsumo-only",
    ]
    commit = buildinfo.checkout_commit(REPO)
    assert commit is not None and manifest["provenance"]["git_commit"] == commit
    # An example config ships too and runs from the installed package.
    shipped = Path(where).parent / "builtin" / "configs" / "sugoroku-demo.toml"
    sh("run", str(shipped), "--games", "20", "--out", "results", "-q")
    # The rule specifications ship, and `games` names the package's copy.
    spec = Path(where).parent / "builtin" / "rules" / "riichi.md"
    assert spec.read_text().startswith("> **Origin.**")
    listed = subprocess.run([simharness, "games"], cwd=empty, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "COLUMNS": "400"})  # fmt: skip
    assert listed.returncode == 0 and f"rules files in {spec.parent.resolve()}/" in listed.stdout, (
        listed.stdout
    )
    assert "│ riichi.md " in listed.stdout
    # A sweep finds its default lineup (the coverage config) in the package.
    assert "lineup (the lineup of " in sh(
        "sweep", "suzume", "--games", "20", "--options", "dealer_bonus", "--out", "results", "-q"
    )
    sh("init", "starter")
    sh("run", str(empty / "starter" / starter.CONFIG), "--games", "10", "--out", "results", "-q")
    assert set(empty.iterdir()) == {empty / "results", empty / "starter"}
