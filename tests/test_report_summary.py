"""The end-of-run summary and the report/compare/plan commands on synthetic runs with planted effects."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import polars as pl
import pytest
import typer
from rich.console import Console
from stats_fixtures import make_run
from typer.testing import CliRunner

from simharness.errors import RunDirError
from simharness.report import cli as report_cli
from simharness.report.summary import build_summary, print_summary


def test_summary_counts_estimates_and_planted_effects(tmp_path: Path) -> None:
    run = make_run(tmp_path, {"base": 1.0, "wild": 2.0}, n_games=2000)
    s = build_summary(run)
    json.dumps(s, allow_nan=False)
    assert s["variant_order"] == ["base", "wild"]
    players = run.tables["players"]
    for v, block in s["variants"].items():
        pv = players.filter(pl.col("variant") == v)
        assert block["games"] == 2000 and block["deals"] == 500
        wins = {r["strategy"]: r["first_place_rate"]["estimate"] * r["rows"] for r in block["by_strategy"]}
        assert sum(wins.values()) == pytest.approx(2000)  # exactly one rank-1 row per game
        for r in block["by_seat"]:
            pts = pv.filter(pl.col("seat") == r["seat"])["final_points"]
            assert r["points"]["mean"]["estimate"] == pytest.approx(pts.mean())
            assert r["points"]["quantiles"]["p50"]["lo"] <= r["points"]["quantiles"]["p50"]["estimate"]
        assert block["length"]["unit"] == "hands"
    # The planted seat-0 edge is found; a duplicate deal's rotations share their luck, so the
    # clustered test divides X² by a design effect well above 1.
    seat = s["variants"]["base"]["seat_test"]
    assert seat["pvalue"] < 0.01 and seat["design_effect"] > 1.5
    diffs = {(d["strategy"], d["metric"]): d for d in s["differences"]}
    strong = diffs[("strong", "win")]
    # More luck in "wild" dilutes the strong strategy's edge; every comparison is paired by deal.
    assert strong["paired"] and strong["difference"]["hi"] < 0
    assert all(d["p_holm"] >= d["pvalue"] for d in s["differences"])
    assert all(d["p_bh"] <= d["p_holm"] + 1e-12 for d in s["differences"])
    console = Console(record=True, width=200)
    print_summary(s, console)
    text = console.export_text()
    assert "strong" in text and "differences vs base" in text and "seat advantage" in text


def test_summary_omnibus_across_three_variants(tmp_path: Path) -> None:
    run = make_run(tmp_path, {"base": 1.0, "wild": 2.0, "wilder": 3.0}, n_games=800)
    s = build_summary(run)
    omni = {(o["strategy"], o["metric"]): o for o in s["omnibus"]}
    assert omni[("strong", "win")]["n"] == 200 and omni[("strong", "win")]["pvalue"] < 1e-3
    assert build_summary(make_run(tmp_path / "two", {"a": 1.0, "b": 2.0}, n_games=80))["omnibus"] == []


def test_summary_without_seat_edge_or_hands(tmp_path: Path) -> None:
    run = make_run(tmp_path, n_games=2000, seat_edge=0.0, with_hands=False)
    s = build_summary(run)
    assert s["variants"]["base"]["seat_test"]["pvalue"] > 0.001
    assert s["variants"]["base"]["length"] is None and s["differences"] == []


def test_summary_uses_game_turns_and_game_specific_metrics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = make_run(tmp_path, n_games=400)
    run.tables["games"] = run.tables["games"].with_columns((pl.col("game") % 7 + 10).alias("turns"))
    module = types.ModuleType("simharness.games.synthetic")

    def summary_metrics(r: object) -> pl.DataFrame:
        return pl.DataFrame(
            {
                "variant": ["base"],
                "strategy": ["strong"],
                "metric": ["riichi_rate"],
                "estimate": [0.3],
                "lo": [0.25],
                "hi": [0.35],
                "n": [400],
            }
        )

    module.summary_metrics = summary_metrics  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "simharness.games.synthetic", module)
    s = build_summary(run)
    assert s["variants"]["base"]["length"]["unit"] == "turns"
    assert s["variants"]["base"]["length"]["mean"]["estimate"] == pytest.approx(
        (run.tables["games"]["game"] % 7 + 10).mean()
    )
    assert s["game_metrics"][0]["metric"] == "riichi_rate"


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command()(report_cli.report)
    app.command()(report_cli.compare)
    app.command()(report_cli.plan)
    return app


def test_report_and_compare_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = make_run(tmp_path, {"base": 1.0, "wild": 2.0}, n_games=800)
    monkeypatch.setattr(report_cli, "_open", lambda _, partial=False: run)
    runner = CliRunner()
    out = runner.invoke(_app(), ["report", str(tmp_path), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["variants"]["wild"]["games"] == 800
    out = runner.invoke(_app(), ["report", str(tmp_path)])
    assert out.exit_code == 0 and "by strategy" in out.output
    out = runner.invoke(_app(), ["compare", str(tmp_path), "--a", "strong", "--b", "random", "--json"])
    assert out.exit_code == 0, out.output
    c = json.loads(out.output)
    assert c["paired"] and c["difference"]["lo"] > 0 and c["verdict"] == "A − B > 0 at α=0.05"
    assert c["sequential"] is None  # a fixed-size run has no sequential verdict
    assert c["efficiency"] == pytest.approx(c["var_independent"] / c["var_paired"])
    # Duplicate play: both strategies meet the same luck from every seat; the synthetic points are
    # linear in zero-sum luck, so per-deal means cancel it and pairing pays enormously.
    out = runner.invoke(
        _app(),
        ["compare", str(tmp_path), "--a", "strong", "--b", "random", "--metric", "final_points", "--json"],
    )
    assert json.loads(out.output)["efficiency"] > 10
    # A strategy that did not play is the user's error, naming the run and the option (the command
    # line prints it and exits 2: tests/test_challengers.py).
    out = runner.invoke(_app(), ["compare", str(tmp_path), "--a", "strong", "--b", "nobody"])
    assert isinstance(out.exception, RunDirError) and out.exception.field == "--b"
    assert 'strategy "nobody" did not play' in out.exception.message


def test_pairing_at_one_zero_sum_table_is_less_efficient_than_independent_games(tmp_path: Path) -> None:
    from simharness.report.compare import compare_strategies

    run = make_run(tmp_path, n_games=2000, duplicate=False)
    c = compare_strategies(run, "strong", "random", metric="final_points")
    assert c["rho"] < 0 and c["efficiency"] < 1


def test_plan_command() -> None:
    runner = CliRunner()
    out = runner.invoke(_app(), ["plan", "--effect", "0.01", "--baseline", "0.25", "--json"])
    assert out.exit_code == 0, out.output
    p = json.loads(out.output)
    assert p["one_sample"] == 14832 and p["two_arms_per_arm"] == 29821
    out = runner.invoke(
        _app(), ["plan", "--effect", "0.01", "--baseline", "0.25", "--paired-efficiency", "2"]
    )
    assert out.exit_code == 0 and "14,832" in out.output and "E = 2" in out.output
    out = runner.invoke(_app(), ["plan", "--effect", "0.01", "--baseline", "1.5"])
    assert out.exit_code != 0 and "baseline" in out.output
