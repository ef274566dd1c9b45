"""A shard's folder is fsynced once when the run has written its shards, not after every shard: before
the manifest says the run is complete, and on the way out of a run stopped by Ctrl-C, so that the
shards it keeps stay whole under their names after a crash of the machine too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness_helpers import in_repo, small_config  # noqa: F401  (in_repo: a fixture)
from rich.console import Console

from simharness import config, runner, store
from simharness.manifest import Manifest

pytestmark = pytest.mark.usefixtures("in_repo")

TABLES = ("games", "players")
VARIANTS = ("cap-500", "no-cap")


def _record(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """Logs every folder fsync and every manifest written, in order."""
    log: list[tuple[str, Any]] = []
    fsync_dir, write_manifest = store._fsync_dir, store.write_manifest

    def fsync(path: Path) -> None:
        log.append(("fsync", path))
        fsync_dir(path)

    def manifest(run_dir: Path, m: Manifest) -> None:
        log.append(("manifest", m.complete))
        write_manifest(run_dir, m)

    monkeypatch.setattr(store, "_fsync_dir", fsync)
    monkeypatch.setattr(store, "write_manifest", manifest)
    return log


def _folders(run_dir: Path) -> set[Path]:
    return {run_dir / t / f"variant={v}" for t in TABLES for v in VARIANTS}


def test_each_shard_folder_is_fsynced_once_before_the_run_is_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = _record(monkeypatch)
    exp = config.load(small_config(tmp_path))
    run_dir = runner.run(exp, tmp_path / "out", jobs=1, console=Console(quiet=True))
    synced = [p for kind, p in log if kind == "fsync" and p != run_dir]
    assert sorted(synced) == sorted(_folders(run_dir))  # once each, though each holds 6 shards
    complete = log.index(("manifest", True))
    assert all(log.index(("fsync", p)) < complete for p in synced)


def test_a_stopped_run_fsyncs_the_folders_of_the_shards_it_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = _record(monkeypatch)
    play_shard = runner._play_shard
    played: list[int] = []

    def interrupted(*args: Any) -> int:
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append(play_shard(*args))
        return played[-1]

    monkeypatch.setattr(runner, "_play_shard", interrupted)
    exp = config.load(small_config(tmp_path))
    with pytest.raises(runner.Interrupted) as stopped:
        runner.run(exp, tmp_path / "out", jobs=1, console=Console(quiet=True))
    assert stopped.value.kept == 3
    run_dir = tmp_path / "out" / exp.name
    assert {p for kind, p in log if kind == "fsync" and p != run_dir} == _folders(run_dir)
    assert ("manifest", True) not in log
