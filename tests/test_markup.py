"""Text the user wrote (labels, script names, paths) is printed as written: rich would take "[/]"
or "[bold]" for markup, and fail with a MarkupError traceback or swallow the text."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_helpers import in_repo  # noqa: F401 (a fixture)
from typer.testing import CliRunner

from simharness.cli import app

A, B = "a[/]b", "[bold]g"
CONFIG = f"""\
name = "markup"
game = "sugoroku"
games = 40
seed = 3
shard_size = 20
players = [{{ strategy = "naive", label = "{A}" }}, {{ strategy = "greedy", label = "{B}" }}]

[until]
a = "{A}"
b = "{B}"
metric = "final_points"
mu1 = 500.0
"""


def test_labels_that_look_like_markup_are_printed_as_written(tmp_path: Path) -> None:
    cfg = tmp_path / "markup.toml"
    cfg.write_text(CONFIG)
    out = tmp_path / "out"
    checked = CliRunner().invoke(app, ["validate", str(cfg)])
    assert checked.exit_code == 0, checked.output
    assert f"  player 0: {A} (v1, " in checked.output and f"  player 1: {B} (v1, " in checked.output
    ran = CliRunner().invoke(app, ["run", str(cfg), "--out", str(out), "--full"])
    assert ran.exit_code == 0, ran.output
    # the sequential test's line and a row of the strategy table
    assert f"sequential test {A} − {B} (final_points, base)" in ran.stdout
    assert f"│ {A} " in ran.stdout and f"│ {B} " in ran.stdout
    reported = CliRunner().invoke(app, ["report", str(out / "markup")])
    assert reported.exit_code == 0, reported.output
    assert f"│ {A} " in reported.stdout and f"│ {B} " in reported.stdout
    compared = CliRunner().invoke(app, ["compare", str(out / "markup"), "--a", A, "--b", B])
    assert compared.exit_code == 0, compared.output
    assert (
        f"{A} − {B} (win, variant base)" in compared.stdout
        and f"mean {A} (deal-clustered CI)" in compared.stdout
    )


def test_script_file_names_that_look_like_markup_are_listed_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "strategies" / "sugoroku"
    folder.mkdir(parents=True)
    (folder / "[bold]w.toml").write_text('name = "x[/]y"\ngame = "sugoroku"\n')
    (folder / "[i]q.toml").write_text('name = "q"\ngame = "sugoroku"\n[knobs]\nbad = 1\n')
    monkeypatch.chdir(tmp_path)
    listed = CliRunner().invoke(app, ["strategies", "sugoroku", "--knobs"])
    assert listed.exit_code == 0, listed.output
    assert "sugoroku/[bold]w (name x[/]y)  v1  strategies/sugoroku/[bold]w.toml" in listed.stdout
    assert "sugoroku/[i]q  INVALID  strategies/sugoroku/[i]q.toml" in listed.stdout


def test_init_names_a_folder_that_looks_like_markup_as_written(tmp_path: Path) -> None:
    folder = tmp_path / "[bold]exp"
    result = CliRunner().invoke(app, ["init", str(folder)])
    assert result.exit_code == 0, result.output
    assert f"wrote {folder / 'experiment.toml'}\n" in result.stdout
    assert f"next: cd {folder} && simharness run experiment.toml" in result.stdout
