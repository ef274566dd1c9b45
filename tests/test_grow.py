"""Runs that grow: more `games` on a finished run plays only the missing games, keeps the run's files
as they were, and gives the rows of a fresh run of the new size (every game is a function of the
config, the seed and its index); fewer games is refused, saying how to get a smaller run."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from harness_helpers import in_repo  # noqa: F401  (autouse: strategies resolve from the repository)
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from simharness import store
from simharness.cli import app

# Duplicate play (deals of 4 games) and two variants; shard_size is filled in per test ("" = the
# default, which follows the games, so that the stages of a grown run have shards of other sizes).
CONFIG = """\
name = "grow"
game = "sugoroku"
games = {games}
seed = 3
duplicate = true
{shard}
players = ["naive", "greedy", "naive", "random"]

[variants.cap-500]
payout_cap = 500

[variants.no-cap]
payout_cap = "none"
"""
N = 120


def _config(tmp: Path, shard: str = "") -> Path:
    path = tmp / "grow.toml"
    path.write_text(CONFIG.format(games=N, shard=shard))
    return path


def _run(cfg: Path, out: Path, games: int, code: int = 0) -> str:
    args = ["run", str(cfg), "--out", str(out), "--quiet", "--jobs", "1", "--games", str(games)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == code, result.output
    return result.output


def _assert_rows_equal(grown: Path, fresh: Path) -> None:
    a, b = store.open_run(grown), store.open_run(fresh)
    assert a.tables == b.tables
    for table in a.tables:
        assert_frame_equal(a.table(table), b.table(table))


def _digests(run_dir: Path) -> dict[str, str]:
    return {
        str(p.relative_to(run_dir)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(run_dir.rglob("*.parquet"))
    }


def _manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


@pytest.mark.parametrize("shard", ["", "shard_size = 48"])
def test_grown_to_2n_and_3n_equals_fresh_runs_and_keeps_its_files(tmp_path: Path, shard: str) -> None:
    cfg = _config(tmp_path, shard)
    run_dir = tmp_path / "out" / "grow"
    _run(cfg, tmp_path / "out", N)
    before = _digests(run_dir)
    for k in (2, 3):
        _run(cfg, tmp_path / "out", k * N)
        assert [s["games"] for s in _manifest(run_dir)["stages"]] == [j * N for j in range(1, k + 1)]
        _run(cfg, tmp_path / f"fresh{k}", k * N)
        _assert_rows_equal(run_dir, tmp_path / f"fresh{k}" / "grow")
        after = _digests(run_dir)
        assert {p: after[p] for p in before} == before  # the files of the run it grew from, unchanged
        before = after
    stages = _manifest(run_dir)["stages"]
    assert [s["games"] for s in stages] == [N, 2 * N, 3 * N]
    # Each stage is the same experiment at its size (store checks the hashes against the identity).
    assert len({s["config_hash"] for s in stages}) == 3
    _run(cfg, tmp_path / "out", 3 * N)  # finished: nothing is played again
    assert store.open_run(run_dir).complete and _digests(run_dir) == before


def _kill_mid_growth(run_dir: Path, first: int) -> None:
    """What a kill during growth leaves: the manifest of the grown run, not complete, and the new
    stage's shards from game ``first`` on missing in one variant."""
    manifest = _manifest(run_dir)
    (run_dir / "manifest.json").write_text(json.dumps({**manifest, "complete": False}))
    for table in manifest["tables"]:
        for p in (run_dir / table / "variant=no-cap").glob("part-*.parquet"):
            if int(p.stem.removeprefix("part-")) >= first:
                p.unlink()


def test_a_growth_killed_midway_resumes_or_grows_on_to_the_fresh_rows(tmp_path: Path) -> None:
    cfg = _config(tmp_path, "shard_size = 48")
    run_dir = tmp_path / "out" / "grow"
    _run(cfg, tmp_path / "out", N)
    _run(cfg, tmp_path / "out", 2 * N)
    _kill_mid_growth(run_dir, 144)
    with pytest.raises(Exception, match="not finished"):
        store.open_run(run_dir)
    _run(cfg, tmp_path / "out", 2 * N)  # the same command again: finishes the growth
    _run(cfg, tmp_path / "fresh2", 2 * N)
    _assert_rows_equal(run_dir, tmp_path / "fresh2" / "grow")
    # killed while growing to 2n, then grown on to 3n: the 2n stage's missing shards are played in
    # that stage's own shards, and the rows are a fresh 3n run's
    _kill_mid_growth(run_dir, 144)
    _run(cfg, tmp_path / "out", 3 * N)
    _run(cfg, tmp_path / "fresh3", 3 * N)
    _assert_rows_equal(run_dir, tmp_path / "fresh3" / "grow")
    assert [s["games"] for s in _manifest(run_dir)["stages"]] == [N, 2 * N, 3 * N]


def test_shrinking_is_refused_with_how_to_get_a_smaller_run(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    _run(cfg, tmp_path / "out", 2 * N)
    said = " ".join(_run(cfg, tmp_path / "out", N, code=2).split())
    assert "a run does not shrink (asked for 120)" in said
    assert "run with --out for a new directory (its games are the first 120 of this run's" in said
    # another change than the games is still another experiment
    cfg.write_text(cfg.read_text().replace("seed = 3", "seed = 4"))
    said = " ".join(_run(cfg, tmp_path / "out", 3 * N, code=2).split())
    assert "holds a run of a different config (changed: games, seed" in said


def test_an_edited_stage_hash_is_refused(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    run_dir = tmp_path / "out" / "grow"
    _run(cfg, tmp_path / "out", N)
    _run(cfg, tmp_path / "out", 2 * N)
    manifest = _manifest(run_dir)
    manifest["stages"][0]["games"] = 96
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(Exception, match=r"stages\[0\]"):
        store.open_run(run_dir)


def test_a_sweep_grows_like_a_run(tmp_path: Path) -> None:
    def sweep(out: Path, games: int) -> Path:
        args = ["sweep", "sugoroku", "--options", "payout_cap", "--games", str(games), "--out", str(out)]
        result = CliRunner().invoke(app, [*args, "--jobs", "1", "--quiet"])
        assert result.exit_code == 0, result.output
        return out / "sweep-sugoroku-payout_cap"

    grown = sweep(tmp_path / "out", 100)
    before = _digests(grown)
    sweep(tmp_path / "out", 300)
    assert {p: _digests(grown)[p] for p in before} == before
    assert len(store.open_run(grown).variants) > 1
    _assert_rows_equal(grown, sweep(tmp_path / "fresh", 300))
    # the config beside the run is the grown run's
    assert "games = 300" in (tmp_path / "out" / "sweep-sugoroku-payout_cap.toml").read_text()


def test_a_challenger_design_grows_like_a_run(tmp_path: Path) -> None:
    cfg = tmp_path / "grow.toml"
    cfg.write_text(
        'name = "grow"\ngame = "sugoroku"\ngames = 48\nseed = 3\n\n'
        '[challengers]\nfield = "naive"\nstrategies = ["greedy", "random"]\nseats = 4\n'
    )
    run_dir = tmp_path / "out" / "grow"
    _run(cfg, tmp_path / "out", 48)
    before = _digests(run_dir)
    _run(cfg, tmp_path / "out", 96)
    assert {p: _digests(run_dir)[p] for p in before} == before
    assert store.open_run(run_dir).variants == ["field", "greedy", "random"]
    _run(cfg, tmp_path / "fresh", 96)
    _assert_rows_equal(run_dir, tmp_path / "fresh" / "grow")


def test_the_plan_of_a_grown_run_by_hand() -> None:
    # 120 games in shards of 48 (the last one 24), then up to 300 in shards of 100 (the last one 80)
    plan = store.Plan("h2", ("players",), ("base",), 300, 100, (store.Stage(120, 48, "h1"),))
    assert list(plan.firsts()) == [0, 48, 96, 120, 220]
    assert [plan.count(f) for f in plan.firsts()] == [48, 48, 24, 100, 80]
    assert [plan.hash_at(f) for f in plan.firsts()] == ["h1", "h1", "h1", "h2", "h2"]
    assert plan.count(144) is None and plan.count(300) is None and plan.hash_at(100) is None
    assert list(plan.between(50, 221)) == [96, 120, 220] and list(plan.firsts(120)) == [0, 48, 96]
    assert [plan.first_of(g) for g in (0, 47, 48, 119, 120, 219, 220, 299)] == [
        0,
        0,
        48,
        96,
        120,
        120,
        220,
        220,
    ]
    # a plan that never grew is the ranges it always was
    flat = store.Plan("h", ("players",), ("base",), 250, 100)
    assert flat.firsts() == range(0, 250, 100) and flat.between(150, 250) == range(200, 250, 100)
