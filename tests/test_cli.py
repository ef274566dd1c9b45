"""The catalogue commands and help texts of the `simharness` command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness_helpers import in_repo, small_config  # noqa: F401 (in_repo: a fixture)
from typer.testing import CliRunner

from simharness import engine
from simharness.cli import app

pytestmark = pytest.mark.usefixtures("in_repo")


def _ok(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_every_command_and_option_has_help() -> None:
    commands = [c.name or c.callback.__name__ for c in app.registered_commands]
    assert {"run", "validate", "games", "rules", "strategies", "schema", "report", "compare", "plan"} <= set(
        commands
    )
    for name in commands:
        command = next(c for c in app.registered_commands if (c.name or c.callback.__name__) == name)
        assert command.callback.__doc__, name
        text = _ok(name, "--help")
        assert "Usage:" in text
        # no template-like {argument} in the usage line, no "<bool>" beside flags
        assert "{" not in text.split("Usage:")[1].splitlines()[0] and "<bool>" not in text, name
    for sub in (["score", "suzume"], ["score", "riichi"], ["replay", "riichi"], []):
        assert "<bool>" not in _ok(*sub, "--help")
    assert "Usage: simharness run [OPTIONS] CONFIG_PATH" in _ok("run", "--help")
    run_help = _ok("run", "--help")
    for option in ("--jobs", "--out", "--games", "--seed", "--backend", "--force"):
        assert option in run_help


def test_games_rules_and_presets() -> None:
    assert "sugoroku" in _ok("games")
    text = _ok("rules", "sugoroku")
    for spec in engine.rule_options("sugoroku"):
        assert spec.name in text
    assert 'payout_cap  int|none = 500   1 .. 1000000 or "none"' in text
    assert "addendum" in text and "rest_rule = penalty4" in text
    data = json.loads(_ok("rules", "sugoroku", "--json"))
    assert {p["name"] for p in data["presets"]} >= {"addendum", "no-cap"}
    assert next(o for o in data["options"] if o["name"] == "rest_rule")["choices"] == ["max10", "penalty4"]


def test_unknown_game_is_a_clear_error() -> None:
    result = CliRunner().invoke(app, ["rules", "chess"])
    assert result.exit_code == 2
    assert result.stderr.startswith('error: game: unknown game "chess"; expected one of: sugoroku')


def test_strategies_and_their_knobs() -> None:
    text = _ok("strategies", "sugoroku")
    for name in ("naive", "greedy", "random"):
        # The checkout's strategies/ are the built-in scripts themselves (simharness/builtin links them).
        assert f"sugoroku/{name}  v1  built-in" in text
    knobs = _ok("strategies", "sugoroku", "--knobs")
    for spec in engine.knob_options("sugoroku"):
        assert spec.name in knobs
    # the table shows each script's resolved knobs: naive never offsets, always-offset always does
    header = next(line for line in knobs.splitlines() if "always-offset" in line and "naive" in line)
    names = [c.strip() for c in header.split("┃")[1:-1]]
    row = next(line for line in knobs.splitlines() if line.startswith("│ offset "))
    cells = dict(zip(names, (c.strip() for c in row.split("│")[1:-1]), strict=True))
    assert (cells["naive"], cells["always-offset"], cells["greedy"]) == ("never", "always", "greedy")


def test_schema_documents_engine_and_harness_columns() -> None:
    tables = {t["name"]: t for t in json.loads(_ok("schema", "sugoroku", "--json"))}
    for t in engine.schema("sugoroku"):
        cols = [c["name"] for c in tables[t.name]["columns"]]
        assert cols[: len(t.columns)] == [c.name for c in t.columns]
        assert "variant" in cols
    assert [c["name"] for c in tables["players"]["columns"] if c["source"] == "harness"] == [
        "variant",
        "strategy",
    ]
    assert "added by the harness" in _ok("schema", "sugoroku")
    # Then the tables a show adds, their codes named: a decision is told by the engine's label.
    decisions = tables["decisions"]
    assert decisions["show_only"] and not tables["players"]["show_only"]
    decision = next(c for c in decisions["columns"] if c["name"] == "decision")
    assert "0 = pinzoro_reroll" in decision["doc"] and "4 = agree_end" in decision["doc"]
    assert "decisions (in `simharness show` only)" in _ok("schema", "sugoroku")


def test_report_of_a_run_and_of_a_wrong_directory(tmp_path: Path) -> None:
    cfg = small_config(tmp_path)
    run = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path / "out"), "--full"])
    assert run.exit_code == 0, run.output
    assert "variant no-cap" in run.stdout  # the whole report, one flag away
    data = json.loads(_ok("report", str(tmp_path / "out" / "small"), "--json"))
    assert data["run"]["name"] == "small"
    assert list(data["variants"]) == ["cap-500", "no-cap"]
    for command in ("report", "compare --a naive --b greedy"):
        refused = CliRunner().invoke(app, [*command.split(), str(tmp_path / "out" / "small"), "--jobs", "0"])
        assert refused.exit_code == 2
        assert refused.stderr.startswith("error: --jobs: expected a number of workers >= 1")
    bad = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert bad.exit_code == 2
    assert bad.stderr == f"error: {tmp_path}: not a run directory (no manifest.json)\n"


def test_unwritable_output_and_corrupt_shards_on_report(tmp_path: Path) -> None:
    cfg = small_config(tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(blocker), "-q"])
    assert result.exit_code == 2
    assert result.stderr == f"error: {blocker / 'small'}: Not a directory\n"

    assert CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path / "out"), "-q"]).exit_code == 0
    shard = tmp_path / "out" / "small" / "players" / "variant=no-cap" / "part-0000000100.parquet"
    shard.write_bytes(b"not parquet")
    result = CliRunner().invoke(app, ["report", str(tmp_path / "out" / "small")])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {shard}: corrupt Parquet file")


def test_version() -> None:
    from simharness import __version__

    out = _ok("--version")
    assert out.startswith(f"simharness {__version__} (engine ") and "commit " in out


def test_strategy_listing_marks_invalid_scripts_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "strategies" / "sugoroku"
    folder.mkdir(parents=True)
    (folder / "noname.toml").write_text('game = "sugoroku"\n')
    (folder / "rr.toml").write_text('name = "rr"\ngame = "riichi"\n')
    (folder / "bad.toml").write_text('name = "bad"\ngame = "sugoroku"\n[knobs]\noffset = "sometimes"\n')
    (folder / "file.toml").write_text('name = "other"\ngame = "sugoroku"\n[knobs]\noffset = "always"\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "250")  # the knob table has a column per script, built-ins included
    raw = _ok("strategies", "sugoroku", "--knobs")
    text = " ".join(raw.split())
    assert "sugoroku/noname INVALID strategies/sugoroku/noname.toml name: required but missing" in text
    assert 'sugoroku/rr INVALID strategies/sugoroku/rr.toml it says game = "riichi"' in text
    assert "sugoroku/bad INVALID strategies/sugoroku/bad.toml knobs.offset: expected one of" in text
    # listed by the file name a lineup uses, with the name the players table will show
    assert "sugoroku/file (name other) v1" in text
    # the knob table (after the invalid scripts) has the valid script, not the invalid ones
    header = next(line for line in raw.splitlines() if line.startswith("┃ knob"))
    columns = [c.strip() for c in header.strip("┃").split("┃")]
    assert "file" in columns and "naive" in columns
    assert not {"noname", "rr", "bad"} & set(columns)
    offset = next(line for line in raw.splitlines() if line.startswith("│ offset "))
    assert [c.strip() for c in offset.strip("│").split("│")][columns.index("file")] == "always"
