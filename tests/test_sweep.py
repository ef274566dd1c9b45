"""`simharness sweep` on a small grid of each game: the effects are the report's paired differences
for the same variants, and variants that play the base's games are listed apart, never tested."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from simharness import store
from simharness.cli import app
from simharness.report.full import build_report
from simharness.report.sweep import _variant_tables, build_sweep, metric_name, tornado, tornado_figure
from simharness.sweep_cli import sweep_name

REPO = Path(__file__).resolve().parent.parent

# game → (players, games, options swept, the variants that must play the base's games exactly)
GRIDS = {
    "sugoroku": ("naive,greedy,random", 120, "rest_rule,rate", {"rate-5", "rate-20"}),
    "suzume": (
        "fastest,bonus-pusher,defensive", 90, "dealer_bonus,mistake_penalty",
        {"mistake_penalty-1", "mistake_penalty-4"},
    ),
    "riichi": (
        "efficiency,call-happy,kan-happy,nagashi-chaser", 24, "kan_dora,sanma_tsumo",
        {"sanma_tsumo-senten_kafu", "sanma_tsumo-seppan", "sanma_tsumo-marudori"},
    ),
}  # fmt: skip


@pytest.fixture(autouse=True)
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


@pytest.mark.parametrize("game", list(GRIDS))
def test_sweep_pairs_effects_like_the_report_and_lists_identical_variants_apart(
    game: str, tmp_path: Path
) -> None:
    players, games, options, silent = GRIDS[game]
    args = [
        "sweep",
        game,
        "--players",
        players,
        "--games",
        str(games),
        "--options",
        options,
        "--out",
        str(tmp_path),
    ]
    result = CliRunner().invoke(app, [*args, "-q", "--html", str(tmp_path / "s.html")])
    assert result.exit_code == 0, result.output
    assert "no effect with this lineup" in result.output
    run = store.open_run(tmp_path / sweep_name(game, "default", players.split(","), 0, options, None, None))
    sweep = build_sweep(run)
    assert {s["variant"] for s in sweep["no_effect"]} == silent
    base = _variant_tables(run, "base")
    for v in silent:
        assert all(base[t].equals(_variant_tables(run, v)[t]) for t in base)
    effective = set(sweep["variants"]) - silent
    assert effective and {r["variant"] for r in sweep["effects"]} == effective
    # The same variants as an ordinary config: the report's paired differences are the sweep's.
    manifest_rules = run.manifest.variants
    cfg = tmp_path / "plain.toml"
    lines = [
        f'name = "plain"\ngame = "{game}"\ngames = {games}\nseed = 0',
        "players = [" + ", ".join(f'"{p}"' for p in players.split(",")) + "]",
    ]
    for v in ["base", *sorted(effective)]:
        body = "\n".join(f"{k} = {_toml_scalar(x)}" for k, x in manifest_rules[v].items())
        lines.append(f'[variants."{v}"]\n{body}')
    cfg.write_text("\n".join(lines) + "\n")
    plain = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path), "-q"])
    assert plain.exit_code == 0, plain.output
    report = build_report(store.open_run(tmp_path / "plain"))
    want = {(d["variant"], metric_name(d)): d["difference"] for d in report["differences"]}
    matched = [r for r in sweep["effects"] if (r["variant"], r["metric"]) in want]
    assert len(matched) == len(want)
    for r in matched:
        assert r["difference"] == want[(r["variant"], r["metric"])]
    for r in sweep["effects"]:
        assert r["p_holm"] is None or r["pvalue"] is None or r["p_holm"] >= r["pvalue"] - 1e-12
    assert (tmp_path / "s.html").read_text().count("data:image/png") == len(
        [m for m, b in sweep["tornado"].items() if b]
    )


def _toml_scalar(x: object) -> str:
    from simharness.tomlfile import value

    return value(x)


def test_validate_lists_the_skipped_sweep_values_with_their_reasons(tmp_path: Path) -> None:
    """A value the engine refuses with the base (here a contradiction: the tax over the payout cap
    without a cap) or that another seat count needs is skipped, and `validate` says so, as the
    README promises."""
    cfg = tmp_path / "sweep.toml"
    cfg.write_text(
        'name = "t"\ngame = "riichi"\ngames = 8\nseed = 1\n'
        'players = ["efficiency", "efficiency", "efficiency", "efficiency"]\n'
        '[sweep]\noptions = ["players", "kan_dora"]\n'
    )
    result = CliRunner().invoke(app, ["validate", str(cfg)])
    assert result.exit_code == 0, result.output
    assert "  skipped players-3: players = 3 needs a lineup of 3; this one seats 4\n" in result.output
    cfg.write_text(
        'name = "t"\ngame = "sugoroku"\ngames = 10\nseed = 1\nplayers = ["naive", "greedy"]\n'
        '[rules]\npayout_cap = "none"\n[sweep]\noptions = ["progressive_over_cap", "rest_rule"]\n'
    )
    result = CliRunner().invoke(app, ["validate", str(cfg)])
    assert result.exit_code == 0, result.output
    skipped = [line for line in result.output.splitlines() if line.startswith("  skipped ")]
    assert skipped == [
        "  skipped progressive_over_cap-true: progressive_over_cap taxes receipts above the payout cap, "
        'so it needs a payout_cap (not "none")'
    ]
    assert "  variant rest_rule-penalty4: payout_cap=none, rest_rule=penalty4" in result.output


def test_a_refused_sweep_leaves_the_config_of_the_run_beside_it(tmp_path: Path) -> None:
    """`<out>/<name>.toml` is the config of the run `<out>/<name>`: a sweep refused (an invalid one,
    or another sweep into the same --name without --force) does not write it."""
    cfg = tmp_path / "mine.toml"
    args = ["sweep", "sugoroku", "--players", "naive,greedy", "--games", "20", "--out", str(tmp_path), "-q"]
    args += ["--name", "mine"]
    bad = CliRunner().invoke(app, [*args, "--options", "rest_rule,no_such_option"])
    assert bad.exit_code == 2 and "no_such_option" in bad.output
    assert not cfg.exists()
    first = CliRunner().invoke(app, [*args, "--options", "rest_rule"])
    assert first.exit_code == 0, first.output
    text = cfg.read_text()
    assert 'options = ["rest_rule"]' in text and 'name = "mine"' in text
    other = CliRunner().invoke(app, [*args, "--options", "rate"])
    assert other.exit_code == 2 and "holds a run of a different config" in other.output
    assert cfg.read_text() == text
    assert _swept_options(tmp_path / "mine") == ["rest_rule"]
    forced = CliRunner().invoke(app, [*args, "--options", "rate", "--force"])
    assert forced.exit_code == 0, forced.output
    assert 'options = ["rate"]' in cfg.read_text()
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind


def _swept_options(run_dir: Path) -> list[str]:
    """The options of the sweep the run in ``run_dir`` played, as its manifest records its config."""
    config = store.open_run(run_dir).manifest.config
    assert config is not None
    return list(config["sweep"]["options"])


def _parquet(run_dir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run_dir)): p.read_bytes() for p in sorted(run_dir.rglob("*.parquet"))}


def test_sweeps_with_other_options_get_their_own_directories_and_a_repeated_one_resumes(
    tmp_path: Path,
) -> None:
    base = ["sweep", "sugoroku", "--games", "40", "--out", str(tmp_path), "-q", "--jobs", "1"]
    runs = {}
    for extra in (["--options", "rest_rule"], ["--options", "rate"], ["--options", "rate", "--seed", "3"],
                  ["--options", "rate", "--players", "naive,greedy"]):  # fmt: skip
        result = CliRunner().invoke(app, [*base, *extra])
        assert result.exit_code == 0, result.output
        (line,) = [x for x in result.output.splitlines() if x.startswith("run directory: ")]
        runs[tuple(extra)] = Path(line.split()[2])
    assert [p.name for p in runs.values()] == [
        "sweep-sugoroku-rest_rule",
        "sweep-sugoroku-rate",
        "sweep-sugoroku-rate-seed3",
        "sweep-sugoroku-rate-naive.greedy",
    ]
    assert all((tmp_path / f"{p.name}.toml").exists() and store.open_run(p).manifest.complete
               for p in runs.values())  # fmt: skip
    first = runs[("--options", "rest_rule")]
    before = _parquet(first)
    again = CliRunner().invoke(app, [*base, "--options", "rest_rule"])
    assert again.exit_code == 0, again.output
    assert _parquet(first) == before
    assert _swept_options(first) == ["rest_rule"]
    # Nothing else appeared: the repeat went into the same directory.
    assert len([p for p in tmp_path.iterdir() if p.is_dir()]) == 4


def test_sweep_prints_its_lineup_names_the_values_and_says_what_it_hides(tmp_path: Path) -> None:
    args = ["sweep", "sugoroku", "--players", "naive,greedy,random", "--games", "120", "--options",
            "payout_cap,rest_rule,dora_mode", "--out", str(tmp_path), "-q", "--jobs", "1"]  # fmt: skip
    short = CliRunner().invoke(app, [*args, "--rows", "1"], terminal_width=100)
    assert short.exit_code == 0, short.output
    lines = short.output.splitlines()
    assert lines[1] == "lineup (--players):"
    assert lines[2:5] == ["  seat 1: naive", "  seat 2: greedy", "  seat 3: random"]
    run = store.open_run(tmp_path / "sweep-sugoroku-payout_cap+rest_rule+dora_mode-naive.greedy.random")
    sweep = build_sweep(run)
    metrics = [m for m, bars in sweep["tornado"].items() if bars]
    hidden = [x for x in lines if x.endswith("--rows all shows every option")]
    expected = []
    for m in metrics:
        rest = sweep["tornado"][m][1:]
        if rest:
            sig = sum((b["p_holm"] or 1) < 0.05 for b in rest)
            noun = "option" if len(rest) == 1 else "options"
            expected.append(f"  {len(rest)} more {noun} not shown ({sig} with Holm p < 0.05); --rows all "
                            "shows every option")  # fmt: skip
    assert hidden == expected
    # One row per table, and it names the value behind each effect it shows.
    body = [x for x in lines if x.startswith("│ ")]
    assert len(body) == len(metrics)
    for m, row in zip(metrics, body, strict=True):
        top = sweep["tornado"][m][0]
        assert row.startswith(f"│ {top['option']} ")
        assert any(f"({v['value']})" in row or f"({v['value']}," in row for v in top["values"]), row
    full = CliRunner().invoke(app, [*args, "--rows", "all"], terminal_width=100)
    assert full.exit_code == 0 and "--rows all shows" not in full.output
    for option in ("payout_cap", "rest_rule", "dora_mode"):
        assert f"│ {option} " in full.output
    bad = CliRunner().invoke(app, [*args, "--rows", "0"])
    assert bad.exit_code == 2 and "--rows" in bad.output
    bad = CliRunner().invoke(app, [*args, "--name", "../elsewhere"])
    assert bad.exit_code == 2 and "--name" in bad.output and "is not a run name" in bad.output


def _row(variant: str, metric: str, est: float, p_holm: float, half: float = 0.1) -> dict:
    return {
        "variant": variant, "option": variant.split("-", 1)[0], "metric": metric, "pvalue": p_holm,
        "p_holm": p_holm, "difference": {"estimate": est, "lo": est - half, "hi": est + half, "n": 100},
    }  # fmt: skip


def test_the_tornado_ranks_significant_options_first_and_draws_each_values_interval() -> None:
    rows = [
        _row("noise-a", "m", 9.0, 1.0, half=20),  # the largest estimate, pure noise
        _row("noise-b", "m", -7.0, 1.0, half=20),
        _row("cap-none", "m", -1.5, 1e-9),
        _row("cap-1000", "m", 0.5, 0.2),
        _row("tax-true", "m", 2.0, 1e-4),
    ]
    bars = tornado(rows)["m"]
    assert [b["option"] for b in bars] == ["tax", "cap", "noise"]
    cap = bars[1]
    assert (cap["low"], cap["low_value"], cap["high"], cap["high_value"]) == (-1.5, "none", 0.5, "1000")
    assert cap["p_holm"] == 1e-9 and [v["value"] for v in cap["values"]] == ["none", "1000"]
    fig = tornado_figure("m", bars)
    (ax,) = fig.axes
    from matplotlib.container import ErrorbarContainer

    cis = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(cis) == len(rows)  # one interval per value
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "option with Holm p < 0.05", "option not significant", "a value's effect, 95% CI", "base",
    ]  # fmt: skip
    top_down = sorted(zip(ax.get_yticks(), ax.get_yticklabels(), strict=True), key=lambda t: -t[0])
    assert [t.get_text() for _, t in top_down] == ["tax", "cap", "noise"]  # the ranking, top row first
    assert min(t.get_fontsize() for t in ax.get_yticklabels()) >= 9
    assert {t.get_text() for t in ax.texts} == {"a", "b", "none", "1000", "true"}


def test_sweep_runs_from_an_empty_folder_with_the_packaged_coverage_lineup(tmp_path: Path) -> None:
    """No configs/ folder here: the default lineup is the package's configs/<game>-coverage.toml."""
    import os
    import subprocess
    import sys

    from simharness import strategies, tomlfile

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "simharness.cli", "sweep", "suzume", "--games", "40", "--options",
         "dealer_bonus", "-q", "--jobs", "1"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    coverage = strategies.BUILTIN / "configs" / "suzume-coverage.toml"
    assert f"lineup (the lineup of {coverage}):" in done.stdout
    players = tomlfile.load(coverage)["players"]
    for i, p in enumerate(players):
        assert f"  seat {i + 1}: {p}\n" in done.stdout
    run = store.open_run(tmp_path / "results" / "sweep-suzume-dealer_bonus")
    assert [s.strategy for s in run.manifest.lineup] == players
