"""Helpers of the harness tests: small sugoroku experiments written to a temporary directory, and a
run whose tables must not depend on the number of workers."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from typer.testing import CliRunner

from simharness import store
from simharness.cli import app

REPO = Path(__file__).resolve().parent.parent

SMALL = """\
name = "small"
game = "sugoroku"
games = {games}
seed = {seed}
shard_size = {shard_size}
players = ["naive", "greedy", "naive", "random"]

[rules]
preset = "default"

[variants.cap-500]
payout_cap = 500

[variants.no-cap]
payout_cap = "none"
"""


@pytest.fixture(autouse=True)
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Strategy names fall back to the current directory: the repository's strategies/."""
    monkeypatch.chdir(REPO)


def small_config(tmp_path: Path) -> Path:
    """300 games per variant in shards of 50: 12 shards, fast enough to run many times."""
    path = tmp_path / "small.toml"
    path.write_text(SMALL.format(games=300, seed=11, shard_size=50))
    return path


def config_variants(cfg: dict[str, Any]) -> list[dict[str, Any]]:
    """The rule overrides of each variant of a config file as read (its ``[grid]`` combinations, or
    its ``[variants]``, or the one base variant)."""
    if "grid" in cfg:
        keys = list(cfg["grid"])
        return [dict(zip(keys, vals, strict=True)) for vals in itertools.product(*cfg["grid"].values())]
    return list(cfg.get("variants", {"base": {}}).values())


def play(out: Path, name: str, body: str) -> Path:
    """Runs a config (``body``: all but its name and seed; its strategies are the built-in scripts)
    as experiment ``name`` into ``out`` with one worker, and returns the run's folder."""
    cfg = out / f"{name}.toml"
    cfg.write_text(f'name = "{name}"\nseed = 5\n{body}')
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(out), "--quiet", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return out / name


def run_with_one_and_two_workers(cfg: Path, out: Path, name: str) -> Path:
    """Runs ``cfg`` (experiment ``name``) with 1 and with 2 threaded workers under ``out``, asserts that
    the ``games``, ``players`` and ``hands`` tables are equal, and returns the 1-worker run's folder."""
    runs = {}
    for jobs in ("1", "2"):
        args = [
            "run",
            str(cfg),
            "--out",
            str(out / jobs),
            "--quiet",
            "--jobs",
            jobs,
            "--backend",
            "threading",
        ]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        run = store.open_run(out / jobs / name)
        runs[jobs] = {t: run.table(t) for t in ("games", "players", "hands")}
    for t in runs["1"]:
        assert runs["1"][t].equals(runs["2"][t]), t
    return out / "1" / name


def rank_points_by_hand(players: pl.DataFrame, points: list[float]) -> pl.DataFrame:
    """``players`` (one variant's rows) with ``by_hand``: each row's rank points worked out row by
    row, k players sharing a place splitting the points of the k places they hold (ranks 1, 1, 3 of
    [6, 0, −6]: 3, 3, −6)."""
    tied = players.with_columns(tied=pl.len().over("game", "rank"))
    split = [sum(points[r - 1 : r - 1 + k]) / k for r, k in zip(tied["rank"], tied["tied"], strict=True)]
    return tied.drop("tied").with_columns(by_hand=pl.Series(split, dtype=pl.Float64))
