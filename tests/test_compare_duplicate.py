"""`simharness compare` and `plan` on a real duplicate run: table and JSON, one pairing efficiency."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from harness_helpers import in_repo  # noqa: F401  (autouse: strategies resolve from the repository)
from typer.testing import CliRunner

from simharness import store
from simharness.cli import app
from simharness.stats.intervals import cluster_mean_ci

CONFIG = """\
name = "dup"
game = "sugoroku"
games = 800
seed = 16
duplicate = true
shard_size = 200
players = ["naive", "greedy", "naive", "random"]
"""


def _invoke(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("dup")
    (tmp / "dup.toml").write_text(CONFIG)
    CliRunner().invoke(app, ["run", str(tmp / "dup.toml"), "--out", str(tmp / "out"), "-q"])
    return tmp / "out" / "dup"


def test_compare_table_on_a_duplicate_run(run_dir: Path) -> None:
    out = _invoke("compare", str(run_dir), "--a", "greedy", "--b", "random", "--metric", "final_points")
    assert "paired difference" in out and "fixed-sample verdict (two-sided t, α=0.05)" in out
    assert "Var a + Var b" in out and "games/deal × Var(d)" in out and "200 (4)" in out
    assert "sequential" not in out and "SPRT" not in out  # a fixed-size run has no sequential verdict


def test_compare_json_keeps_the_clustered_means_and_one_efficiency(run_dir: Path) -> None:
    c = json.loads(_invoke("compare", str(run_dir), "--a", "greedy", "--b", "random", "--json"))
    players = (
        store.open_run(run_dir)
        .table("players")
        # a first place shared by k players (sugoroku's ties = shared) counts 1/k of a win
        .with_columns(((pl.col("rank") == 1) / (pl.col("rank") == 1).sum().over("game")).alias("w"))
    )
    greedy = players.filter(pl.col("strategy") == "greedy")
    assert c["mean_a"] == cluster_mean_ci(greedy["w"].to_numpy(), greedy["deal"].to_numpy()).to_dict()
    assert c["mean_a"]["n"] == 200 and c["games_per_deal"] == 4 and c["shared_deals"] == 200
    # The efficiency by hand: row variances of the two arms over 4 × the variance of the per-deal
    # difference of their mean 1st-place rates.
    per_deal = (
        players.filter(pl.col("strategy").is_in(["greedy", "random"]))
        .group_by("deal", "strategy")
        .agg(pl.col("w").mean())
        .pivot(on="strategy", index="deal", values="w")
    )
    var_d = (per_deal["greedy"] - per_deal["random"]).var()
    var_rows = greedy["w"].var() + players.filter(pl.col("strategy") == "random")["w"].var()
    assert c["var_paired"] == pytest.approx(4 * var_d)
    assert c["var_independent"] == pytest.approx(var_rows)
    assert c["efficiency"] == pytest.approx(var_rows / (4 * var_d))
    assert c["difference"]["estimate"] == pytest.approx((per_deal["greedy"] - per_deal["random"]).mean())
    assert c["verdict"].endswith("at α=0.05") and c["sequential"] is None
    # plan takes E in games: the paired answer is the two-arm answer divided by E, in games and deals.
    p = json.loads(
        _invoke(
            "plan",
            "--effect",
            "0.02",
            "--baseline",
            "0.25",
            "--paired-efficiency",
            f"{c['efficiency']}",
            "--games-per-deal",
            "4",
            "--json",
        )
    )
    assert p["paired_games"] == pytest.approx(p["two_arms_per_arm"] / c["efficiency"], rel=0.01)
    assert p["paired_deals"] == -(-p["paired_games"] // 4)


def test_report_tables_are_clustered_by_deal(run_dir: Path) -> None:
    r = json.loads(_invoke("report", str(run_dir), "--json"))
    block = r["variants"]["base"]
    assert block["deals"] == 200 and all(row["deals"] == 200 for row in block["by_seat"])
    assert all(row["first_place_rate"]["n"] == 200 for row in block["by_strategy"] + block["by_seat"])
    assert block["seat_test"]["test"].startswith("Rao-Scott") and block["seat_test"]["design_effect"] > 1
    seats = r["scorecard"]["seat_tests"]["base"]
    assert seats["wins_vs_uniform"] == block["seat_test"] and seats["seat_by_rank"]["design_effect"] > 1
