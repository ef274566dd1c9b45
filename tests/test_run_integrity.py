"""Reading a run never misleads: foreign or extra shards are refused by name, an unfinished run is
refused unless asked for (then reported on common deals with a warning everywhere), and a finished
run's manifest is never touched by a re-run that has nothing to do or fails."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
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


TINY = """\
name = "tiny"
game = "sugoroku"
games = 20
seed = 5
shard_size = 20
players = ["naive", "greedy", "naive", "random"]
"""


def _tiny(tmp_path: Path) -> Path:
    """A run of one shard per table (20 games)."""
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY)
    assert _cli("run", cfg, "--out", tmp_path, "-q").exit_code == 0
    return tmp_path / "tiny"


def _each_bit_flipped(shard: Path) -> Iterator[int]:
    """Flips one bit of each byte of ``shard`` in turn (bit ``at % 8`` of byte ``at``, so every bit
    position in turn), yielding the byte's offset while it is flipped."""
    data = shard.read_bytes()
    fd = os.open(shard, os.O_RDWR)
    try:
        for at, byte in enumerate(data):
            os.pwrite(fd, bytes([byte ^ 1 << at % 8]), at)
            yield at
            os.pwrite(fd, bytes([byte]), at)
    finally:
        os.close(fd)


def test_every_flipped_bit_of_a_shard_is_refused_naming_it(tmp_path: Path) -> None:
    """Each byte of a shard, data pages and footer, gets one bit flipped in turn; each time, reading
    the table is an error naming the file, never data (the same or other)."""
    run_dir = _tiny(tmp_path)
    run = store.open_run(run_dir)
    want = run.table("players")
    shard = store.shard_path(run_dir, "players", "base", 0)
    for at in _each_bit_flipped(shard):
        try:
            got = run.table("players")
        except RunDirError as e:
            assert e.file == shard and e.message.startswith("corrupt Parquet file"), (at, e)
        else:
            pytest.fail(f"byte {at} flipped: read as {'the same' if got.equals(want) else 'other'} data")
    assert run.table("players").equals(want)


def _without_checksums(run_dir: Path) -> list[Path]:
    """Rewrites every shard as simharness wrote them before they carried a checksum; returns them."""
    shards = sorted(run_dir.rglob("*.parquet"))
    for path in shards:
        table = pq.read_table(path)
        meta = json.loads(table.schema.metadata[store.META_KEY])
        del meta["checksum"]
        table = table.replace_schema_metadata({store.META_KEY: json.dumps(meta)})
        pq.write_table(table, path, compression="zstd")
    assert all(store.CHECKSUM_KEY not in (pq.read_metadata(p).metadata or {}) for p in shards)
    return shards


def test_a_damaged_shard_without_checksum_never_crashes_the_reader(tmp_path: Path) -> None:
    """Polars panicked or aborted the process on some damaged files; a shard without a checksum is
    decoded by pyarrow, which refuses what it can tell (the rest cannot be told from data)."""
    run_dir = _tiny(tmp_path)
    (shard,) = _without_checksums(run_dir / "players")
    run = store.open_run(run_dir)
    read = refused = 0
    for at in _each_bit_flipped(shard):
        try:
            run.table("players")
            read += 1
        except RunDirError as e:  # corrupt, or metadata that disagrees with itself or its name
            assert e.file == shard, (at, e)
            refused += 1
    assert read and refused


def _flip_a_data_page(shard: Path) -> None:
    """One bit in the middle of the shard's data pages (between its magic number and its footer)."""
    data = bytearray(shard.read_bytes())
    footer = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    data[(4 + footer) // 2] ^= 0x10
    shard.write_bytes(bytes(data))


def test_every_command_refuses_a_damaged_shard(runs: tuple[Path, Path], tmp_path: Path) -> None:
    run_dir = _copy(runs[0], tmp_path)
    shard = run_dir / "players" / "variant=cap-500" / "part-0000000000.parquet"
    _flip_a_data_page(shard)
    commands = {
        "report": ["report", run_dir],
        "compare": ["compare", run_dir, "--a", "naive", "--b", "greedy", "--variant", "cap-500"],
        "show": ["show", run_dir, "--game", "7", "--variant", "cap-500"],
        # a finished run re-run: its shards are read again, so it is not "finished"
        "run": ["run", small_config(tmp_path), "--out", tmp_path, "-q"],
    }
    for name, args in commands.items():
        result = _cli(*args)
        assert result.exit_code == 2, (name, result.output)
        assert result.stderr.startswith(
            f"error: {shard}: corrupt Parquet file (its SHA-256 does not match"
        ), name


def test_shards_without_checksums_are_still_read_with_a_note(runs: tuple[Path, Path], tmp_path: Path) -> None:
    """A run written before shards carried checksums reads as before (decoded by pyarrow)."""
    run_dir = _copy(runs[0], tmp_path)
    shards = _without_checksums(run_dir)
    for table in ("games", "players"):
        assert store.open_run(run_dir).table(table).equals(store.open_run(runs[0]).table(table))
    old, new = _cli("report", runs[0], "--json"), _cli("report", run_dir, "--json")
    assert new.exit_code == 0, new.output
    assert json.loads(new.stdout)["variants"] == json.loads(old.stdout)["variants"]
    assert f"note: {len(shards)} shards of this run carry no checksum" in " ".join(new.stderr.split())
    assert store.open_run(run_dir).note is not None and store.open_run(runs[0]).note is None


def test_shards_are_the_same_bytes_whatever_the_workers(tmp_path: Path) -> None:
    cfg = small_config(tmp_path)
    for jobs in ("1", "2"):
        assert _cli("run", cfg, "--out", tmp_path / jobs, "--jobs", jobs, "-q").exit_code == 0
    one, two = tmp_path / "1" / "small", tmp_path / "2" / "small"
    names = sorted(p.relative_to(one) for p in one.rglob("*.parquet"))
    assert names == sorted(p.relative_to(two) for p in two.rglob("*.parquet")) and len(names) == 24
    assert all((one / n).read_bytes() == (two / n).read_bytes() for n in names)


def test_the_manifest_records_the_libraries_that_write_the_bytes(runs: tuple[Path, Path]) -> None:
    import polars
    import pyarrow

    made = store.open_run(runs[0]).manifest.provenance
    assert (made["pyarrow_version"], made["polars_version"]) == (pyarrow.__version__, polars.__version__)


def test_force_removes_only_the_runs_own_shards(runs: tuple[Path, Path], tmp_path: Path) -> None:
    run_dir = _copy(runs[0], tmp_path)
    cfg = small_config(tmp_path)
    # another config for the same directory: variant cap-500 becomes cap-400
    other = tmp_path / "other.toml"
    other.write_text(cfg.read_text().replace("cap-500]\npayout_cap = 500", "cap-400]\npayout_cap = 400"))
    mine = run_dir / "players" / "variant=cap-500" / "mine.parquet"
    shutil.copy(run_dir / "players" / "variant=cap-500" / "part-0000000000.parquet", mine)
    before = sorted(run_dir.rglob("*"))
    result = _cli("run", cfg, "--out", tmp_path, "-q")
    assert result.stderr.startswith(f"error: {mine}: not a shard of this run's plan")
    result = _cli("run", other, "--out", tmp_path, "--force", "-q")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {mine}: not a shard of the run in this directory")
    assert sorted(run_dir.rglob("*")) == before  # refused before anything was removed

    kept = [mine.rename(mine.with_suffix(".bak")), run_dir / "notes.txt", run_dir / "show" / "x.html"]
    kept[1].write_text("mine")
    kept[2].parent.mkdir()
    kept[2].write_text("<p>an old page</p>")
    result = _cli("run", other, "--out", tmp_path, "--force")
    assert result.exit_code == 0, result.output
    said = " ".join(result.stderr.split())
    assert "--force removed the previous run; kept 3 other files in" in said
    assert "notes.txt, players/variant=cap-500/mine.bak, show/x.html" in said
    assert all(p.exists() for p in kept)
    # the old variant's shards are gone, with their folders, but for the user's file
    assert sorted(p.relative_to(run_dir).as_posix() for p in run_dir.rglob("variant=cap-500")) == [
        "players/variant=cap-500"
    ]
    assert store.open_run(run_dir).variants == ["cap-400", "no-cap"]


def test_no_file_is_written_through_a_link_in_the_run_directory(
    runs: tuple[Path, Path], tmp_path: Path
) -> None:
    run_dir = _copy(runs[0], tmp_path)
    cfg = small_config(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    lock = run_dir / ".lock"
    lock.unlink()
    lock.symlink_to(victim)
    result = _cli("run", cfg, "--out", tmp_path, "-q")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {lock}: is a symbolic link")
    lock.unlink()

    # the temporary file of the manifest's next write, planted as a link (this process writes it)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    (run_dir / "manifest.json").write_text(json.dumps({**manifest, "complete": False}))
    planted = run_dir / f".manifest.json.{os.getpid()}.tmp"
    planted.symlink_to(victim)
    assert _cli("run", cfg, "--out", tmp_path, "-q").exit_code == 0
    assert not (run_dir / "manifest.json").is_symlink() and not planted.exists()

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (run_dir / "show").symlink_to(elsewhere, target_is_directory=True)
    result = _cli("show", run_dir, "--game", "3")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {run_dir / 'show'}: is a symbolic link")
    (run_dir / "show").unlink()
    (run_dir / "show").mkdir()
    page = run_dir / "show" / "cap-500-game3.html"
    page.symlink_to(victim)
    result = _cli("show", run_dir, "--game", "3")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {page}: is a symbolic link")
    assert victim.read_text() == "keep me" and not any(elsewhere.iterdir())


def _set(data: dict, path: str, value: object) -> None:
    """Sets ``value`` at a config path like ``lineup[3].strategy`` or ``variants.cap-500.payout_cap``."""
    keys: list[str | int] = [int(k) if k.isdigit() else k for k in re.split(r"\.|\[|\]\.?", path) if k]
    for k in keys[:-1]:
        data = data[k]
    data[keys[-1]] = value


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("duplicate", True),
        ("game", "chess"),
        ("seed", 12),
        ("lineup[3].strategy", "call-ha0py"),
        ("lineup[1].knobs.offset", "always"),
        ("variants.cap-500.payout_cap", 400),
    ],
)
def test_an_edited_manifest_is_refused_naming_the_field(
    runs: tuple[Path, Path], tmp_path: Path, field: str, value: object
) -> None:
    run_dir = _copy(runs[0], tmp_path)
    path = run_dir / "manifest.json"
    original = json.loads(path.read_text())
    manifest = json.loads(path.read_text())
    _set(manifest, field, value)
    path.write_text(json.dumps(manifest))
    result = _cli("report", run_dir)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {path}: {field}: differs from the experiment the manifest's")
    # edited where the identity is recorded too, or in a manifest that records none: the hash disagrees
    _set(manifest["identity"], field, value)
    path.write_text(json.dumps(manifest))
    assert _cli("report", run_dir).stderr.startswith(
        f"error: {path}: config_hash: is {original['config_hash']}"
    )
    del manifest["identity"]
    path.write_text(json.dumps(manifest))
    assert _cli("report", run_dir).stderr.startswith(
        f"error: {path}: config_hash: is {original['config_hash']}"
    )
    del original["identity"]  # as written before the identity was recorded: still read
    path.write_text(json.dumps(original))
    assert _cli("report", run_dir).exit_code == 0


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("games", "300", "Input should be a valid integer, got '300'"),
        ("shard_size", 0, "Input should be greater than 0, got 0"),
        ("lineup", 5, "Input should be a valid array, got 5"),
        ("lineup[0].knobs", None, "Input should be an object, got None"),
        ("variants", [], "Input should be an object, got []"),
        ("complete", "yes", "Input should be a valid boolean, got 'yes'"),
        # A sequential test's record is read whole: its settings are its first fields.
        ("sequential", {"games": 300}, "Field required"),
        ("tables", None, "Input should be a valid array, got None"),
    ],
)
def test_a_malformed_manifest_is_an_error_naming_the_field(
    runs: tuple[Path, Path], tmp_path: Path, field: str, value: object, expected: str
) -> None:
    run_dir = _copy(runs[0], tmp_path)
    path = run_dir / "manifest.json"
    manifest = json.loads(path.read_text())
    _set(manifest, field, value)
    path.write_text(json.dumps(manifest))
    where = "sequential.a" if field == "sequential" else field
    for command in (["report", run_dir], ["show", run_dir, "--game", "1"]):
        result = _cli(*command)
        assert result.exit_code == 2, result.output
        assert result.stderr == f"error: {path}: {where}: malformed run manifest: {expected}\n"


def test_report_partial_right_after_an_early_kill(runs: tuple[Path, Path], tmp_path: Path) -> None:
    """What a kill early in a run leaves: no shard yet, a variant without shards, a table without
    shards; each is told as such, never a traceback."""
    states = {
        "no shard": lambda d: [p.unlink() for p in d.rglob("*.parquet")],
        "an empty variant": lambda d: [p.unlink() for p in d.rglob("variant=no-cap/*.parquet")],
        "a missing table": lambda d: shutil.rmtree(d / "games"),
    }
    for name, leave in states.items():
        run_dir = _copy(runs[0], tmp_path / name.replace(" ", "-"))
        manifest = json.loads((run_dir / "manifest.json").read_text())
        (run_dir / "manifest.json").write_text(json.dumps({**manifest, "complete": False}))
        leave(run_dir)
        result = _cli("report", run_dir, "--partial")
        assert result.exit_code == 2, (name, result.output)
        assert result.stderr.startswith(f"error: {run_dir}: the run is not finished"), name
        assert "no game is in every variant and table yet, so there is nothing to read" in result.stderr


def test_report_partial_after_a_real_kill_at_the_start(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    from harness_helpers import REPO

    cfg = small_config(tmp_path)
    args = ["run", str(cfg), "--games", "100000", "--out", str(tmp_path), "-q"]
    cmd = [sys.executable, "-m", "simharness.cli", *args]
    proc = subprocess.Popen(cmd, cwd=REPO, start_new_session=True, stderr=subprocess.DEVNULL)
    manifest = tmp_path / "small" / "manifest.json"
    try:
        deadline = time.monotonic() + 60
        while not manifest.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.005)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert manifest.exists()
    result = _cli("report", tmp_path / "small", "--partial")
    assert result.exit_code in (0, 2), result.output
    assert result.exit_code == 0 or "no game is in every variant and table yet" in result.stderr
    assert not result.exception or isinstance(result.exception, SystemExit)


def test_a_full_disk_under_report_html_names_the_file(
    runs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins
    import errno
    import io

    page = tmp_path / "report.html"
    real_open = io.open

    class Full(io.StringIO):
        def write(self, _: str) -> int:  # as a full disk fails a write: an OSError naming no file
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def open_on_a_full_disk(file: object, mode: str = "r", *args: object, **kwargs: object) -> object:
        if file in (page, str(page)) and "w" in mode:
            return Full()
        return real_open(file, mode, *args, **kwargs)  # type: ignore[call-overload]

    for module in (builtins, io):
        monkeypatch.setattr(module, "open", open_on_a_full_disk)
    result = _cli("report", runs[0], "--html", page)
    assert result.exit_code == 2
    assert result.stderr == f"error: {page}: No space left on device\n"
