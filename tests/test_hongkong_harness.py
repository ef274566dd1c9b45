"""Every harness feature for Hong Kong mahjong through the CLI: a small experiment with duplicate
play, two rule variants and an `[until]` sequential test runs; `report` (terminal, JSON, HTML)
gives the summary, the game metrics, the sequential looks and the balance scorecard; `compare`
pairs two strategies; `validate`, `rules`, `schema` and `strategies` know the game."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from simharness import config, engine, store
from simharness.cli import app
from simharness.stats.balance import standings

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

CONFIG = """\
name = "hk-cli"
game = "hongkong"
games = 32
seed = 3
duplicate = true
shard_size = 16
players = ["chicken-fast", "pung-hunter", "defensive", "concealed"]

[rules]
preset = "default"

[variants.seed-table]
min_fan = 0
[variants.min1-spicy]
min_fan = 1
base_table = "spicy"

[until]
a = "chicken-fast"
b = "pung-hunter"
metric = "final_points"
mu0 = 0.0
mu1 = 20.0
look_every = 16
"""


def _ok(args: list[str]) -> str:
    out = runner.invoke(app, args)
    assert out.exit_code == 0, out.output
    return out.output


def test_hand_deltas_give_running_standings_that_end_at_the_final_points() -> None:
    """The hands table's delta_<seat> columns are what the balance scorecard reads for lead changes
    and drama: summed over a game (several winners of one discard included) they reach each seat's
    final points exactly."""
    exp = config.load(ROOT / "configs" / "hongkong-reference.toml")
    rules = dict(next(iter(exp.variants.values())), multi_win="all")
    out = engine.play_batch("hongkong", rules, [s.knobs for s in exp.lineup], seed=3, first_game=0, count=12)
    assert (out["hands"]["winners"] >= 2).any(), "a discard won by two players is in the sample"
    st = standings(out["hands"].with_columns(variant=pl.lit("base")), 4)
    assert st is not None
    last = st.sort("hand").group_by("game", "seat").agg(pl.col("points").last())
    players = out["players"].select("game", pl.col("seat").cast(pl.Int64), "final_points")
    joined = last.join(players, on=["game", "seat"])
    assert joined.height == 12 * 4
    assert (joined["points"] == joined["final_points"]).all()


def test_every_harness_command_works_for_hongkong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    cfg = tmp_path / "hk.toml"
    cfg.write_text(CONFIG)
    assert "min1-spicy" in _ok(["validate", str(cfg)])
    assert "min_fan" in _ok(["rules", "hongkong"])
    assert "delta_3" in _ok(["schema", "hongkong"])
    assert "min_win_fan" in _ok(["strategies", "hongkong", "--knobs"])
    _ok(["run", str(cfg), "--out", str(tmp_path / "out"), "--quiet"])
    run_dir = tmp_path / "out" / "hk-cli"
    run = store.open_run(run_dir)
    games = run.table("games")
    assert games.group_by("variant").len()["len"].to_list() == [32, 32]
    assert set(games["rotation"]) == {0, 1, 2, 3}, "duplicate play seats every rotation"

    report = json.loads(_ok(["report", str(run_dir), "--json"]))
    assert set(report["variant_order"]) == {"seed-table", "min1-spicy"}
    metrics = {(m["variant"], m["strategy"], m["metric"]) for m in report["game_metrics"]}
    assert ("min1-spicy", "all", "draw_rate") in metrics
    assert ("seed-table", "concealed", "claims_per_hand") in metrics
    looks = report["sequential"]["looks"]
    assert [look["games"] for look in looks] == [16, 32]
    card = report["scorecard"]["variants"]["seed-table"]
    assert card["lead_changes"]["estimate"] > 0 and card["drama"]["estimate"] >= 0
    assert "sequential test chicken-fast − pung-hunter" in _ok(["report", str(run_dir)])
    html = tmp_path / "report.html"
    _ok(["report", str(run_dir), "--html", str(html)])
    assert "hk-cli" in html.read_text()

    # Any game of the run is shown as a page (tests/test_show.py checks the page itself).
    shown = runner.invoke(app, ["show", str(run_dir), "--game", "0"])
    assert shown.exit_code == 0, shown.output

    cmp = json.loads(_ok(["compare", str(run_dir), "--a", "chicken-fast", "--b", "concealed", "--json"]))
    assert cmp["paired"] and cmp["shared_deals"] == 8
    # Cross-check against the players table: chicken-fast's win rate in the base variant.
    players = run.table("players").filter(variant="seed-table", strategy="chicken-fast")
    assert cmp["mean_a"]["estimate"] == pytest.approx((players["rank"] == 1).mean())
