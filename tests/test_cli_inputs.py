"""One exit-code convention for wrong input: 2 with a message naming the file, never a traceback
(unreadable files, paths the file system refuses, a full disk), 1 for a hand that does not win,
and batch files answered row by row with line numbers."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from harness_helpers import REPO, in_repo, small_config  # noqa: F401 (in_repo: a fixture)
from typer.testing import CliRunner, Result

from simharness.cli import app

pytestmark = pytest.mark.usefixtures("in_repo")


def _cli(*args: object) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def test_paths_the_file_system_refuses_are_wrong_input(tmp_path: Path) -> None:
    cfg = small_config(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = _cli("run", cfg, "--out", blocker, "-q")
    assert result.exit_code == 2
    assert result.stderr == f"error: {blocker / 'small'}: Not a directory\n"
    assert _cli("run", cfg, "--out", tmp_path / "out", "-q").exit_code == 0
    folder = tmp_path / "a-folder"
    folder.mkdir()
    result = _cli("report", tmp_path / "out" / "small", "--html", folder)
    assert result.exit_code == 2
    assert result.stderr == f"error: {folder}: Is a directory\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through read-only permissions")
def test_a_read_only_output_folder_is_wrong_input(tmp_path: Path) -> None:
    cfg = small_config(tmp_path)
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    result = _cli("run", cfg, "--out", locked, "-q")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {locked / 'small'}: Permission denied")


def test_a_full_disk_names_the_file(tmp_path: Path) -> None:
    import resource

    cfg = small_config(tmp_path)

    def small_files() -> None:  # as `ulimit -f`: any file beyond 10 kB (a shard, not the manifest) fails
        resource.setrlimit(resource.RLIMIT_FSIZE, (10_000, 10_000))

    done = subprocess.run(
        [sys.executable, "-m", "simharness.cli", "run", str(cfg), "--out", str(tmp_path / "out"), "-q"],
        preexec_fn=small_files,
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"error: {tmp_path / 'out' / 'small'}/")
    assert done.stderr.rstrip().endswith(".parquet: File too large")
    manifest = json.loads((tmp_path / "out" / "small" / "manifest.json").read_text())
    assert manifest["complete"] is False


def test_unreadable_replay_files_exit_2_naming_them(tmp_path: Path) -> None:
    not_xml = tmp_path / "notes.mjlog"
    not_xml.write_text("hello, not a log")
    truncated = tmp_path / "cut.mjlog"
    truncated.write_text('<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="a')
    cut_gzip = tmp_path / "cut.mjlog.gz"
    cut_gzip.write_bytes(gzip.compress(b'<mjloggm ver="2.3"><GO type="169"/>' * 50)[:40])
    for path in (not_xml, truncated, cut_gzip):
        result = _cli("replay", "riichi", path)
        assert result.exit_code == 2, (path, result.output)
        assert result.stderr.startswith(f"error: {path}: ")


def test_batch_files_are_answered_row_by_row(tmp_path: Path) -> None:
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(bytes(range(256)))
    for cmd in (["shanten"], ["score", "riichi"]):
        result = _cli(*cmd, "--batch", binary)
        assert result.exit_code == 2
        assert result.stderr.startswith(f"error: --batch: {binary}: not UTF-8 text")

    hands = tmp_path / "hands.jsonl"
    hands.write_text('"123m456p789s1122z"\n{"hand": "12x"}\nnot json\n\n[1]\n"119m19p19s1234567z"\n')
    result = _cli("shanten", "--batch", hands)
    assert result.exit_code == 2
    rows = [json.loads(x) for x in result.stdout.splitlines()]
    assert sorted((r["line"], r.get("shanten"), r.get("field")) for r in rows) == [
        (1, 0, None),
        (2, None, "hand"),
        (3, None, "line"),
        (5, None, "hand"),
        (6, -1, None),
    ]
    assert f"error: {hands}:3: line: not JSON" in result.stderr

    wins = tmp_path / "wins.jsonl"
    wins.write_text(
        '{"hand": "23567m345p678s22p", "win": "4m", "seat_wind": "S"}\n'
        '{"hand": "123m456p789s1122z", "win": "2z"}\n'
    )
    result = _cli("score", "riichi", "--batch", wins)
    # a hand that does not win is answered as `score riichi HAND` answers it: exit 1
    assert result.exit_code == 1
    rows = [json.loads(x) for x in result.stdout.splitlines()]
    assert [(r["line"], r.get("points"), r.get("field")) for r in rows] == [
        (1, 2000, None),
        (2, None, "agari"),
    ]


def test_visible_tiles_count_the_hands_own_copies() -> None:
    result = _cli("shanten", "123m456p789s1222z", "--visible", "2z2z")
    assert result.exit_code == 2
    assert "visible: 2 copies of 2z with the hand's 3; there are only 4" in result.stderr
    assert _cli("shanten", "123m456p789s1222z", "--visible", "2z").exit_code == 0
