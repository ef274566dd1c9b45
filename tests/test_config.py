"""Config errors: each kind of mistake stops before any game runs, names the file and the field and
says what was expected, with exit status 2 and no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_helpers import in_repo  # noqa: F401 (a fixture)
from typer.testing import CliRunner

from simharness import config, configfile, engine, strategies
from simharness.cli import app
from simharness.errors import ConfigError

pytestmark = pytest.mark.usefixtures("in_repo")
REPO_CONFIGS = Path(__file__).resolve().parent.parent / "configs"

BASE = """\
name = "t"
game = "sugoroku"
games = 100
seed = 1
players = ["naive", "naive", "greedy", "random"]
[rules]
preset = "default"
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "exp.toml"
    path.write_text(text)
    return path


CASES = [
    # (config text, field the error names, words the message must contain)
    (BASE.replace("games = 100", "gmaes = 100"), "gmaes", "did you mean `games`"),
    (BASE.replace("games = 100", 'games = "many"'), "games", "valid integer"),
    (BASE.replace("games = 100", "games = 0"), "games", "expected a positive integer, got 0"),
    (BASE.replace("games = 100", "games = -1"), "games", "expected a positive integer, got -1"),
    (BASE.replace("seed = 1", "seed = -1"), "seed", "expected a non-negative integer, got -1"),
    (
        BASE.replace("seed = 1", "seed = 1\nshard_size = -5"),
        "shard_size",
        "expected a positive integer, got -5",
    ),
    (
        BASE + '[until]\na = "naive"\nb = "greedy"\nmu1 = 0.1\nalpha = 0.7\n',
        "until.alpha",
        "expected a number less than 0.5, got 0.7",
    ),
    (BASE + "dora_count = -1\n", "rules.dora_count", "expected a value from 0 to 40, got -1"),
    (BASE + "payout_cap = -1\n", "rules.payout_cap", 'expected a value from 1 to 1000000 or "none", got -1'),
    (
        BASE.replace("seed = 1", "seed = 1\nduplicate = true\nshard_size = 50"),
        "shard_size",
        "expected a multiple of the 4 players (the games of one deal), got 50",
    ),
    (BASE + "payout_capp = 500\n", "rules.payout_capp", "did you mean `payout_cap`"),
    (BASE + "payout_cap = 0\n", "rules.payout_cap", "expected a value from 1 to"),
    (BASE + 'rest_rule = "max4"\n', "rules.rest_rule", "expected one of max10 / penalty4"),
    (BASE.replace('preset = "default"', 'preset = "nope"'), "rules.preset", "unknown preset"),
    (BASE + '[variants.no-cap]\npayout_cap = "never"\n', "variants.no-cap.payout_cap", 'or "none"'),
    (
        BASE + 'progressive_over_cap = true\n[variants.no-cap]\npayout_cap = "none"\n',
        "variants.no-cap.progressive_over_cap+payout_cap",
        "needs a payout_cap",
    ),
    (BASE + "[grid]\ndora_count = [20, 99]\n", "grid.dora_count", "expected a value from 0 to 40"),
    (BASE.replace('"random"]', '"randum"]'), "players[3].strategy", 'unknown strategy "randum"'),
    (
        BASE.replace('"random"]', '{ strategy = "greedy", knobs = { rest_valu = 2.0 } }]'),
        "players[3].knobs.rest_valu",
        "did you mean `rest_value`",
    ),
    (BASE.replace('"random"]', '{ strategy = "greedy", knob = {} }]'), "players[3].knob", "unknown key"),
    (
        BASE.replace('["naive", "naive", "greedy", "random"]', '["naive"]'),
        "players",
        "takes 2 to 5 players, got 1",
    ),
    (BASE.replace('game = "sugoroku"', 'game = "chess"'), "game", 'unknown game "chess"'),
    (BASE.replace("games = 100", "games = 102\nduplicate = true"), "games", "multiple of the 4 players"),
]


@pytest.mark.parametrize(("text", "field", "expected"), CASES)
def test_config_error_names_file_field_and_expectation(
    tmp_path: Path, text: str, field: str, expected: str
) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as e:
        config.load(path)
    assert e.value.file == path
    assert e.value.field == field
    assert expected in e.value.message


@pytest.mark.parametrize("command", ["validate", "run"])
def test_cli_reports_config_errors_in_one_paragraph_without_running(tmp_path: Path, command: str) -> None:
    path = _write(tmp_path, BASE + "payout_capp = 500\n")
    out = tmp_path / "out"
    args = [command, str(path)] + (["--out", str(out)] if command == "run" else [])
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"error: {path}: rules.payout_capp: unknown option (did you mean `payout_cap`?); expected one of: "
        + result.stderr.split("expected one of: ", 1)[1].strip()
    )
    assert "Traceback" not in result.output
    assert not out.exists()


def test_toml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = _write(tmp_path, BASE + "payout_cap = = 5\n")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert str(path) in result.stderr
    assert "invalid TOML" in result.stderr and "line 8" in result.stderr


def test_strategy_script_errors_name_the_script(tmp_path: Path) -> None:
    (tmp_path / "strategies" / "sugoroku").mkdir(parents=True)
    script = tmp_path / "strategies" / "sugoroku" / "bold.toml"
    script.write_text('name = "bold"\ngame = "sugoroku"\n[knobs]\noffset = "sometimes"\n')
    path = _write(tmp_path, BASE.replace('"random"]', '"bold"]'))
    with pytest.raises(ConfigError) as e:
        config.load(path)
    assert (e.value.file, e.value.field) == (script, "knobs.offset")
    assert "expected one of always / never / greedy / random" in e.value.message


def test_missing_config_file_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["validate", str(tmp_path / "nope.toml")])
    assert result.exit_code == 2
    assert "nope.toml: file not found" in result.stderr


def test_strategy_lookup_prefers_the_config_directory_and_accepts_paths(tmp_path: Path) -> None:
    local = tmp_path / "strategies" / "sugoroku"
    local.mkdir(parents=True)
    (local / "naive.toml").write_text('name = "naive-local"\ngame = "sugoroku"\n[knobs]\noffset = "always"\n')
    (tmp_path / "mine.toml").write_text('name = "mine"\ngame = "sugoroku"\nversion = 3\n')
    sub = tmp_path / "exp"
    sub.mkdir()
    path = sub / "exp.toml"
    path.write_text(
        BASE.replace(
            '["naive", "naive", "greedy", "random"]',
            '["naive", "../mine.toml", "greedy", { strategy = "random", knobs = { offset_p = 0.25 } }]',
        )
    )
    exp = config.load(path)
    assert [s.strategy for s in exp.lineup] == ["naive-local", "mine", "greedy", "random(offset_p=0.25)"]
    assert exp.lineup[0].knobs["offset"] == "always"
    assert exp.lineup[1].version == 3
    assert exp.lineup[3].knobs["offset_p"] == 0.25


def test_variants_grid_and_overrides(tmp_path: Path) -> None:
    text = BASE.replace('players = ["naive", "naive", "greedy", "random"]\n', "") + (
        'players = ["naive", "naive", "naive", "naive"]\n'  # inside [rules], as a TOML reader sees it
        '[grid]\nrest_rule = ["max10", "penalty4"]\npayout_cap = ["none", 500]\n'
    )
    exp = config.load(_write(tmp_path, text), games=40, seed=9)
    assert (exp.games, exp.seed) == (40, 9)
    assert list(exp.variants) == [
        "rest_rule-max10+payout_cap-none",
        "rest_rule-max10+payout_cap-500",
        "rest_rule-penalty4+payout_cap-none",
        "rest_rule-penalty4+payout_cap-500",
    ]
    assert exp.variants["rest_rule-penalty4+payout_cap-none"]["payout_cap"] == "none"
    assert exp.variants["rest_rule-penalty4+payout_cap-none"]["rest_rule"] == "penalty4"
    assert len(exp.lineup) == 4
    assert config.load(_write(tmp_path, BASE)).variants.keys() == {"base"}


def test_config_hash_tracks_everything_that_changes_data(tmp_path: Path) -> None:
    h = config.load(_write(tmp_path, BASE)).config_hash
    assert config.load(_write(tmp_path, BASE.replace("description", "x"))).config_hash == h
    assert config.load(_write(tmp_path, BASE), seed=2).config_hash != h
    assert config.load(_write(tmp_path, BASE + "payout_cap = 400\n")).config_hash != h
    assert config.load(_write(tmp_path, BASE.replace('"random"]', '"naive"]'))).config_hash != h


def test_a_misspelt_key_is_one_error_and_other_errors_are_counted(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as e:
        config.load(_write(tmp_path, BASE.replace("games = 100", "gmaes = 100")))
    assert "more error" not in e.value.message
    with pytest.raises(ConfigError) as e:
        config.load(
            _write(tmp_path, BASE.replace("games = 100", "gmaes = 100").replace("seed = 1", 'seed = "x"'))
        )
    assert e.value.field == "gmaes" and e.value.message.endswith("(and 1 more error)")


def test_python_strategy_for_a_game_without_the_protocol_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game has the protocol when its engine layer implements it (``python_games``); a script
    naming a Python class for one without it fails at load (file and field), and so does a batch."""
    others = [g for g in engine._engine.python_games() if g != "suzume"]
    monkeypatch.setattr(engine._engine, "python_games", lambda: others)
    script = tmp_path / "py.toml"
    script.write_text('name = "py"\ngame = "suzume"\npython = "simharness.games.suzume.python:Fastest"\n')
    with pytest.raises(ConfigError) as e:
        strategies.load(script).resolved_knobs()
    assert e.value.file == script and e.value.field == "python"
    assert "suzume has no Python strategy protocol; games with one: " in e.value.message
    assert "riichi" in e.value.message and "suzume," not in e.value.message
    knobs = dict(engine.resolve_knobs("suzume"), python="simharness.games.suzume.python:Fastest")
    with pytest.raises(engine.OptionError) as failed:
        engine.play_batch("suzume", {}, [knobs, knobs], seed=1, first_game=0, count=1)
    assert failed.value.field == "python"


def test_the_default_shard_size_gives_every_config_work_for_many_workers() -> None:
    from simharness.games import registry

    for path in sorted((REPO_CONFIGS).glob("*.toml")):
        exp = config.load(path)
        assert "shard_size" not in exp.raw, path
        assert not exp.duplicate or exp.shard_size % len(exp.lineup) == 0, path
        shards = exp.shard_count * len(exp.variants)
        floor = registry.min_shard(exp.game)
        if exp.games * len(exp.variants) < 32 * floor:
            # a small experiment (the coverage lineups) is not cut below the game's cost floor
            assert exp.shard_size in (exp.games, floor), path
            continue
        # at least 32 shards (at most 2 × TARGET_SHARDS), none below the game's cost floor
        assert 32 <= shards <= 2 * config.TARGET_SHARDS, (path, shards)
        assert floor <= exp.shard_size <= config.MAX_SHARD, path
    # a small experiment is one shard; a huge one is cut at MAX_SHARD; [until] looks fall between shards
    assert config.default_shard_size("riichi", 30, 1) == 30
    assert config.default_shard_size("sugoroku", 10**12, 2) == config.MAX_SHARD
    until = configfile.UntilFile(a="x", b="y", mu1=0.1, look_every=1200)
    assert config.default_shard_size("riichi", 20000, 1, until) == 300
    # under duplicate play a deal's games never straddle two shards, nor two looks
    for game, games, seats in (("suzume", 3 * 40_001, 3), ("riichi", 4 * 5_003, 4), ("sugoroku", 12, 3)):
        size = config.default_shard_size(game, games, 2, None, seats)
        assert size % seats == 0 and 0 < size <= games, (game, size)
        looked = config.default_shard_size(game, games, 2, until, seats)
        assert looked % seats == 0 and 1200 % looked == 0, (game, looked)


def test_a_python_strategy_module_is_found_without_running_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "strategies" / "sugoroku"
    folder.mkdir(parents=True)
    script = folder / "py.toml"
    script.write_text('name = "py"\ngame = "sugoroku"\npython = "no_such_module:Cls"\n')
    cfg = _write(tmp_path, BASE.replace('"naive", "naive"', '"py", "naive"'))
    result = CliRunner().invoke(app, ["validate", str(cfg)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f'error: {script}: python: no Python module "no_such_module"')
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and not (tmp_path / "out").exists()

    # a module that exists is found, not imported (validating must not run a strategy's code)
    marker = tmp_path / "imported"
    (tmp_path / "noisy_strategy.py").write_text(f"open({str(marker)!r}, 'w').close()\nclass Cls: ...\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    script.write_text('name = "py"\ngame = "sugoroku"\npython = "noisy_strategy:Cls"\n')
    assert CliRunner().invoke(app, ["validate", str(cfg)]).exit_code == 0
    assert not marker.exists()


SWEEP = """\
name = "t"
game = "suzume"
games = 100
seed = 1
players = ["fastest", "defensive", "random"]
[sweep]
options = ["starting_points"]
"""

NON_FINITE = [
    # (config text, the field the error names, the value as TOML spells it)
    (BASE + "payout_cap = nan\n", "rules.payout_cap", "nan"),
    (BASE + "[variants.v]\nrate = -inf\n", "variants.v.rate", "-inf"),
    (BASE + "[grid]\nrate = [10, inf]\n", "grid.rate[1]", "inf"),
    (BASE.replace('"random"]', '{ strategy = "random", knobs = { offset_p = nan } }]'),
     "players[3].knobs.offset_p", "nan"),
    (BASE + '[until]\na = "naive"\nb = "greedy"\nmu1 = inf\n', "until.mu1", "inf"),
    (BASE + '[until]\na = "naive"\nb = "greedy"\nmu0 = nan\nmu1 = 0.1\n', "until.mu0", "nan"),
    (BASE + '[until]\na = "naive"\nb = "greedy"\nmu1 = 0.1\nalpha = nan\n', "until.alpha", "nan"),
    (SWEEP + '[sweep.until]\nmetric = "win[fastest]"\nmu1 = nan\n', "sweep.until.mu1", "nan"),
    (SWEEP + '[sweep.until]\nmetric = "win[fastest]"\nmu1 = inf\n', "sweep.until.mu1", "inf"),
    (SWEEP + "[sweep.levels]\nstarting_points = [nan]\n", "sweep.levels.starting_points[0]", "nan"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "field", "value"), NON_FINITE)
def test_nan_and_infinity_are_refused_with_the_field_named(
    tmp_path: Path, text: str, field: str, value: str
) -> None:
    """TOML can spell nan and inf; no number of a config means anything at either (an [until] at
    mu1 = inf stops after one look, at nan never; the engine's JSON and the manifest cannot hold them)."""
    path = _write(tmp_path, text)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == f"error: {path}: {field}: expected a finite number, got {value}"


def test_a_strategy_script_with_a_non_finite_knob_is_refused(tmp_path: Path) -> None:
    (tmp_path / "strategies" / "sugoroku").mkdir(parents=True)
    script = tmp_path / "strategies" / "sugoroku" / "wild.toml"
    script.write_text('name = "wild"\ngame = "sugoroku"\n[knobs]\nrest_value = -inf\n')
    with pytest.raises(ConfigError) as e:
        config.load(_write(tmp_path, BASE.replace('"random"]', '"wild"]')))
    assert (e.value.file, e.value.field) == (script, "knobs.rest_value")
    assert e.value.message == "expected a finite number, got -inf"


def _lineup(players: str) -> str:
    return BASE.replace('["naive", "naive", "greedy", "random"]', players)


@pytest.mark.parametrize(
    ("players", "slots", "how"),
    [
        # a label that is another strategy's name
        ('["naive", "greedy", { strategy = "random", label = "naive" }]', (0, 2), "naive.toml vs "),
        # one label on two scripts
        ('[{ strategy = "greedy", label = "x" }, "naive", { strategy = "naive", label = "x" }]',
         (0, 2), "greedy.toml vs "),
        # the script's own name on other knobs
        ('["naive", { strategy = "naive", knobs = { offset = "always" }, label = "naive" }]',
         (0, 1), "knobs offset = never vs always"),
    ],
)  # fmt: skip
def test_two_strategies_under_one_name_are_refused(
    tmp_path: Path, players: str, slots: tuple[int, int], how: str
) -> None:
    """The players table, the report and compare key rows by name: two different (script, knobs)
    under one name would be merged into one row."""
    path = _write(tmp_path, _lineup(players))
    with pytest.raises(ConfigError) as e:
        config.load(path)
    a, b = slots
    assert (e.value.file, e.value.field) == (path, f"players[{b}]")
    assert e.value.message.startswith(f"players[{a}] and players[{b}] are both named ")
    assert how in e.value.message and "its own `label`" in e.value.message


def test_one_strategy_in_several_seats_is_a_mirror_lineup(tmp_path: Path) -> None:
    # the script's knobs written out again are the script's knobs
    players = '["naive", { strategy = "naive" }, '
    players += '{ strategy = "naive", knobs = { offset = "never" }, label = "naive" }]'
    exp = config.load(_write(tmp_path, _lineup(players)))
    assert [s.strategy for s in exp.lineup] == ["naive"] * 3


def test_shard_size_and_variant_count_are_bounded(tmp_path: Path) -> None:
    """A shard is held in memory by its worker (a huge one ended in a Rust out-of-memory abort), and
    every variant is resolved when the config is read (a 10^6-combination grid never finished)."""
    at_most = BASE.replace("seed = 1", f"seed = 1\nshard_size = {config.MAX_SHARD_SIZE}")
    assert config.load(_write(tmp_path, at_most)).shard_size == config.MAX_SHARD_SIZE
    huge = BASE.replace("seed = 1", "seed = 1\nshard_size = 1_000_000_000")
    with pytest.raises(ConfigError) as e:
        config.load(_write(tmp_path, huge))
    assert e.value.field == "shard_size"
    assert (
        e.value.message.startswith("expected at most 50,000 games per shard")
        and "1,000,000,000" in e.value.message
    )
    # --games beyond the engine's 64-bit game indices
    with pytest.raises(ConfigError) as e:
        config.load(_write(tmp_path, BASE), games=10**20)
    assert (e.value.field, e.value.message) == (
        "games",
        "expected a number less than 18446744073709551616, got 100000000000000000000",
    )
    # 10^8 combinations: refused from the list lengths, without making them
    values = "[" + ", ".join(str(i) for i in range(100)) + "]"
    grid = "".join(f"{k} = {values}\n" for k in ("dora_count", "rest_penalty", "rate", "rest_chip_value"))
    with pytest.raises(ConfigError) as e:
        config.load(_write(tmp_path, BASE + "[variants.a]\nrate = 5\n[grid]\n" + grid))
    assert e.value.field == "grid"
    assert e.value.message == (
        "expected at most 10,000 variants in all, got 100,000,001 "
        "(1 in [variants] and 100 × 100 × 100 × 100 = 100,000,000 combinations)"
    )
