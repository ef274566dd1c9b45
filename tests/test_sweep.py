"""`simharness sweep` on a small grid of each game: the effects are the report's paired differences
for the same variants, and variants that play the base's games are listed apart, never tested."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from simharness import store
from simharness.cli import app
from simharness.report.full import build_report
from simharness.report.sweep import _variant_tables, build_sweep, metric_name

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
    run = store.open_run(tmp_path / f"sweep-{game}")
    sweep = build_sweep(run)
    assert {s["variant"] for s in sweep["no_effect"]} == silent
    base = _variant_tables(run, "base")
    for v in silent:
        assert all(base[t].equals(_variant_tables(run, v)[t]) for t in base)
    effective = set(sweep["variants"]) - silent
    assert effective and {r["variant"] for r in sweep["effects"]} == effective
    # The same variants as an ordinary config: the report's paired differences are the sweep's.
    manifest_rules = run.manifest["variants"]
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
    """`<out>/sweep-<game>.toml` is the config of the run `<out>/sweep-<game>`: a sweep refused (an
    invalid one, or another sweep of the game without --force) does not write it."""
    cfg = tmp_path / "sweep-sugoroku.toml"
    args = ["sweep", "sugoroku", "--players", "naive,greedy", "--games", "20", "--out", str(tmp_path), "-q"]
    bad = CliRunner().invoke(app, [*args, "--options", "rest_rule,no_such_option"])
    assert bad.exit_code == 2 and "no_such_option" in bad.output
    assert not cfg.exists()
    first = CliRunner().invoke(app, [*args, "--options", "rest_rule"])
    assert first.exit_code == 0, first.output
    text = cfg.read_text()
    assert 'options = ["rest_rule"]' in text
    other = CliRunner().invoke(app, [*args, "--options", "rate"])
    assert other.exit_code == 2 and "holds a run of a different config" in other.output
    assert cfg.read_text() == text
    assert store.open_run(tmp_path / "sweep-sugoroku").manifest["config"]["sweep"]["options"] == ["rest_rule"]
    forced = CliRunner().invoke(app, [*args, "--options", "rate", "--force"])
    assert forced.exit_code == 0, forced.output
    assert 'options = ["rate"]' in cfg.read_text()
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind
