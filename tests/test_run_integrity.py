"""Reading a run never misleads: foreign or extra shards are refused by name, an unfinished run is
refused unless asked for (then reported on common deals with a warning everywhere), and a finished
run's manifest is never touched by a re-run that has nothing to do or fails."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from harness_helpers import in_repo, small_config  # noqa: F401 (in_repo: a fixture)
from typer.testing import CliRunner, Result

from simharness import store
from simharness.cli import app
from simharness.errors import RunDirError

pytestmark = pytest.mark.usefixtures("in_repo")


def _cli(*args: str) -> Result:
    return CliRunner().invoke(app, [*map(str, args)])


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The small experiment (2 variants × 300 games in shards of 50) and the same with another seed."""
    tmp = tmp_path_factory.mktemp("runs")
    cfg = small_config(tmp)
    for out, seed in (("a", "11"), ("b", "99")):
        result = _cli("run", cfg, "--out", tmp / out, "--seed", seed, "-q")
        assert result.exit_code == 0, result.output
    return tmp / "a" / "small", tmp / "b" / "small"


def _copy(run_dir: Path, to: Path) -> Path:
    shutil.copytree(run_dir, to / run_dir.name)
    return to / run_dir.name


def test_a_foreign_shard_is_refused_by_report_and_open_run_naming_it(
    runs: tuple[Path, Path], tmp_path: Path
) -> None:
    run_dir = _copy(runs[0], tmp_path)
    victim = run_dir / "players" / "variant=cap-500" / "part-0000000100.parquet"
    shutil.copy(runs[1] / "players" / "variant=cap-500" / victim.name, victim)
    with pytest.raises(RunDirError, match="belongs to another experiment") as e:
        store.open_run(run_dir)
    assert e.value.file == victim
    result = _cli("report", run_dir)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {victim}: belongs to another experiment")
    assert "move it away" in result.stderr


def test_an_extra_or_misplaced_shard_is_refused(runs: tuple[Path, Path], tmp_path: Path) -> None:
    run_dir = _copy(runs[0], tmp_path)
    last = run_dir / "games" / "variant=no-cap" / "part-0000000250.parquet"
    # beyond the 300 games of the plan
    extra = last.with_name("part-0000000300.parquet")
    shutil.copy(last, extra)
    with pytest.raises(RunDirError, match="not a shard of this run's plan") as e:
        store.open_run(run_dir)
    assert e.value.file == extra
    # a shard of one variant copied under another: its metadata names the other variant
    extra.unlink()
    other = run_dir / "games" / "variant=cap-500" / last.name
    shutil.copy(last, other)
    result = _cli("report", run_dir, "--json")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {other}: its metadata does not match its name")


def _truncate(run_dir: Path) -> None:
    """What a killed run leaves: the manifest not complete, cap-500 with 4 of its 6 shards (one
    only in `games`), no-cap with 2."""
    manifest = json.loads((run_dir / "manifest.json").read_text())
    manifest["complete"] = False
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    for first in (200, 250):
        (run_dir / "players" / "variant=cap-500" / f"part-{first:010d}.parquet").unlink()
    for first in (100, 150, 200, 250):
        for table in ("games", "players"):
            (run_dir / table / "variant=no-cap" / f"part-{first:010d}.parquet").unlink()
    (run_dir / "games" / "variant=cap-500" / "part-0000000250.parquet").unlink()


def test_an_unfinished_run_is_refused_unless_partial_and_then_warned_about(
    runs: tuple[Path, Path], tmp_path: Path
) -> None:
    run_dir = _copy(runs[0], tmp_path)
    _truncate(run_dir)
    result = _cli("report", run_dir)
    assert result.exit_code == 2
    assert "the run is not finished" in result.stderr
    assert "variant cap-500 has 200 of 300 games; variant no-cap has 100 of 300 games" in result.stderr
    assert "--partial" in result.stderr

    run = store.open_run(run_dir, partial=True)
    games = run.table("games")
    # comparisons only on the deals present in every variant and table
    assert games.group_by("variant").len().sort("variant").rows() == [("cap-500", 100), ("no-cap", 100)]
    assert sorted(set(games["game"].to_list())) == list(range(100))
    assert run.table("players").height == 2 * 100 * 4

    text = _cli("report", run_dir, "--partial")
    assert text.exit_code == 0, text.output
    assert "warning: PARTIAL RUN: the run is not finished" in " ".join(text.stdout.split())
    data = json.loads(_cli("report", run_dir, "--partial", "--json").stdout)
    assert data["run"]["warning"].startswith("PARTIAL RUN: the run is not finished")
    assert data["variants"]["cap-500"]["games"] == 100
    page = tmp_path / "r.html"
    assert _cli("report", run_dir, "--partial", "--html", page).exit_code == 0
    assert "<strong>Warning:</strong> PARTIAL RUN" in page.read_text()


def test_a_finished_run_missing_a_shard_is_partial(runs: tuple[Path, Path], tmp_path: Path) -> None:
    run_dir = _copy(runs[0], tmp_path)
    (run_dir / "players" / "variant=no-cap" / "part-0000000000.parquet").unlink()
    with pytest.raises(RunDirError, match="the run is finished: variant no-cap has 250 of 300 games"):
        store.open_run(run_dir)
    assert store.open_run(run_dir, partial=True).table("games").height == 2 * 250


def test_a_finished_run_is_not_rewritten_by_a_rerun(runs: tuple[Path, Path], tmp_path: Path) -> None:
    run_dir = _copy(runs[0], tmp_path)
    cfg = small_config(tmp_path)
    manifest = (run_dir / "manifest.json").read_bytes()
    stamp = (run_dir / "manifest.json").stat().st_mtime_ns
    result = _cli("run", cfg, "--out", tmp_path, "--jobs", "0")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --jobs: expected a number of workers >= 1")
    result = _cli("run", cfg, "--out", tmp_path, "-q")
    assert result.exit_code == 0, result.output
    assert (run_dir / "manifest.json").read_bytes() == manifest
    assert (run_dir / "manifest.json").stat().st_mtime_ns == stamp
    assert store.open_run(run_dir).complete


def _limited(limit: int) -> None:
    """Caps the address space of a child process (a plan listed per shard would need many GB)."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def test_a_trillion_games_validate_and_stream_under_a_memory_limit(tmp_path: Path) -> None:
    import functools
    import os
    import signal
    import subprocess
    import sys
    import time

    from harness_helpers import REPO

    cfg = small_config(tmp_path)
    env = {**os.environ, "POLARS_MAX_THREADS": "2", "RAYON_NUM_THREADS": "2"}
    limit = functools.partial(_limited, 3 * 2**30)
    cmd = [sys.executable, "-m", "simharness.cli"]
    games = ["--games", str(10**12)]
    done = subprocess.run(
        [*cmd, "validate", str(cfg), *games],
        preexec_fn=limit,
        env=env,
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    assert "1,000,000,000,000 games per variant" in done.stdout
    assert "20,000,000,000 shards of up to 50 per variant" in done.stdout

    out = tmp_path / "out"
    proc = subprocess.Popen(
        [*cmd, "run", str(cfg), *games, "--out", str(out), "--jobs", "2", "-q"],
        preexec_fn=limit,
        env=env,
        cwd=REPO,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    run_dir = out / "small"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if len(list(run_dir.glob("players/*/part-*.parquet"))) >= 6:
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert (run_dir / "manifest.json").stat().st_size < 10_000
    run = store.open_run(run_dir, partial=True)
    assert "of 1,000,000,000,000 games" in (run.warning or "")
    games_read = run.table("games")
    # shard by shard across the variants: both hold the first shards
    assert games_read.group_by("variant").len()["len"].to_list() == [len(run.firsts) * 50] * 2
    assert len(run.firsts) >= 1


def test_headers_say_what_they_know(runs: tuple[Path, Path], tmp_path: Path) -> None:
    cfg = small_config(tmp_path)
    text = " ".join(_cli("validate", cfg, "--games", "50").stdout.split())
    assert "1 shard of up to 50 per variant" in text
    run_dir = _copy(runs[0], tmp_path)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    manifest["provenance"]["git_commit"] = None  # run from an installed package, not a checkout
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    text = " ".join(_cli("report", run_dir).stdout.split())
    assert "commit unknown" in text and "commit None" not in text
