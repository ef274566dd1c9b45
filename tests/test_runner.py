"""The runner end to end: hive layout and provenance, determinism across workers and shard sizes,
resume after a kill, and refusal to mix or overwrite foreign data."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from harness_helpers import SMALL, in_repo, small_config  # noqa: F401 (in_repo: a fixture)
from polars.testing import assert_frame_equal
from typer.testing import CliRunner, Result

from simharness import backends, config, engine, runner, store
from simharness.cli import app
from simharness.errors import RunDirError
from simharness.games import registry

pytestmark = pytest.mark.usefixtures("in_repo")


def _run(cfg: Path, out: Path, *extra: str) -> Result:
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(out), "--quiet", *extra])
    assert result.exit_code == 0, result.output
    return result


def _tables(run_dir: Path) -> dict[str, pl.DataFrame]:
    run = store.open_run(run_dir)
    return {t: run.table(t) for t in run.tables}


def _assert_same(a: Path, b: Path) -> None:
    ta, tb = _tables(a), _tables(b)
    assert ta.keys() == tb.keys() == {"games", "players"}
    for name in ta:
        assert_frame_equal(ta[name], tb[name])


def test_hive_layout_provenance_and_strategy_column(tmp_path: Path) -> None:
    cfg = small_config(tmp_path)
    _run(cfg, tmp_path / "out")
    run_dir = tmp_path / "out" / "small"
    exp = config.load(cfg)
    for table in ("games", "players"):
        for v in ("cap-500", "no-cap"):
            files = sorted(p.name for p in (run_dir / table / f"variant={v}").iterdir())
            assert files == [f"part-{g:010d}.parquet" for g in range(0, 300, 50)]
    meta = json.loads(
        pq.read_metadata(run_dir / "players" / "variant=no-cap" / "part-0000000050.parquet").metadata[
            b"simharness"
        ]
    )
    assert meta["config_hash"] == exp.config_hash
    assert (meta["variant"], meta["table"], meta["first_game"], meta["count"], meta["rows"]) == (
        "no-cap",
        "players",
        50,
        50,
        200,
    )
    assert meta["seed"] == 11 and meta["rules"]["payout_cap"] == "none"
    assert meta["simharness_version"] and "git_commit" in meta
    assert [s["knobs"] for s in meta["lineup"]] == [s.knobs for s in exp.lineup]

    run = store.open_run(run_dir)
    m = run.manifest
    assert (m.game, m.name, m.seed, m.games, m.duplicate, m.complete) == (
        "sugoroku",
        "small",
        11,
        300,
        False,
        True,
    )
    assert m.variants["cap-500"]["payout_cap"] == 500
    assert [(s.slot, s.strategy, s.version) for s in m.lineup] == [
        (0, "naive", 1),
        (1, "greedy", 1),
        (2, "naive", 1),
        (3, "random", 1),
    ]
    assert m.provenance["config_hash"] == exp.config_hash

    players = run.table("players")
    assert players.columns[:6] == ["variant", "game", "deal", "seat", "player", "strategy"]
    assert players.height == 2 * 300 * 4
    names = dict(enumerate(["naive", "greedy", "naive", "random"]))
    assert players["strategy"].to_list() == [names[p] for p in players["player"].to_list()]
    assert players.group_by("variant", "game").agg(pl.len())["len"].unique().to_list() == [4]
    games = run.table("games")
    assert games["variant"].to_list() == ["cap-500"] * 300 + ["no-cap"] * 300
    assert games["game"].to_list() == list(range(300)) * 2


def test_shards_equal_one_engine_batch_and_jobs_do_not_matter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = small_config(tmp_path)
    _run(cfg, tmp_path / "j1", "--jobs", "1")
    monkeypatch.delenv("DASK_SCHEDULER_ADDRESS", raising=False)  # dask: a LocalCluster of 2 processes
    for backend in backends.Backend:
        _run(cfg, tmp_path / backend.value, "--jobs", "2", "--backend", backend.value)
        _assert_same(tmp_path / "j1" / "small", tmp_path / backend.value / "small")
    exp = config.load(cfg)
    whole = engine.play_batch(
        "sugoroku", exp.variants["no-cap"], [s.knobs for s in exp.lineup], seed=11, first_game=0, count=300
    )
    games = store.open_run(tmp_path / "loky" / "small").table("games")
    assert_frame_equal(games.filter(variant="no-cap").drop("variant"), whole["games"])


def test_resume_after_lost_shards_and_a_leftover_temp_file(tmp_path: Path) -> None:
    cfg = small_config(tmp_path)
    _run(cfg, tmp_path / "ref")
    out = tmp_path / "out"
    shutil.copytree(tmp_path / "ref", out)
    run_dir = out / "small"
    lost = [
        run_dir / "games" / "variant=no-cap" / "part-0000000100.parquet",
        run_dir / "players" / "variant=cap-500" / "part-0000000250.parquet",
        run_dir / "players" / "variant=no-cap" / "part-0000000000.parquet",
    ]
    kept = run_dir / "games" / "variant=no-cap" / "part-0000000150.parquet"
    kept_stat = kept.stat()
    half = lost[0].read_bytes()[:200]
    for p in lost:
        p.unlink()
    tmp = lost[0].with_name(f".{lost[0].name}.999.tmp")
    tmp.write_bytes(half)  # a write the kill interrupted
    manifest = json.loads((run_dir / "manifest.json").read_text())
    (run_dir / "manifest.json").write_text(json.dumps({**manifest, "complete": False}))
    _run(cfg, out)
    assert all(p.exists() for p in lost) and not tmp.exists()
    assert (kept.stat().st_ino, kept.stat().st_mtime_ns) == (kept_stat.st_ino, kept_stat.st_mtime_ns)
    assert store.open_run(run_dir).complete
    _assert_same(tmp_path / "ref" / "small", run_dir)


def test_a_killed_process_resumes_to_the_uninterrupted_result(tmp_path: Path) -> None:
    cfg = tmp_path / "kill.toml"
    cfg.write_text(
        SMALL.format(games=30000, seed=5, shard_size=500).replace(
            '"naive", "greedy", "naive", "random"', '"naive", "naive", "naive", "random"'
        )
    )
    out = tmp_path / "out"
    cmd = [
        sys.executable,
        "-m",
        "simharness.cli",
        "run",
        str(cfg),
        "--out",
        str(out),
        "--jobs",
        "1",
        "--quiet",
    ]
    proc = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    run_dir = out / "small"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if len(list(run_dir.glob("players/*/part-*.parquet"))) >= 3:
            break
        time.sleep(0.01)
    if proc.poll() is not None:
        pytest.skip(f"the run ended before it could be killed: {proc.stderr.read()!r}")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    with pytest.raises(RunDirError, match="the run is not finished"):
        store.open_run(run_dir)
    killed = store.open_run(run_dir, partial=True)
    assert not killed.complete and killed.warning is not None
    assert len(list(run_dir.glob("players/*/part-*.parquet"))) < 2 * 60
    subprocess.run(cmd, check=True)
    _run(cfg, tmp_path / "ref", "--jobs", "1")
    _assert_same(tmp_path / "ref" / "small", run_dir)


def test_changed_config_is_an_error_unless_forced(tmp_path: Path) -> None:
    cfg = small_config(tmp_path)
    out = tmp_path / "out"
    _run(cfg, out)
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(out), "--seed", "12", "-q"])
    assert result.exit_code == 2
    assert "holds a run of a different config (changed: seed)" in result.stderr
    # the message names the option, not only the variant or slot
    changed = tmp_path / "changed.toml"
    text = cfg.read_text().replace("payout_cap = 500", "payout_cap = 600")
    changed.write_text(
        text.replace('"greedy"', '{ strategy = "greedy", label = "greedy", knobs = { offset = "always" } }')
    )
    result = CliRunner().invoke(app, ["run", str(changed), "--out", str(out), "-q"])
    assert result.exit_code == 2
    assert "(changed: variants.cap-500.payout_cap, lineup[1].knobs.offset)" in result.stderr, result.stderr
    assert store.open_run(out / "small").manifest.seed == 11
    _run(cfg, out, "--seed", "12", "--force")
    assert store.open_run(out / "small").manifest.seed == 12


def test_corrupt_and_foreign_shards_are_reported_by_name_and_kept(tmp_path: Path) -> None:
    cfg = small_config(tmp_path)
    out = tmp_path / "out"
    _run(cfg, out)
    _run(cfg, tmp_path / "other", "--seed", "99")
    run_dir = out / "small"
    manifest = run_dir / "manifest.json"

    victim = run_dir / "games" / "variant=cap-500" / "part-0000000050.parquet"
    good = victim.read_bytes()
    victim.write_bytes(good[: len(good) // 2])
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(out), "-q"])
    assert result.exit_code == 2
    assert f"error: {victim}: corrupt Parquet file" in result.stderr
    assert victim.read_bytes() == good[: len(good) // 2]

    shutil.copy(tmp_path / "other" / "small" / "games" / "variant=cap-500" / victim.name, victim)
    with pytest.raises(RunDirError, match="belongs to another experiment") as e:
        runner.run(config.load(cfg), out)
    assert e.value.file == victim

    victim.write_bytes(good)
    stray = run_dir / "games" / "variant=cap-500" / "part-0000000007.parquet"
    shutil.copy(victim, stray)
    with pytest.raises(RunDirError, match="not a shard of this run") as e:
        runner.run(config.load(cfg), out)
    assert e.value.file == stray
    stray.unlink()
    pl.DataFrame({"x": [1]}).write_parquet(victim)
    with pytest.raises(RunDirError, match="not a simharness shard") as e:
        store.open_run(run_dir) and runner.run(config.load(cfg), out)
    assert e.value.file == victim
    assert manifest.exists()


def test_open_run_errors(tmp_path: Path) -> None:
    with pytest.raises(RunDirError, match="not a run directory"):
        store.open_run(tmp_path)


def test_duplicate_play_rotates_the_lineup_over_each_deal(tmp_path: Path) -> None:
    cfg = tmp_path / "dup.toml"
    cfg.write_text(
        SMALL.format(games=40, seed=3, shard_size=8).replace("shard_size", "duplicate = true\nshard_size")
    )
    _run(cfg, tmp_path / "out")
    players = store.open_run(tmp_path / "out" / "small").table("players").filter(variant="cap-500")
    assert players.n_unique("deal") == 10
    # every deal: each lineup slot (and so each strategy in it) plays each seat exactly once
    per_deal = players.group_by("deal", "player").agg(pl.col("seat").sort())
    assert per_deal["seat"].to_list() == [[0, 1, 2, 3]] * 40
    names = ["naive", "greedy", "naive", "random"]
    assert players["strategy"].to_list() == [names[p] for p in players["player"].to_list()]


def test_one_writer_per_run_directory_and_known_backends(tmp_path: Path) -> None:
    import fcntl

    cfg = small_config(tmp_path)
    run_dir = tmp_path / "out" / "small"
    run_dir.mkdir(parents=True)
    with open(run_dir / ".lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(RunDirError, match="another simharness process is writing"):
            runner.run(config.load(cfg), tmp_path / "out")
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path / "out"), "--backend", "lokyy"])
    assert result.exit_code == 2
    assert result.stderr.startswith(
        'error: --backend: unknown backend "lokyy"; expected one of: threading, loky, multiprocessing, dask'
    )
    cfg.write_text(cfg.read_text().replace("shard_size", 'backend = "threads"\nshard_size'))
    result = CliRunner().invoke(app, ["validate", str(cfg)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f'error: {cfg}: backend: unknown backend "threads"')
    assert not list(run_dir.rglob("*.parquet"))


def _children(pid: int) -> list[int]:
    """The live (not zombie) processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, ppid = stat.read_text().rsplit(")", 1)[1].split()[:2]
        except OSError:
            continue
        if int(ppid) == pid and state != "Z":
            out.append(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc")
@pytest.mark.parametrize("backend", ["loky", "multiprocessing"])
def test_worker_processes_stop_with_a_killed_run(tmp_path: Path, backend: str) -> None:
    cfg = tmp_path / "kill.toml"
    cfg.write_text(SMALL.format(games=200_000, seed=5, shard_size=500))
    run_dir = tmp_path / "out" / "small"
    cmd = [sys.executable, "-m", "simharness.cli", "run", str(cfg), "--out", str(tmp_path / "out")]
    proc = subprocess.Popen([*cmd, "--jobs", "2", "--backend", backend, "-q"], stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(list(run_dir.glob("players/*/part-*.parquet"))) < 4:
            time.sleep(0.02)
        workers = _children(proc.pid)
        assert proc.poll() is None and workers, "the run ended or had no worker processes before the kill"
        os.kill(proc.pid, signal.SIGKILL)  # the run's process only: its workers are left to themselves
        proc.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(map(_alive, workers)):
            time.sleep(0.05)
        assert not [Path(f"/proc/{p}/cmdline").read_text() for p in workers if _alive(p)]
        shards = len(list(run_dir.glob("players/*/part-*.parquet")))
        time.sleep(1)
        assert len(list(run_dir.glob("players/*/part-*.parquet"))) == shards < 2 * 400
    finally:
        for pid in [proc.pid, *workers]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_dask_cluster_plays_the_rows_of_a_threaded_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real scheduler and two worker processes on 127.0.0.1, found through DASK_SCHEDULER_ADDRESS;
    the workers return the shards' files and this process writes them."""
    from distributed import Client

    scheduler = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0"]
    worker = [sys.executable, "-m", "distributed.cli.dask_worker"]
    scheduler_file = tmp_path / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": tmp_path}
    procs = [
        subprocess.Popen([*scheduler, "--no-dashboard", "--scheduler-file", str(scheduler_file)], **quiet)
    ]
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not scheduler_file.exists():
            time.sleep(0.05)
        address = json.loads(scheduler_file.read_text())["address"]
        for i in range(2):
            procs.append(
                subprocess.Popen(
                    [*worker, address, "--no-nanny", "--nthreads", "1", "--no-dashboard", "--name", f"w{i}",
                     "--local-directory", str(tmp_path / f"w{i}")],
                    **quiet,
                )
            )  # fmt: skip
        with Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=60)
            assert len(client.scheduler_info()["workers"]) == 2
        cfg = small_config(tmp_path)
        _run(cfg, tmp_path / "threads", "--backend", "threading")
        monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", address)
        _run(cfg, tmp_path / "dask", "--backend", "dask")
        _assert_same(tmp_path / "threads" / "small", tmp_path / "dask" / "small")
        # The address on the command line wins over the environment's.
        monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://127.0.0.1:9")
        _run(cfg, tmp_path / "dask2", "--backend", "dask", "--scheduler", address)
        _assert_same(tmp_path / "threads" / "small", tmp_path / "dask2" / "small")
    finally:
        for p in procs:
            p.kill()
            p.wait(timeout=30)


def test_an_unreachable_dask_scheduler_is_a_clear_error(tmp_path: Path) -> None:
    cfg = small_config(tmp_path)
    args = ["run", str(cfg), "--out", str(tmp_path), "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "error: --scheduler: cannot reach the Dask scheduler at tcp://127.0.0.1:9"
    )


def test_a_shard_is_played_in_keyed_sub_batches_that_report_progress(tmp_path: Path) -> None:
    exp = config.load(small_config(tmp_path))
    rules = exp.variants["cap-500"]
    v = runner._Variant(
        tmp_path, "sugoroku", "cap-500", rules, [s.knobs for s in exp.lineup],
        [s.strategy for s in exp.lineup], 11, False, {},
    )  # fmt: skip
    # Progress from inside the shard, in games: up to SUB_BATCHES sub-batches, each of at least the
    # game's MIN_SHARD games (an engine call has a fixed cost), so a small shard is one call.
    assert runner.SUB_BATCHES == 8 and registry.min_shard("sugoroku") == 5000
    for count, want in ((48000, [6000] * 8), (12500, [5000, 5000, 2500]), (50, [50])):
        steps: list[int] = []
        shard = runner._Shard(100, count, ("games",), exp.config_hash)
        assert runner._play_shard(v, shard, steps.append) == count
        assert steps == want
        whole = engine.play_batch("sugoroku", rules, v.knobs, seed=11, first_game=100, count=count)["games"]
        assert_frame_equal(pl.read_parquet(store.shard_path(tmp_path, "games", "cap-500", 100)), whole)
