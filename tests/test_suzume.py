"""Suzume-jong from Python: the scoring API and CLI, batch tables, configs, strategy scripts and
summary metrics."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from harness_helpers import config_variants, run_with_one_and_two_workers
from stats_fixtures import FakeRun
from typer.testing import CliRunner

from simharness import config, store, tomlfile
from simharness.cli import app
from simharness.engine import OptionError, play_batch, resolve_knobs, resolve_rules, schema
from simharness.games.suzume import YAKUMAN, score_hand, summary_metrics

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def test_score_hand_spec_vectors() -> None:
    r = score_hand("2345r55", "5r", dora="3")
    assert (r["legal"], r["points"], r["set_points"], r["red"], r["dora_points"], r["tanyao"]) == (
        True,
        6,
        3,
        1,
        1,
        1,
    )
    ron = score_hand("2345r55", "5", dora="3", dealer=True, ron=True)
    assert ron["payments"] == {"discarder": 8, "total": 8}
    assert score_hand("2345r55", "5", dora="3", dealer=True)["payments"]["each"] == 3
    sr = score_hand("1r2r3r4r5r6r", "6r", dora="5", dealer=True)
    assert (sr["yakuman"], sr["yakuman_points"], sr["points"], sr["red"]) == ("super_red", 20, 24, 0)
    assert score_hand("CCC123", "1", dora="5", rules={"red_includes_chun": False})["base"] == 5
    # SZ-14: 5 players, tsumo 13 → 4 each, 16 in all.
    assert score_hand("111CCC", "C", dora="5", players=5, rules={"chinyao_value": 9})["payments"] == {
        "each": 4,
        "payers": 4,
        "total": 16,
    }


def test_score_hand_says_why_a_hand_does_not_win() -> None:
    low = score_hand("234678", "2", dora="9")
    assert (low["legal"], low["points"]) == (False, 3)
    assert "under the minimum" in low["reason"]
    assert score_hand("234678", "2", dora="9", rules={"min_points": 0})["legal"]
    shape = score_hand("891234", "8")
    assert shape["legal"] is False and "two sets" in shape["reason"]


@pytest.mark.parametrize(
    ("hand", "win", "dora", "field", "words"),
    [
        ("12345X", "1", None, "hand", "'X' at position 6"),
        ("12345", "1", None, "hand", "expected 6 tiles, got 5"),
        ("1111FF", "1", None, "hand", "too many copies"),
        ("1r1r2345", "1", None, "hand", "only one red 1"),
        ("123456", "7", None, "win", "must be one of the hand's tiles"),
        ("FFFFC1", "F", "F", "dora", "too many copies"),
    ],
)
def test_bad_hands_are_errors_naming_the_field(
    hand: str, win: str, dora: str | None, field: str, words: str
) -> None:
    with pytest.raises(OptionError) as e:
        score_hand(hand, win, dora=dora)
    assert e.value.field == field
    assert words in e.value.message
    args = ["score", "suzume", hand, "--win", win] + (["--dora", dora] if dora else [])
    out = runner.invoke(app, args)
    assert out.exit_code != 0
    assert f"{field}: " in out.output and words in out.output


def test_bad_rules_and_players_are_errors() -> None:
    with pytest.raises(OptionError) as e:
        score_hand("123999", "1", rules={"min_pionts": 0})
    assert e.value.field == "min_pionts" and "min_points" in e.value.message
    for players in (1, 6, 300, -1):
        with pytest.raises(OptionError, match="expected 2 to 5 players"):
            score_hand("123999", "1", players=players)
    out = runner.invoke(app, ["score", "suzume", "123999", "--win", "1", "--players", "300"])
    assert out.exit_code == 2 and "'--players': expected an integer from 2 to 5, got 300" in out.output
    out = runner.invoke(app, ["score", "suzume", "123999", "--win", "1", "--rule", "min_points"])
    assert out.exit_code != 0 and "KEY=VALUE" in out.output


def test_cli_prints_parts_and_json() -> None:
    out = runner.invoke(app, ["score", "suzume", "1r2r3rCCC", "--win", "C", "--dealer"])
    assert out.exit_code == 0, out.output
    assert "super_red" in out.output and "points 25" in out.output and "pays 9" in out.output
    out = runner.invoke(
        app,
        [
            "score",
            "suzume",
            "234678",
            "--win",
            "8",
            "--ron",
            "--json",
            "--rule",
            "min_points=0",
            "--rule",
            "tanyao_value=2",
        ],
    )
    assert out.exit_code == 0, out.output
    r = json.loads(out.output)
    assert (r["legal"], r["points"], r["tanyao"], r["win_type"]) == (True, 4, 2, "ron")
    # as `score riichi`: a hand that does not win exits 1, after showing why
    out = runner.invoke(app, ["score", "suzume", "234678", "--win", "8"])
    assert out.exit_code == 1 and "not a legal win" in out.output


def test_batch_tables_match_the_schema_and_are_consistent() -> None:
    knobs = [resolve_knobs("suzume", k) for k in ({}, {"discard": "random"}, {"fold": True})]
    out = play_batch("suzume", {"min_points": 0}, knobs, seed=3, first_game=0, count=30)
    for t in schema("suzume"):
        assert out[t.name].columns == [c.name for c in t.columns]
    games, players, hands = out["games"], out["players"], out["hands"]
    assert games.height == 30 and players.height == 90
    assert (players.group_by("game").agg(pl.col("final_points").sum())["final_points"] == 120).all()
    assert hands.filter(pl.col("claim") == 0).height == 30 * 12
    assert players["wins"].sum() == hands.filter(pl.col("claims") > 0).height
    split = play_batch("suzume", {"min_points": 0}, knobs, seed=3, first_game=10, count=20)
    assert split["hands"].equals(hands.filter(pl.col("game") >= 10))


@pytest.mark.parametrize("path", sorted((ROOT / "configs").glob("suzume-*p.toml")), ids=lambda p: p.name)
def test_configs_resolve(path: Path) -> None:
    cfg = tomlfile.load(path)
    assert cfg["game"] == "suzume"
    n = len(cfg["players"])
    assert n == int(path.stem.removeprefix("suzume-").removesuffix("p"))
    assert not cfg.get("duplicate") or cfg["games"] % n == 0
    rules = dict(cfg["rules"])
    preset = rules.pop("preset", "default")
    for v in config_variants(cfg):
        resolve_rules("suzume", preset, {**rules, **v})
    for name in cfg["players"]:
        script = tomlfile.load(ROOT / "strategies" / "suzume" / f"{name}.toml")
        assert script["name"] == name and script["game"] == "suzume"
        resolve_knobs("suzume", script.get("knobs", {}))


def test_summary_metrics_long_form() -> None:
    names = ["fastest", "random"]
    knobs = [resolve_knobs("suzume", {}), resolve_knobs("suzume", {"discard": "random"})]
    tables: dict[str, list[pl.DataFrame]] = {"players": [], "hands": [], "games": []}
    for variant, rules in [("min5", {}), ("min0", {"min_points": 0})]:
        out = play_batch("suzume", rules, knobs, seed=5, first_game=0, count=200)
        strategy = pl.Series("strategy", [names[p] for p in out["players"]["player"]])
        tables["players"].append(out["players"].with_columns(pl.lit(variant).alias("variant"), strategy))
        for name in ("hands", "games"):
            tables[name].append(out[name].with_columns(pl.lit(variant).alias("variant")))
    m = summary_metrics(FakeRun(ROOT, {}, {k: pl.concat(v) for k, v in tables.items()}))
    assert m.columns == ["variant", "strategy", "metric", "estimate", "lo", "hi", "n"]
    get = {(r["variant"], r["strategy"], r["metric"]): r for r in m.iter_rows(named=True)}
    win = get[("min5", "fastest", "win_rate")]
    assert win["n"] == 200 and win["lo"] < win["estimate"] < win["hi"]
    players = tables["players"][0]
    assert win["estimate"] == pytest.approx(players.filter(pl.col("player") == 0)["wins"].sum() / (200 * 8))
    assert win["estimate"] > get[("min5", "random", "win_rate")]["estimate"]
    draws0 = get[("min0", "all", "draw_rate")]["estimate"]
    draws5 = get[("min5", "all", "draw_rate")]["estimate"]
    assert draws0 < draws5, "the minimum makes draws likelier"
    assert get[("min5", "fastest", "mean_win_points")]["estimate"] >= 5
    metrics = {k[2] for k in get}
    assert {"tsumo_share", "deal_in_rate", "yakuman_rate", "multi_ron_rate", "chinyao_rate"} <= metrics
    for v in ("min5", "min0"):
        per_type = sum(get[(v, "all", f"{y}_rate")]["estimate"] for y in YAKUMAN.values())
        per_strategy = sum(get[(v, s, "yakuman_rate")]["estimate"] for s in names)
        assert per_type == pytest.approx(per_strategy), "each hand is played by every strategy once"


def test_runs_end_to_end_and_workers_do_not_matter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 4-player config through `simharness run`, small: same tables with 1 or 2 workers, equal
    to one engine batch, and the summary carries the game's metrics."""
    monkeypatch.chdir(ROOT)
    text = (ROOT / "configs" / "suzume-4p.toml").read_text()
    text = text.replace("games = 20000", "games = 48\nshard_size = 12")
    cfg = tmp_path / "small.toml"
    cfg.write_text(text)
    run_dir = run_with_one_and_two_workers(cfg, tmp_path, "suzume-4p")
    exp = config.load(cfg)
    whole = play_batch(
        "suzume",
        exp.variants["beginner"],
        [s.knobs for s in exp.lineup],
        seed=exp.seed,
        first_game=0,
        count=48,
        duplicate=True,
    )
    run = store.open_run(run_dir)
    assert run.table("hands").filter(variant="beginner").drop("variant").equals(whole["hands"])
    metrics = summary_metrics(run)
    assert set(metrics["variant"]) == {"min5", "beginner", "no-chun-red"}
    assert set(metrics["strategy"]) == {"fastest", "max-points", "defensive", "tsumo-only", "all"}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_hand_deltas_sum_to_the_final_points(players: int) -> None:
    """Each hand's point changes sit on its first row (claim 0), so a game's rows add up from the
    starting points to the final points; multiple-ron rows after the first carry none."""
    knobs = [resolve_knobs("suzume", {"discard": "random"} if s % 2 else {}) for s in range(players)]
    rules = resolve_rules("suzume", "default", {"min_points": 0})
    out = play_batch("suzume", rules, knobs, seed=9, first_game=0, count=120)
    hands, final = out["hands"], out["players"]
    deltas = [f"delta_{s}" for s in range(5)]
    assert (hands.filter(pl.col("claim") > 0).select(deltas).to_numpy() == 0).all()
    assert (hands.select(deltas[players:]).to_numpy() == 0).all()
    assert (hands.select(pl.sum_horizontal(deltas[:players]))["delta_0"] == 0).all()  # points only move
    totals = hands.group_by("game").agg(pl.col(deltas[:players]).sum()).sort("game")
    for s in range(players):
        seat = final.filter(pl.col("seat") == s).sort("game")
        assert (seat["final_points"] - rules["starting_points"] == totals[f"delta_{s}"]).all()
    assert hands.filter(pl.col("claim") > 0).height > 0 or players == 2
