"""A Dask scheduler address that is wrong, or a scheduler lost during a run, ends ``simharness run``
with a one-paragraph error naming the address and where it came from (exit status 2); a lost
scheduler keeps the shards written so far, and a rerun finishes the run. Real ``dask scheduler`` and
``dask worker`` processes on 127.0.0.1."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from harness_helpers import REPO, SMALL, in_repo, small_config  # noqa: F401 (in_repo: a fixture)
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from simharness import store
from simharness.cli import app

pytestmark = pytest.mark.usefixtures("in_repo")


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["run", *args, "-q"])
    return result.exit_code, result.stderr


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("foo", "missing port number in address 'foo'"),
        ("tcp://127.0.0.1:abc", "invalid literal for int() with base 10: 'abc'"),
        ("http://127.0.0.1:8786", "unknown address scheme 'http'"),
        ("tcp://127.0.0.1:99999", "port 99999 is not between 1 and 65535"),
    ],
)
def test_an_address_that_is_not_one_is_refused_naming_it(tmp_path: Path, address: str, why: str) -> None:
    code, err = _run(
        str(small_config(tmp_path)), "--out", str(tmp_path), "--backend", "dask", "--scheduler", address
    )
    assert code == 2
    assert err.startswith(f'error: --scheduler: "{address}" is not a Dask scheduler address ({why}')
    assert err.rstrip().endswith("expected e.g. tcp://HOST:8786") and len(err.splitlines()) == 1
    assert not (tmp_path / "small").exists() or not list((tmp_path / "small").rglob("*.parquet"))


def test_an_address_where_nothing_listens_is_refused_naming_where_it_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as s:  # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", address)
    code, err = _run(str(small_config(tmp_path)), "--out", str(tmp_path), "--backend", "dask")
    assert code == 2
    # Refused at once, not after Dask's client has retried for its connect timeout.
    assert err == (
        f"error: DASK_SCHEDULER_ADDRESS: cannot reach the Dask scheduler at {address}: "
        "connection refused: nothing listens there\n"
    )


def test_a_scheduler_lost_mid_run_stops_it_keeping_whole_shards_and_a_rerun_finishes_it(
    tmp_path: Path,
) -> None:
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": tmp_path}
    scheduler_file = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
         "--no-dashboard", "--scheduler-file", str(scheduler_file)],
        **quiet,
    )  # fmt: skip
    procs = [scheduler]
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not scheduler_file.exists():
            time.sleep(0.05)
        address = json.loads(scheduler_file.read_text())["address"]
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", address, "--no-nanny",
                 "--nthreads", "1", "--no-dashboard", "--local-directory", str(tmp_path / "w")],
                **quiet,
            )
        )  # fmt: skip
        cfg = tmp_path / "long.toml"
        cfg.write_text(SMALL.format(games=60_000, seed=5, shard_size=300))
        run_dir = tmp_path / "out" / "small"
        cmd = [sys.executable, "-m", "simharness.cli", "run", str(cfg), "--out", str(tmp_path / "out"), "-q"]
        run = subprocess.Popen(
            [*cmd, "--backend", "dask", "--scheduler", address], stderr=subprocess.PIPE, text=True, cwd=REPO
        )
        procs.append(run)
        deadline = time.monotonic() + 300
        while (
            time.monotonic() < deadline and run.poll() is None and len(list(run_dir.glob("players/*/*"))) < 4
        ):
            time.sleep(0.02)
        assert run.poll() is None, "the run ended before its scheduler was lost"
        scheduler.send_signal(signal.SIGKILL)
        _, err = run.communicate(timeout=120)
    finally:
        for p in procs:
            p.kill()
            p.wait(timeout=30)
    assert run.returncode == 2, err
    m = re.fullmatch(
        rf"error: --scheduler: lost the connection to the Dask scheduler at {re.escape(address)} during the "
        r"run; (\d+) of 400 shards kept; run the same command again to resume\n",
        err,
    )
    assert m is not None, err
    tables = ("games", "players")
    whole = set.intersection(
        *({p.relative_to(run_dir / t) for p in run_dir.glob(f"{t}/*/*")} for t in tables)
    )
    assert 4 <= int(m.group(1)) == len(whole) < 400
    # Nothing half written, and every file a valid shard of the plan (opening the run checks each).
    assert not list(run_dir.rglob("*.tmp"))
    assert store.open_run(run_dir, partial=True).warning is not None

    assert _run(str(cfg), "--out", str(tmp_path / "out"), "--backend", "threading")[0] == 0
    assert _run(str(cfg), "--out", str(tmp_path / "whole"), "--backend", "threading")[0] == 0
    a, b = store.open_run(run_dir), store.open_run(tmp_path / "whole" / "small")
    for table in tables:
        assert_frame_equal(a.table(table), b.table(table))
