"""Hong Kong mahjong from Python: the scoring API and CLI, batch tables, configs, strategy scripts,
summary metrics and a run through `simharness run`."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from harness_helpers import run_with_one_and_two_workers
from typer.testing import CliRunner

from simharness import config, engine, store, tomlfile
from simharness.cli import app
from simharness.engine import OptionError, play_batch, resolve_knobs, schema
from simharness.games.hongkong import FAN_ITEMS, LIMIT_HANDS, score_hand, summary_metrics
from simharness.games.hongkong.metrics import OUTCOME

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def test_score_hand_spec_vectors() -> None:
    # HK-3: concealed all chows, self-drawn, no bonus tiles, seat N: 3 fan, b = 8, 16 each.
    r = score_hand("123456m345p678s9p", "9p", tsumo=True, seat_wind="N")
    assert (r["legal"], r["fan"], r["base"]) == (True, 3, 8)
    assert [i["name"] for i in r["items"]] == ["all_chows", "self_draw", "no_bonus"]
    assert r["payments"] == [{"discarder": None, "deltas": {"E": -16, "S": -16, "W": -16, "N": 48}}]
    # HK-7: big three dragons by discard: the limit, 128 / 64 / 64.
    r = score_hand("555666777z123m1p", "1p", seat_wind="S")
    assert (r["fan"], r["base"], r["limit"]) == (None, 64, "big_three_dragons")
    by_w = next(p for p in r["payments"] if p["discarder"] == "W")
    assert by_w["deltas"] == {"E": -64, "S": 256, "W": -128, "N": -64}
    # HK-16 with a meld and flowers: seat S holds all four flowers (2 fan, replacing own flower).
    r = score_hand("123m456p789s55p", "5p", melds=["pon:777s"], seat_wind="S", flowers=[1, 2, 3, 4])
    assert r["items"] == [{"name": "bonus_set", "fan": 2}]
    # The old-style table: 清一色 7 + 平糊 1 + 門前清 1 + 無花 1.
    r = score_hand("12233445678999p", "9p", preset="old_style")
    assert {i["name"]: i["fan"] for i in r["items"]} == {
        "full_flush": 7,
        "all_chows": 1,
        "concealed": 1,
        "no_bonus": 1,
    }
    assert (r["fan"], r["base"]) == (10, 128), "half-spicy: 128 at 10 fan"


def test_score_hand_says_why_a_hand_does_not_win() -> None:
    r = score_hand("123m456p789s55p", "5p", melds=["pon:777s"], rules={"min_fan": 1})
    assert r["legal"] is False and "under the minimum of 1" in r["reason"]
    assert r["fan"] == 1 and r["counted_fan"] == 0, "the no-bonus fan does not count"
    r = score_hand("123m456p789s12z55p", "5p")
    assert r["legal"] is False and "not complete" in r["reason"]


@pytest.mark.parametrize(
    ("hand", "win", "kwargs", "field"),
    [
        ("123m456p789s5p", "5x", {}, "win"),
        ("123m456p789s5q", "5p", {}, "hand"),
        ("123m456p7s5p", "5p", {}, "hand"),
        ("11111m456p789s5p", "5p", {}, "hand"),
        ("123m406p789s55p", "5p", {}, "hand"),
        ("123m456p789s55p", "5p", {"melds": ["pon:789s"]}, "melds"),
        ("123m456p789s11z55p", "5p", {"seat_wind": "X"}, "seat_wind"),
        ("123m456p789s11z55p", "5p", {"flowers": [5]}, "flowers"),
        ("123m456p789s11z55p", "5p", {"rules": {"min_fan": 99}}, "min_fan"),
        ("123m456p789s11z55p", "5p", {"rules": {"tile_set": 120}}, "tile_set"),
        ("123m456p789s11z55p", "5p", {"preset": "new_style"}, "preset"),
    ],
)
def test_bad_input_is_an_error_naming_the_field(hand: str, win: str, kwargs: dict, field: str) -> None:
    with pytest.raises(OptionError) as e:
        score_hand(hand, win, **kwargs)
    assert e.value.field == field


def test_cli_prints_items_and_json() -> None:
    out = runner.invoke(
        app, ["score", "hongkong", "123456m345p678s9p", "--win", "9p", "--tsumo", "--seat-wind", "N"]
    )
    assert out.exit_code == 0, out.output
    assert "all_chows" in out.output and "base 8" in out.output and "N +48" in out.output
    args = [
        "score",
        "hongkong",
        "777666z55z123456m",
        "--win",
        "5z",
        "--ron",
        "--json",
        "--rule",
        "tile_set=136",
    ]
    out = runner.invoke(app, args)
    assert out.exit_code == 0, out.output
    r = json.loads(out.output)
    assert (r["legal"], r["fan"], r["base"]) == (True, 4, 16)
    out = runner.invoke(
        app,
        ["score", "hongkong", "123m456p789s5p", "--win", "5p", "--melds", "pon:777s", "--rule", "min_fan=1"],
    )
    assert out.exit_code == 1 and "not a legal win" in out.output
    out = runner.invoke(app, ["score", "hongkong", "123m456p789s5q", "--win", "5p"])
    assert out.exit_code == 2 and "hand" in out.output
    out = runner.invoke(app, ["score", "hongkong", "11111m456p789s55p", "--win", "5p"])
    assert out.exit_code == 2 and "copies" in out.output


CHICKEN = ["123m456p789s55p777s", "--win", "5p"]
WITH_KONG = ["123m456p789s55p", "--win", "5p", "--melds", "kan:1111z"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ([*CHICKEN, "--earthly", "--tsumo", "--seat-wind", "S"], "earthly: --earthly with --tsumo"),
        ([*CHICKEN, "--earthly"], "--earthly with --seat-wind E"),
        ([*WITH_KONG, "--earthly", "--seat-wind", "S"], "--earthly with --melds"),
        ([*CHICKEN, "--heavenly", "--tsumo", "--seat-wind", "W"], "--heavenly with --seat-wind W"),
        ([*CHICKEN, "--heavenly", "--ron"], "--heavenly with --ron"),
        ([*WITH_KONG, "--heavenly", "--tsumo"], "--heavenly with --melds"),
        ([*CHICKEN, "--ron", "--tsumo"], "--ron with --tsumo"),
        ([*WITH_KONG, "--last-tile", "--replacement", "--tsumo"], "--last-tile with --replacement"),
        ([*CHICKEN, "--last-tile", "--robbing-kong"], "--last-tile with --robbing-kong"),
        ([*CHICKEN, "--robbing-kong"], "--robbing-kong of 5p"),
        ([*CHICKEN, "--replacement", "--tsumo"], "a replacement is drawn for a kong or a bonus tile"),
        ([*WITH_KONG, "--replacement"], "--replacement with --ron"),
        ([*WITH_KONG, "--kong-on-kong", "--tsumo"], "--kong-on-kong with 1 kong(s)"),
        ([*CHICKEN, "--flowers", "5"], "expected numbers 1-4"),
        ([*CHICKEN, "--seasons", "2,2"], "2 is given twice"),
    ],
)
def test_cli_refuses_circumstances_that_cannot_happen(args: list[str], says: str) -> None:
    out = runner.invoke(app, ["score", "hongkong", *args])
    assert out.exit_code == 2 and says in out.output, out.output


def test_score_hand_refuses_circumstances_that_cannot_happen() -> None:
    with pytest.raises(OptionError) as e:
        score_hand("123m456p789s55p777s", "5p", tsumo=True, earthly=True, seat_wind="S")
    assert e.value.field == "earthly" and "--tsumo" in e.value.message
    r = score_hand("123m456p789s55p777s", "5p", earthly=True, seat_wind="S")
    assert r["limit"] == "earthly_hand" and [p["discarder"] for p in r["payments"]] == ["E"]


def test_cli_says_a_tile_is_not_a_tile_and_prints_no_minus_zero() -> None:
    out = runner.invoke(app, ["score", "hongkong", "123m456p789s55p", "--win", "10p"])
    assert out.exit_code == 2 and '"10p" is not a tile' in out.output and "1z-7z" in out.output
    assert "red five" not in out.output
    # old_style's full responsibility: the discarder pays all, the others nothing (+0, not -0).
    out = runner.invoke(app, ["score", "hongkong", "12233445678999p", "--win", "9p", "--preset", "old_style"])
    assert out.exit_code == 0 and "discarded by S: E +256, S -256, W +0, N +0" in out.output, out.output
    assert "-0" not in out.output


def test_cli_tie_at_the_limit_and_kong_on_kong() -> None:
    # §8.5: four concealed pungs (13 fan of items) over the 10-fan chow reading at the same 64.
    args = ["11122233344455m", "--win", "5m", "--tsumo", "--seat-wind", "S", "--flowers", "1,2,3,4"]
    out = runner.invoke(app, ["score", "hongkong", *args, "--seasons", "2", "--json"])
    assert out.exit_code == 0, out.output
    r = json.loads(out.output)
    assert (r["limit"], r["base"]) == ("four_concealed_pungs", 64)
    # faan-old-style.jsonl's 槓上槓自摸 (234m 111p 444p 66p 111s), the two 1s as the kongs.
    args = ["234m444p66p", "--win", "6p", "--melds", "kan:1111p", "--melds", "ankan:1111s", "--tsumo"]
    out = runner.invoke(app, ["score", "hongkong", *args, "--kong-on-kong", "--preset", "old_style"])
    assert out.exit_code == 0 and "limit hand (kong_on_kong)" in out.output, out.output


def test_batch_tables_match_the_schema_and_are_consistent() -> None:
    knobs = [
        resolve_knobs("hongkong", k)
        for k in ({}, {"discard": "random", "claims": "random"}, {"claims": "never"}, {})
    ]
    out = play_batch("hongkong", {}, knobs, seed=3, first_game=0, count=6)
    for t in schema("hongkong"):
        assert out[t.name].columns == [c.name for c in t.columns]
    games, players, hands = out["games"], out["players"], out["hands"]
    assert games.height == 6 and players.height == 24 and (games["hands"] >= 16).all()
    assert (players.group_by("game").agg(pl.col("final_points").sum())["final_points"] == 0).all()
    assert (hands["tiles"] == 144).all()
    sums = hands.group_by("game").agg(*(pl.col(f"delta_{s}").sum() for s in range(4))).sort("game")
    finals = players.sort("game", "seat")["final_points"].to_list()
    assert [v for row in sums.drop("game").rows() for v in row] == finals
    assert (
        players["wins"].sum()
        == hands.filter(pl.col("winner") >= 0, pl.col("outcome") != OUTCOME["false_win"]).height
    )
    wins = hands.filter(pl.col("outcome").is_in([OUTCOME["self_draw"], OUTCOME["discard_win"]]))
    assert wins.height > 0 and (wins["base"] >= 1).all()
    # Each way of ending the engine names counts the hands that the games table counts so.
    ended = hands.filter(claim=0)["outcome"]
    assert (ended == OUTCOME["exhaustive_draw"]).sum() == games["draws"].sum() > 0
    assert (ended == OUTCOME["self_draw"]).sum() == games["self_draws"].sum() > 0
    robbed_or_discard = ended.is_in([OUTCOME["discard_win"], OUTCOME["robbed_kong"]])
    assert robbed_or_discard.sum() == games["discard_wins"].sum() > 0
    assert (ended == OUTCOME["false_win"]).sum() == games["false_wins"].sum()
    split = play_batch("hongkong", {}, knobs, seed=3, first_game=2, count=4)
    assert split["hands"].equals(hands.filter(pl.col("game") >= 2))


def test_item_and_limit_names_follow_the_schema() -> None:
    docs = {c.name: c.doc for t in schema("hongkong") for c in t.columns if t.name == "hands"}
    table_doc = next(t.doc for t in schema("hongkong") if t.name == "hands")
    assert ", ".join(FAN_ITEMS) in " ".join(table_doc.split())
    assert ", ".join(LIMIT_HANDS) in " ".join(docs["limit"].split())


@pytest.mark.parametrize("path", sorted((ROOT / "configs").glob("hongkong-*.toml")), ids=lambda p: p.name)
def test_configs_resolve(path: Path) -> None:
    """Every config loads completely (variants, grid or sweep, lineup scripts and knobs)."""
    exp = config.load(path)
    assert exp.game == "hongkong" and len(exp.lineup) == 4
    assert not exp.duplicate or exp.games % 4 == 0
    assert all(Path(s.path).parent == ROOT / "strategies" / "hongkong" for s in exp.lineup)


def test_every_strategy_script_is_in_a_config() -> None:
    """Every native script meets the others in an experiment; the Python example is left out (it
    plays chicken-fast's games, slowly: tests/test_hongkong_python.py runs it)."""
    configs = (ROOT / "configs").glob("hongkong-*.toml")
    used = {Path(s.path).stem for path in configs for s in config.load(path).lineup}
    paths = (ROOT / "strategies" / "hongkong").glob("*.toml")
    scripts = {p.stem for p in paths if "python" not in tomlfile.load(p)}
    assert used == scripts


def test_runs_end_to_end_and_workers_do_not_matter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The house-rule config through `simharness run`, small: same tables with 1 or 2 workers, and
    the summary carries Hong Kong's metrics."""
    monkeypatch.chdir(ROOT)
    text = (ROOT / "configs" / "hongkong-house-rules.toml").read_text()
    text = text.replace("games = 2000", "games = 8\nshard_size = 4").replace(
        "min_fan = [0, 1, 3]", "min_fan = [0, 3]"
    )
    cfg = tmp_path / "small.toml"
    cfg.write_text(text)
    run_dir = run_with_one_and_two_workers(cfg, tmp_path, "hongkong-house-rules")
    m = summary_metrics(store.open_run(run_dir))
    assert m.columns == ["variant", "strategy", "metric", "estimate", "lo", "hi", "n"]
    get = {(r["variant"], r["strategy"], r["metric"]): r["estimate"] for r in m.iter_rows(named=True)}
    variants = set(m["variant"])
    assert len(variants) == 4
    for v in variants:
        dist = sum(get[(v, "all", f"fan_{f}")] for f in range(10)) + get[(v, "all", "fan_10plus")]
        assert dist == pytest.approx(1.0)
        assert 0 <= get[(v, "all", "draw_rate")] <= 1
    metrics = {k[2] for k in get}
    assert {
        "win_rate",
        "self_draw_share",
        "deal_in_rate",
        "claims_per_hand",
        "mean_fan",
        "limit_hand_rate",
        "refused_per_hand",
        "bonus_fan_share",
        "limit_hand_share",
    } <= metrics


def test_bao_is_off_in_the_seeds_table_and_the_guarantor_pays_alone_with_it_in_play() -> None:
    """包 in a played game (game 982 of this lineup and seed, under the numeric chance recipe that it
    was found with, holds the one liable win of 2,000 games: big three dragons won on another
    player's discard). The default preset follows the
    seed's table (§8.2, no 包): the discarder pays 128 and the others 64 each. With bao on (as
    old_style has it) the player whose discard made the winner's third exposed dragon set pays the
    whole 256 alone."""
    assert engine.resolve_rules("hongkong")["bao"] == "off"
    assert engine.resolve_rules("hongkong", "old_style")["bao"] == "third_set"
    cfg = ROOT / "configs" / "hongkong-coverage.toml"
    lineup = [s.knobs for s in config.load(cfg).lineup]
    rules = {"mistake_rate": 0.02, "chance_recipe": "numeric"}
    kw = {"seed": 99, "first_game": 982, "count": 1}
    seed = play_batch("hongkong", rules, lineup, **kw)["hands"]
    on = play_batch("hongkong", {**rules, "bao": "third_set"}, lineup, **kw)["hands"]
    liable = on.filter(pl.col("liable") >= 0)
    assert liable.height == 1 and (seed["liable"] == -1).all()
    row = liable.row(0, named=True)
    deltas = [row[f"delta_{s}"] for s in range(4)]
    payer, winner = row["liable"], row["winner"]
    assert payer != winner and deltas[winner] == 256 and deltas[payer] == -256
    assert [d for s, d in enumerate(deltas) if s not in (payer, winner)] == [0, 0]
    usual = seed.filter(pl.col("hand") == row["hand"]).row(0, named=True)
    assert (usual["winner"], usual["limit"], usual[f"delta_{winner}"]) == (winner, row["limit"], 256)
    assert usual[f"delta_{usual['discarder']}"] == -128
    assert sorted(usual[f"delta_{s}"] for s in range(4)) == [-128, -64, -64, 256]


SEVEN_FLOWERS = 1 << FAN_ITEMS.index("seven_flowers")


def test_bonus_tile_wins_are_never_taken_on_a_discard_in_play() -> None:
    """Under old_style (花糊 3, 八仙過海) a player dealt seven bonus tiles could win on the dealer's
    first discard (games 5344, 5563 and 11116 of the coverage lineup, seed 15, under the numeric
    chance recipe that these games were found with: the only three in their first 12,000 games).
    The bonus-tile win is a self-drawn instant win (§8.3 V): at each discard or added kong the
    events show the holder of seven or more bonus tiles, and every such win is its own draw."""
    cfg = ROOT / "configs" / "hongkong-coverage.toml"
    lineup = [s.knobs for s in config.load(cfg).lineup]
    rules = engine.resolve_rules("hongkong", "old_style", {"chance_recipe": "numeric"})
    situations = flower_wins = 0
    for game in (5344, 5563, 11116):
        shown = engine.show_game("hongkong", rules, lineup, seed=15, index=game)
        hands = shown["hands"]
        wins = hands.filter(
            ((pl.col("items") & SEVEN_FLOWERS) != 0) | (pl.col("limit") == LIMIT_HANDS.index("eight_flowers"))
        )
        assert (wins["outcome"] == OUTCOME["self_draw"]).all(), wins.select(
            "hand", "outcome", "winner", "discarder"
        )
        flower_wins += wins.height
        for _, events in shown["events"].group_by("hand", maintain_order=True):
            bonus = [0, 0, 0, 0]
            for seat, kind, tile in events.select("seat", "kind", "tile").iter_rows():
                if tile >= 34:  # a flower or season, dealt, drawn or replaced
                    bonus[seat] += 1
                if kind in (3, 8) and any(n >= 7 for s, n in enumerate(bonus) if s != seat):
                    situations += 1
    assert situations >= 3 and flower_wins >= 3
