"""Ctrl-C stops a run within seconds, says what it kept, and a rerun finishes it: a real
``simharness run`` process sent SIGINT mid-run, with the default threading backend, playing native
strategies or a Python strategy whose ``decide`` never returns."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import failing_strategies
import polars as pl
import pytest
from harness_helpers import REPO, in_repo  # noqa: F401 (in_repo: a fixture)
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from simharness import config, engine, store
from simharness.cli import app

pytestmark = pytest.mark.usefixtures("in_repo")

# How long a stopped run may take to exit: far below what the runs here take to finish, generous
# for a loaded two-core machine.
STOP_BOUND_S = 15

# Three shards of several seconds each, played one after the other (--jobs 1).
RIICHI = """\
name = "long"
game = "riichi"
games = 7200
seed = 3
shard_size = 2400
players = ["efficiency", "efficiency", "efficiency", "efficiency"]
"""


def _start(cfg: Path, out: Path, jobs: int, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "simharness.cli", "run", str(cfg), "--out", str(out), "-q"]
    # A shell that started the tests in the background may have left SIGINT ignored, which the
    # run would inherit: Ctrl-C reaches a run in a terminal.
    return subprocess.Popen(
        [*cmd, "--jobs", str(jobs)],
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env={**os.environ, **(env or {})},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _wait_for(ready: Callable[[], bool], proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 300
    while not ready() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before it was interrupted"


def _interrupt(proc: subprocess.Popen[str]) -> list[str]:
    """Sends SIGINT; the run's stderr lines once it has exited (within STOP_BOUND_S)."""
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=STOP_BOUND_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"the run did not stop within {STOP_BOUND_S} s of SIGINT")
    assert proc.returncode == 130, err
    return err.splitlines()


def _whole_shards(run_dir: Path) -> set[tuple[str, str]]:
    """(variant folder, file name) of the shards of which every table is on disk."""
    manifest = store.read_manifest(run_dir)
    assert manifest is not None
    shards = (run_dir.glob(f"{t}/variant=*/part-*.parquet") for t in manifest.tables)
    names = [{(p.parent.name, p.name) for p in found} for found in shards]
    return set.intersection(*names)


def test_ctrl_c_stops_a_threaded_run_keeps_whole_shards_and_a_rerun_finishes_it(tmp_path: Path) -> None:
    cfg = tmp_path / "long.toml"
    cfg.write_text(RIICHI)
    run_dir = tmp_path / "out" / "long"
    proc = _start(cfg, tmp_path / "out", jobs=1)
    # Interrupted as the second shard starts: it is discarded after at most a sub-batch, not
    # played to its end, and the third never starts.
    _wait_for(lambda: any(run_dir.glob("players/*/part-*.parquet")), proc)
    lines = _interrupt(proc)
    assert lines == ["interrupted: 1 of 3 shards kept; run the same command again to resume"]
    assert _whole_shards(run_dir) == {("variant=base", "part-0000000000.parquet")}
    # Nothing but whole shards under final names, each one a valid shard of the plan; no temporary
    # file of a discarded shard.
    files = {p.relative_to(run_dir).as_posix() for p in run_dir.rglob("*") if p.is_file()}
    assert {f for f in files if not re.fullmatch(r"\w+/variant=base/part-0000000000\.parquet", f)} == {
        "manifest.json",
        ".lock",
    }
    partial = store.open_run(run_dir, partial=True)
    assert partial.warning is not None and not partial.complete
    assert partial.table("games")["game"].to_list() == list(range(2400))

    resumed = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path / "out"), "-q"])
    assert resumed.exit_code == 0, resumed.output
    # The kept shard is the one an uninterrupted run writes (the others were played by the rerun).
    run, exp = store.open_run(run_dir), config.load(cfg)
    assert run.complete and run.table("games")["game"].to_list() == list(range(7200))
    whole = engine.play_batch(
        "riichi", exp.variants["base"], [s.knobs for s in exp.lineup], seed=3, first_game=0, count=2400
    )
    for table, rows in whole.items():
        kept = run.table(table).filter(pl.col("game") < 2400).drop("variant", "strategy", strict=False)
        assert_frame_equal(kept, rows)


@pytest.mark.parametrize("cls", ["Spins", "Blocks"])
def test_ctrl_c_stops_a_run_whose_python_strategy_never_returns(tmp_path: Path, cls: str) -> None:
    """A pure-Python loop is interrupted inside decide(); a decide() blocked in a C call cannot be,
    and the run exits without waiting for it. Either way the shard is discarded."""
    folder = tmp_path / "strategies" / "suzume"
    folder.mkdir(parents=True)
    (folder / "stuck.toml").write_text(
        f'name = "stuck"\ngame = "suzume"\npython = "{failing_strategies.MODULE}:{cls}"\n'
    )
    cfg = tmp_path / "stuck.toml"
    cfg.write_text(
        'name = "stuck"\ngame = "suzume"\ngames = 2000\nseed = 1\nshard_size = 100\n'
        'players = ["fastest", "fastest", "stuck"]\n'
    )
    stuck = tmp_path / "stuck-now"
    tests = str(Path(failing_strategies.__file__).parent)
    env = {"PYTHONPATH": tests, failing_strategies.STUCK_FILE: str(stuck)}
    proc = _start(cfg, tmp_path / "out", jobs=2, env=env)
    _wait_for(stuck.exists, proc)
    lines = _interrupt(proc)
    note = (
        ["(a Python strategy did not return from decide(); its shard is discarded)"]
        if cls == "Blocks"
        else []
    )
    assert lines == ["interrupted: 0 of 20 shards kept; run the same command again to resume", *note]
    assert not list((tmp_path / "out" / "stuck").rglob("*.parquet"))
