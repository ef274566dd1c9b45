"""The Python API (#26): the tutorial's code runs as written, and every call gives what the command line
gives on the same run."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

import simharness as sh
from simharness import config
from simharness.cli import app

REPO = Path(__file__).resolve().parent.parent
TUTORIAL = REPO / "docs" / "python-api.md"

CONFIG = """\
name = "{name}"
game = "suzume"
games = 300
seed = 4
duplicate = true
players = ["fastest", "defensive", "max-points"]

[variants.base]

[variants.no-red]
red_tiles = false
"""


def test_the_tutorial_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", TUTORIAL.read_text(), flags=re.S)
    assert len(blocks) >= 8
    scope: dict[str, object] = {"__name__": "__main__"}  # as in a notebook
    for block in blocks:
        exec(compile(block, str(TUTORIAL), "exec"), scope)
    assert (tmp_path / "results" / "cap" / "manifest.json").exists()
    assert (tmp_path / "cap.html").stat().st_size > 10_000
    assert (tmp_path / "results" / "bold" / "manifest.json").exists()


@pytest.fixture()
def both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[sh.Run, Path]:
    """The same config run once through the API and once through the CLI."""
    monkeypatch.chdir(REPO)
    (tmp_path / "api.toml").write_text(CONFIG.format(name="api"))
    (tmp_path / "cli.toml").write_text(CONFIG.format(name="cli"))
    run = sh.run(tmp_path / "api.toml", out=tmp_path, jobs=1, progress=False)
    done = CliRunner().invoke(
        app, ["run", str(tmp_path / "cli.toml"), "--out", str(tmp_path), "-q", "--jobs", "2"]
    )
    assert done.exit_code == 0, done.output
    return run, tmp_path / "cli"


def test_tables_report_and_comparison_equal_the_command_line(both: tuple[sh.Run, Path]) -> None:
    run, cli_dir = both
    cli = sh.open(cli_dir)
    for table in run.tables:
        ours, theirs = run.table(table).collect(), cli.table(table).collect()
        assert ours.height > 0 and ours.equals(theirs), table
    players = run.players.collect()
    assert players["variant"].dtype == pl.Enum(["base", "no-red"])
    assert set(players["strategy"]) == {"fastest", "defensive", "max-points"}
    assert run.games_per_variant == 300

    printed = CliRunner().invoke(app, ["report", str(cli_dir), "--json"])
    assert printed.exit_code == 0
    report = run.report()
    # The same report but for the run's name and folder (named in its paths and commands).
    expected = json.loads(printed.output.replace(str(cli_dir), "RUN").replace('"cli"', '"NAME"'))
    ours = json.loads(report.to_json().replace(str(run.path), "RUN").replace('"api"', '"NAME"'))
    # The run's own record differs in when and from which file it was made.
    same = ("game", "seed", "games", "duplicate", "lineup", "variants")
    assert [ours["run"][k] for k in same] == [expected["run"][k] for k in same]
    ours.pop("run"), expected.pop("run")
    assert ours == expected
    strategies = report.strategies
    assert strategies.height == 2 * 3
    row = strategies.filter((pl.col("variant") == "base") & (pl.col("strategy") == "fastest")).row(
        0, named=True
    )
    assert row["first_place_rate_lo"] <= row["first_place_rate"] <= row["first_place_rate_hi"]
    # Suzume-jong shares tied ranks: a first place shared by k players counts 1/k of a win.
    shares = players.with_columns(
        win=(pl.col("rank") == 1) / (pl.col("rank") == 1).sum().over("variant", "game")
    )
    mine = shares.filter((pl.col("variant") == "base") & (pl.col("strategy") == "fastest"))["win"]
    assert row["first_place_rate"] == pytest.approx(float(mine.mean()))

    compared = CliRunner().invoke(
        app,
        ["compare", str(cli_dir), "--a", "fastest", "--b", "defensive", "--metric", "final_points", "--json"],
    )
    assert compared.exit_code == 0
    ours_cmp = json.loads(json.dumps(run.compare("fastest", "defensive", metric="final_points"), default=str))
    assert ours_cmp.pop("run") == str(run.path)
    assert ours_cmp == {k: v for k, v in json.loads(compared.output).items() if k != "run"}


def test_show_score_and_shanten_equal_the_command_line(both: tuple[sh.Run, Path], tmp_path: Path) -> None:
    run, _ = both
    page = run.show(3, variant="no-red", out=tmp_path / "api.html")
    args = ["show", str(run.path), "--game", "3", "--variant", "no-red", "--out", str(tmp_path / "cli.html")]
    shown = CliRunner().invoke(app, args)
    assert shown.exit_code == 0, shown.output
    assert page.read_bytes() == (tmp_path / "cli.html").read_bytes()
    # with no --out, both write the page to the same place in the run directory
    assert run.show(3) == run.path / "show" / "base-game3.html"

    scored = sh.score("riichi", "234m456p789s22z333m", "2z", tsumo=True)
    told = CliRunner().invoke(
        app, ["score", "riichi", "234m456p789s22z333m", "--win", "2z", "--tsumo", "--json"]
    )
    assert told.exit_code == 0, told.output
    assert json.loads(json.dumps(dataclasses.asdict(scored))) == json.loads(told.output)
    told = CliRunner().invoke(app, ["shanten", "123m456p789s1122z", "--json"])
    assert told.exit_code == 0, told.output
    assert sh.shanten("123m456p789s1122z") == json.loads(told.output)["shanten"] == 0


def test_a_config_dict_gets_the_messages_of_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a dict's strategies are looked up from here, the file's beside it
    wrong = {"name": "x", "game": "suzume", "games": 10, "seed": 1, "players": ["fastest", "fastets"]}
    path = tmp_path / "wrong.toml"
    path.write_text('name = "x"\ngame = "suzume"\ngames = 10\nseed = 1\nplayers = ["fastest", "fastets"]\n')
    with pytest.raises(sh.ConfigError) as from_file:
        sh.experiment(path)
    with pytest.raises(sh.ConfigError) as from_dict:
        sh.experiment(wrong)
    assert from_dict.value.field == from_file.value.field == "players[1].strategy"
    assert from_dict.value.message == from_file.value.message
    assert str(from_dict.value).startswith(f"{config.DICT_CONFIG}: players[1].strategy: ")


def test_an_experiment_written_as_toml_loads_to_the_same_experiment(tmp_path: Path) -> None:
    exp = sh.experiment((REPO / "configs" / "sugoroku-cap.toml"), games=500)
    path = tmp_path / "again.toml"
    path.write_text(sh.to_toml(exp))
    again = sh.experiment(path)
    assert again.config_hash == exp.config_hash and again.variants == exp.variants
