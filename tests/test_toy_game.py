"""The decision contract is the whole contract a new game needs (#23): the engine's test-only toy game
(Pig, `engine/src/games/toy.rs`, registered under SIMHARNESS_TOY_GAME=1) has no Python package and
no harness code of its own, yet it gets configs with variants and duplicate play, runs, reports,
`show` pages and the Python strategy protocol. The engine reads the variable when it loads, so the
toy is driven through the CLI in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

STRATEGIES = {
    "cautious": 'name = "cautious"\ngame = "toy"\nversion = 1\n[knobs]\nhold_at = 8\n',
    "bold": 'name = "bold"\ngame = "toy"\nversion = 1\n[knobs]\nhold_at = 25\n',
    "hold20": 'name = "hold20"\ngame = "toy"\nversion = 1\n[knobs]\nhold_at = 20\n',
    "pyhold": 'name = "pyhold"\ngame = "toy"\npython = "toy_strategy:HoldAt20"\n',
    "pybad": 'name = "pybad"\ngame = "toy"\npython = "toy_strategy:Bad"\n',
}

# The same policy as the knobs hold_at = 20, through the protocol: decide(view, legal) -> index.
MODULE = """\
class HoldAt20:
    def decide(self, view, legal):
        want = "hold" if view["turn_total"] >= 20 else "roll"
        return [a[0] for a in legal].index(want)


class Bad:
    def decide(self, view, legal):
        return len(legal)  # one past the last legal action
"""

CONFIG = """\
name = "{name}"
game = "toy"
games = 300
seed = 5
duplicate = true
description = "Does a longer race favour the bold?"
players = {players}

[variants.short]
target = 30

[variants.long]
target = 100
"""


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # No PYTHONPATH: the strategy module beside the config is found there.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(SIMHARNESS_TOY_GAME="1", COLUMNS="120")
    command = [sys.executable, "-m", "simharness", *args]
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture()
def toy(tmp_path: Path) -> Path:
    """A folder with the configs' strategy scripts and, beside them, the Python strategies' module."""
    home = tmp_path / "toy"
    folder = home / "strategies" / "toy"
    folder.mkdir(parents=True)
    for name, script in STRATEGIES.items():
        (folder / f"{name}.toml").write_text(script)
    (home / "toy_strategy.py").write_text(MODULE)
    return home


def _run(
    toy: Path, name: str, players: list[str], jobs: int = 1
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Runs a config of ``toy``'s folder from its parent folder (so neither the config's strategy
    scripts nor its Python module are in the current folder)."""
    (toy / f"{name}.toml").write_text(CONFIG.format(name=name, players=json.dumps(players)))
    done = _cli(toy.parent, "run", f"{toy.name}/{name}.toml", "--out", f"{toy.name}/out", "--jobs", str(jobs))
    return done, toy / "out" / name


def _players(run_dir: Path) -> pl.DataFrame:
    return pl.read_parquet(run_dir / "players" / "**" / "*.parquet", hive_partitioning=True).sort(
        "variant", "game", "seat"
    )


def test_a_game_on_the_contract_gets_runs_reports_pages_and_python_strategies(toy: Path) -> None:
    games = _cli(toy, "games")
    assert games.returncode == 0 and "toy" in games.stdout, games.stdout + games.stderr

    # Two worker processes: each imports the strategy module from the folder the config recorded.
    done, run_dir = _run(toy, "python", ["cautious", "bold", "pyhold"], jobs=2)
    assert done.returncode == 0, done.stdout + done.stderr
    native, native_dir = _run(toy, "native", ["cautious", "bold", "hold20"])
    assert native.returncode == 0, native.stdout + native.stderr
    # The Python strategy is a player like the knobs: the same policy plays the same games.
    python_rows, native_rows = _players(run_dir), _players(native_dir)
    assert python_rows.height == 2 * 300 * 3
    assert python_rows.select("variant", "game", "seat", "player", "final_points", "rank").equals(
        native_rows.select("variant", "game", "seat", "player", "final_points", "rank")
    )
    # Duplicate play: each deal is played once per rotation, every slot in every seat.
    seats = python_rows.filter(pl.col("variant") == "short").group_by("player").agg(pl.col("seat").n_unique())
    assert seats["seat"].to_list() == [3, 3, 3]

    report = _cli(toy, "report", "out/python", "--json", "--html", "report.html")
    assert report.returncode == 0, report.stderr
    data = json.loads(report.stdout)
    assert list(data["variants"]) == ["short", "long"]
    # A longer race rewards holding later: the bold slot's points rise, the cautious slot's fall.
    moved = {
        (d["strategy"], d["metric"]): d["difference"] for d in data["differences"] if d["variant"] == "long"
    }
    assert moved[("bold", "final_points")]["lo"] > 0 and moved[("cautious", "final_points")]["hi"] < 0, moved
    assert (toy / "report.html").stat().st_size > 10_000

    shown = _cli(toy, "show", "out/python", "--game", "4", "--variant", "long", "-o", "g4.html")
    assert shown.returncode == 0, shown.stderr
    page = (toy / "g4.html").read_text()
    data = json.loads(page.split('<script type="application/json" id="show-data">')[1].split("</script>")[0])
    final = python_rows.filter((pl.col("variant") == "long") & (pl.col("game") == 4))
    assert all(f'class="points">{p}<' in data["standings"] for p in final["final_points"].to_list())


def test_an_illegal_answer_of_a_python_strategy_is_refused_where_it_happened(toy: Path) -> None:
    done, _ = _run(toy, "bad", ["cautious", "pybad"])
    assert done.returncode == 2, done.stdout + done.stderr
    message = " ".join(done.stderr.split())
    assert "game 0" in message and "lineup slot 1" in message and "at roll" in message, message
