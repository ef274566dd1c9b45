"""Trump mahjong from Python: the scorer and its CLI on spec vectors and bad input, the tables of a
batch, configs and strategy scripts, the summary metrics, runs whatever the worker count, and the
Python strategy protocol. The rules themselves are tested in Rust (engine/src/games/trump/tests.rs)."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import polars as pl
import pytest
from harness_helpers import config_variants, run_with_one_and_two_workers
from stats_fixtures import FakeRun
from typer.testing import CliRunner

from simharness import store, tomlfile
from simharness.cli import app
from simharness.engine import OptionError, codes, play_batch, resolve_knobs, resolve_rules, schema, show_game
from simharness.games.trump import YAKU, score_hand, summary_metrics
from simharness.games.trump.python import AlwaysRiichi, shanten, shanten_formula

ROOT = Path(__file__).resolve().parent.parent
ME = __name__
runner = CliRunner()
SPEC = {"chinitsu": False}  # the §14.3 vectors never award chinitsu (see docs/trump.md)
# `hands.outcome`: each way a hand ends → its code, as the engine names them.
OUTCOME = codes("trump", "hands", "outcome")
# `events.kind` of the show: each event → its code, as the engine names them.
KIND = codes("trump", "events", "kind")
(CHOMBO, DEALT, DISCARD, DORA, DRAW, JOKER_OUT, REPLACEMENT, RIICHI, RIICHI_VOID, RON, SET_ASIDE, TSUMO,
 URA) = (KIND[k] for k in ("chombo", "dealt", "discard", "dora", "draw", "joker_out", "replacement", "riichi",
                           "riichi_void", "ron", "set_aside", "tsumo", "ura"))  # fmt: skip


@pytest.mark.parametrize(
    ("hand", "win", "kw", "han", "points"),
    [
        ("8812356", "4", {}, 1, 1),  # TR-H1 pinfu
        ("99123KK", "9", {}, 2, 2),  # TR-H4 chanta
        ("1112379", "8", {}, 3, 4),  # TR-H6 junchan
        ("JJTTTKK", "K", {"round_wind": "J", "seat_wind": "Q", "indicator": "9"}, 6, 12),  # TR-H10
        ("11TJQKX", "9", {"indicator": "K"}, 10, 16),  # TR-H12 kokushi
        ("2346755", "8", {}, 2, 2),  # TR-H15 tanyao pinfu
        ("123456T", "T", {"riichi": True, "indicator": "K"}, 3, 4),  # TR-H17
    ],
)
def test_score_hand_spec_vectors(hand: str, win: str, kw: dict[str, Any], han: int, points: int) -> None:
    r = score_hand(hand, win, ron=True, rules=SPEC, **kw)
    assert r["legal"] and (r["han"], r["points"]) == (han, points)


def test_payments_and_why_a_hand_does_not_win() -> None:
    r = score_hand("1112345", "5", dealer=True, first_turn=True, rules=SPEC)  # TR-H18
    assert {y["name"] for y in r["yaku"]} == {"tenhou", "tsumo"} and r["payments"]["each_child"] == 8
    r = score_hand("12355QQ", "Q", riichi=True, indicator="4", jokers=1)  # TR-H19
    pay = r["payments"]
    assert (r["han"], pay["dealer"], pay["other_child"], pay["total"]) == (5, 8, 4, 12)
    assert not score_hand("123456T", "T", ron=True, indicator="K")["legal"]  # TR-H16
    assert "Joker" in score_hand("11TJQK9", "X", ron=True)["reason"]  # TR-H13
    assert "not a winning shape" in score_hand("1133888", "8")["reason"]  # TR-H9
    strict = {"kanzen_sakizuke": True}
    assert "先付け" in score_hand("23455JJ", "J", ron=True, rules=strict)["reason"]  # TR-H21
    r = score_hand("8812356", "4", ron=True)
    assert "chinitsu" in {y["name"] for y in r["yaku"]} and r["han"] == 3, "an all-number hand by §6.1"


@pytest.mark.parametrize(
    ("hand", "win", "kw", "field"),
    [
        ("123456", "7", {}, "hand"),  # wrong count
        ("12345Z7", "7", {}, "hand"),  # bad card
        ("1111234", "1", {}, "hand"),  # five copies of a rank
        ("XX12345", "X", {}, "hand"),  # three Jokers
        ("XX12345", "6", {"jokers": 1}, "hand"),  # three Jokers with one set aside
        ("1234567", "77", {}, "win"),
        ("1234567", "7", {"seat_wind": "K"}, "seat_wind"),
        ("1234567", "7", {"indicator": "X"}, "indicator"),
        ("1234567", "7", {"ippatsu": True}, "ippatsu"),
        ("1234567", "7", {"rules": {"furiten": "on"}}, "furiten"),
    ],
)
def test_bad_hands_and_rules_are_errors_naming_the_field(
    hand: str, win: str, kw: dict[str, Any], field: str
) -> None:
    with pytest.raises(OptionError) as e:
        score_hand(hand, win, **kw)
    assert e.value.field == field


def test_cli_prints_yaku_and_json_and_exits_2_on_bad_hands() -> None:
    out = runner.invoke(app, ["score", "trump", "8812356", "--win", "4", "--ron", "--rule", "chinitsu=false"])
    assert out.exit_code == 0 and "pinfu" in out.output and "1 han -> 1 points" in out.output
    out = runner.invoke(
        app, ["score", "trump", "11TJQKX", "--win", "9", "--ron", "--indicator", "K", "--json"]
    )
    r = json.loads(out.output)
    assert (r["legal"], r["han"], r["points"], r["yaku"][0]["name"]) == (True, 10, 16, "kokushi")
    assert r["payments"] == {"discarder": 16, "total": 16}
    out = runner.invoke(app, ["score", "trump", "1234567", "--win", "7", "--tsumo", "--dealer", "--json"])
    assert json.loads(out.output)["payments"]["each_child"] == 4  # tsumo 1 + chinitsu 2: P = 4
    out = runner.invoke(app, ["score", "trump", "1133888", "--win", "8"])  # TR-H9: exit 1, not a win
    assert out.exit_code == 1 and "not a win: " in out.output
    for bad in (
        ["1111234", "--win", "1"],
        ["XX12345", "--win", "X"],
        ["123", "--win", "1"],
        ["1234567", "--win", "7", "--rule", "rounds=4"],
    ):
        out = runner.invoke(app, ["score", "trump", *bad])
        assert out.exit_code == 2, bad


def test_batch_tables_match_the_schema_and_conserve_points() -> None:
    knobs = [resolve_knobs("trump", k) for k in ({}, {"discard": "random"}, {"fold": True})]
    out = play_batch("trump", {}, knobs, seed=3, first_game=0, count=40)
    for t in schema("trump"):
        assert out[t.name].columns == [c.name for c in t.columns]
    games, players, hands = out["games"], out["players"], out["hands"]
    assert games.height == 40 and players.height == 120
    assert (players.group_by("game").agg(pl.col("final_points").sum())["final_points"] == 0).all()
    raw = players.group_by("game").agg(pl.col("points").sum()).join(games, on="game")
    assert ((raw["points"] + raw["sticks_left"]) == 3 * 35).all()
    first = hands.filter(pl.col("claim") == 0)
    assert first.height == games["hands"].sum()
    deltas = hands.group_by("game").agg(*(pl.col(f"delta_{s}").sum() for s in range(3))).sort("game")
    for s in range(3):
        end = players.filter(seat=s).sort("game")["points"]
        assert (deltas[f"delta_{s}"] + 35 == end).all()
    assert ((games["hands"] >= 9) | games["bust"]).all()
    split = play_batch("trump", {}, knobs, seed=3, first_game=10, count=30)
    assert split["hands"].equals(hands.filter(pl.col("game") >= 10))


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('players = ["dama", "dama", "dama", "dama"]', "players"),
        ('players = ["dama", "dama", "dama"]\n[rules]\nrounds = 4', "rules.rounds"),
        ('players = ["dama", "dama", "dama"]\n[rules]\nplayers = 4', "rules.players"),
        (
            'players = ["dama", "dama", "dama"]\n[rules]\nstarting_points = 1\nriichi_cost = 2',
            "rules.riichi_cost+starting_points",
        ),
        (
            'players = ["dama", {strategy = "dama", knobs = {kokushi_shanten = 99}}, "dama"]',
            "players[1].knobs.kokushi_shanten",
        ),
        ('players = ["dama", "dama", "dama"]\n[rules]\nmistake_rate = -0.01', "rules.mistake_rate"),
        ('players = ["dama", "dama", "dama"]\n[rules]\nmistake_rate = 2', "rules.mistake_rate"),
        ('players = ["dama", "dama", "dama"]\n[rules]\nchombo_penalty = -4', "rules.chombo_penalty"),
    ],
)
def test_bad_configs_exit_2_naming_the_field(tmp_path: Path, body: str, field: str) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text(f'name = "bad"\ngame = "trump"\ngames = 30\nseed = 1\n{body}\n')
    out = runner.invoke(app, ["validate", str(cfg)])
    assert out.exit_code == 2 and f"bad.toml: {field}: " in out.stderr, out.output


@pytest.mark.parametrize("path", sorted((ROOT / "configs").glob("trump-*.toml")), ids=lambda p: p.name)
def test_configs_resolve(path: Path) -> None:
    cfg = tomlfile.load(path)
    assert cfg["game"] == "trump" and len(cfg["players"]) == 3
    assert not cfg.get("duplicate") or cfg["games"] % 3 == 0
    rules = dict(cfg["rules"])
    preset = rules.pop("preset", "default")
    for v in config_variants(cfg):
        resolve_rules("trump", preset, {**rules, **v})


def test_every_strategy_script_resolves_and_the_study_covers_t1_to_t6() -> None:
    scripts = sorted((ROOT / "strategies" / "trump").glob("*.toml"))
    for path in scripts:
        script = tomlfile.load(path)
        assert script["name"] == path.stem and script["game"] == "trump"
        resolve_knobs("trump", script.get("knobs", {}))
    studies = (ROOT / "configs").glob("trump-strategies-*.toml")
    studied = {p for path in studies for p in tomlfile.load(path)["players"]}
    assert studied == {"always-riichi", "dama", "fold-on-riichi", "tsumo-only", "kokushi-hunter", "max-han"}


def _summary(out: dict[str, pl.DataFrame], names: list[str]) -> pl.DataFrame:
    """The summary metrics of one batch as the run of one variant, ``base``, slot ``i`` named ``names[i]``."""
    strategy = pl.Series("strategy", [names[p] for p in out["players"]["player"]])
    tables = {"players": out["players"].with_columns(pl.lit("base").alias("variant"), strategy)}
    for t in ("games", "hands"):
        tables[t] = out[t].with_columns(pl.lit("base").alias("variant"))
    return summary_metrics(FakeRun(ROOT, {}, tables))


def test_summary_metrics_long_form() -> None:
    knobs = [resolve_knobs("trump", k) for k in ({}, {"riichi": False}, {"discard": "random"})]
    out = play_batch("trump", {}, knobs, seed=5, first_game=0, count=300)
    m = _summary(out, ["always-riichi", "dama", "random"])
    assert m.columns == ["variant", "strategy", "metric", "estimate", "lo", "hi", "n"]
    get = {(r["strategy"], r["metric"]): r["estimate"] for r in m.iter_rows(named=True)}
    assert get[("dama", "riichi_rate")] == 0 and get[("always-riichi", "riichi_rate")] > 0.1
    assert ("dama", "riichi_success") not in get and 0 < get[("always-riichi", "riichi_success")] < 1
    assert not any(k[1] == "chombo_rate" for k in get)  # no mistakes, no column of zeros
    assert get[("always-riichi", "win_rate")] > get[("random", "win_rate")]
    hands = out["hands"]
    assert get[("all", "draw_rate")] == pytest.approx((hands.filter(claim=0)["claims"] == 0).mean())
    for metric in (
        "deal_in_rate",
        "riichi_success",
        "tsumo_share",
        "mean_han",
        "mean_win_points",
        "jokers_per_hand",
        "kokushi_rate",
        "dealer_keep_rate",
    ):
        assert any(k[1] == metric for k in get), metric
    assert get[("always-riichi", "mean_han")] >= 1 and YAKU[16] == "kokushi"


def test_runs_end_to_end_and_workers_do_not_matter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    text = (ROOT / "configs" / "trump-house-rules.toml").read_text()
    text = text.replace("games = 30000", "games = 36\nshard_size = 12")
    cfg = tmp_path / "small.toml"
    cfg.write_text(text)
    run_dir = run_with_one_and_two_workers(cfg, tmp_path, "trump-house-rules")
    metrics = summary_metrics(store.open_run(run_dir))
    assert len(set(metrics["variant"])) == 4 and "riichi_success" in set(metrics["metric"])


SEQUENTIAL = """\
name = "trump-seq"
game = "trump"
games = 3000
seed = 11
duplicate = true
shard_size = 150
players = ["always-riichi", "tsumo-only", "dama"]

[variants.base]
[variants.sakizuke]
kanzen_sakizuke = true

[until]
a = "always-riichi"
b = "tsumo-only"
metric = "final_points"
mu1 = 3.0
look_every = 300
"""


def test_harness_features_from_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """validate, run with variants, duplicate deals and [until], report (terminal, JSON with the
    scorecard and the Trump metrics, HTML) and compare, all through the CLI on a Trump run."""
    monkeypatch.chdir(ROOT)
    cfg = tmp_path / "seq.toml"
    cfg.write_text(SEQUENTIAL)
    assert runner.invoke(app, ["validate", str(cfg)]).exit_code == 0
    out = runner.invoke(app, ["run", str(cfg), "--out", str(tmp_path), "--quiet", "--jobs", "2"])
    assert out.exit_code == 0, out.output
    run_dir = tmp_path / "trump-seq"
    seq = json.loads((run_dir / "manifest.json").read_text())["sequential"]
    # Riichi against a player who never rons: far apart, so the SPRT stops at the first look.
    assert seq["decision"] == "effect+" and seq["games"] == 300
    games = store.open_run(run_dir).table("games")
    assert games.group_by("variant").len()["len"].to_list() == [300, 300]
    assert set(games["rotation"]) == {0, 1, 2} and games.group_by("variant", "deal").len()["len"].max() == 3

    out = runner.invoke(app, ["report", str(run_dir), "--json", "--html", str(tmp_path / "r.html")])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert report["sequential"]["result"]["decision"] == "effect+"
    metrics = {(m["variant"], m["strategy"], m["metric"]): m["estimate"] for m in report["game_metrics"]}
    assert metrics[("base", "tsumo-only", "tsumo_share")] == 1
    assert metrics[("base", "dama", "riichi_rate")] == 0
    card = report["scorecard"]
    assert card["hand_level"] and card["bust_source"] == "the games table's bust column"
    # The scorecard's bust rate is the game's own: a player at 0 or fewer ends it (§8).
    base = card["variants"]["base"]
    busts = games.filter(pl.col("variant") == "base")["bust"]
    assert base["bust_rate"]["estimate"] == pytest.approx(busts.mean())
    assert base["lead_changes"]["estimate"] > 0
    assert (tmp_path / "r.html").stat().st_size > 0

    out = runner.invoke(
        app,
        [
            "compare",
            str(run_dir),
            "--a",
            "always-riichi",
            "--b",
            "tsumo-only",
            "--metric",
            "final_points",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    c = json.loads(out.stdout)
    assert c["paired"] and c["shared_deals"] == 100 and c["difference"]["lo"] > 0
    assert c["sequential"] is not None


def test_python_shanten_matches_hand_worked_examples() -> None:
    def counts(cards: str) -> tuple[int, ...]:
        c = [0] * 13
        for ch in cards:
            c["123456789TJQK".index(ch)] += 1
        return tuple(c)

    assert shanten(counts("1133557")) == 0  # 11 33 55 + 7: four pairs waits on 7
    assert shanten(counts("1234567")) == 0
    assert shanten(counts("1247TJK")) == 3


def test_python_shanten_through_the_engine_tables_is_the_formula() -> None:
    """The example's shanten reads the Riichi tables; on 3,000 random 7-card hands (and all of a
    hand's ranks held four times) it equals spec §12's formula."""
    rng = random.Random(27)
    deck = [rank for rank in range(13) for _ in range(4)]
    hands = [tuple(sorted(rng.sample(deck, 7))) for _ in range(3000)]
    hands += [(r,) * 4 + (s, s, t) for r, s, t in [(0, 1, 2), (9, 10, 12), (4, 3, 3)]]
    for hand in hands:
        c = tuple(hand.count(rank) for rank in range(13))
        assert shanten(c) == shanten_formula(c), hand


class Passive:
    """Never wins, sets every Joker aside and discards what it drew: only draws can end hands."""

    asked: ClassVar[set[str]] = set()

    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> int:
        Passive.asked.add(view["point"])
        assert len(view["seen"]) == 14 and len(view["points"]) == 3
        if view["point"] == "discard":
            assert legal[: len(view["hand"])] == [("discard", c) for c in view["hand"]]
            assert all(a[0] == "riichi" for a in legal[len(view["hand"]) :])
            return len(view["hand"]) - 1
        assert view["point"] != "joker" or 52 in view["hand"] or 53 in view["hand"]
        return 1


class ShantenAfter(AlwaysRiichi):
    """Decides as AlwaysRiichi after checking the view's `shanten_after` against the §12 shanten of
    the 7 cards each discard leaves of `hand` (so the key tells the seat nothing its hand does
    not), and that the first legal action tells the point."""

    checked = 0

    def decide(self, view: Mapping[str, Any], legal: list[tuple[Any, ...]]) -> int:
        after = view["shanten_after"]
        assert isinstance(after, bytes) and len(after) == len(legal)
        first = {"joker": "keep", "tsumo": "tsumo", "ron": "ron", "discard": "discard"}[view["point"]]
        assert legal[0][0] == first
        hand = view["hand"]
        for a, s in zip(legal, after, strict=True):
            if a[0] not in ("discard", "riichi"):
                assert s == 255
            elif max(hand) < 52:  # the Python formula leaves Jokers out
                rest = list(hand)
                rest.remove(a[1])
                assert s == shanten(tuple(sum(c // 4 == k for c in rest) for k in range(13)))
                ShantenAfter.checked += 1
        return super().decide(view, legal)


class Raises:
    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> int:
        raise KeyError("no such key")


def test_python_protocol_decisions_are_honoured() -> None:
    k = resolve_knobs("trump", {})
    out = play_batch("trump", {}, [dict(k, python=f"{ME}:Passive")] * 3, seed=4, first_game=0, count=20)
    assert (out["hands"]["outcome"] == OUTCOME["exhaustive_draw"]).all() and (
        out["players"]["riichi"] == 0
    ).all()
    assert {"discard", "tsumo", "ron"} <= Passive.asked
    assert out["players"]["jokers"].sum() > 0
    example = play_batch(
        "trump",
        {},
        [dict(k, python="simharness.games.trump.python:AlwaysRiichi"), k, k],
        seed=4,
        first_game=0,
        count=20,
    )
    assert example["players"].filter(player=0)["wins"].sum() > 0 and isinstance(AlwaysRiichi(), AlwaysRiichi)
    ShantenAfter.checked = 0
    play_batch("trump", {}, [dict(k, python=f"{ME}:ShantenAfter"), k, k], seed=4, first_game=0, count=20)
    assert ShantenAfter.checked > 1000
    with pytest.raises(KeyError, match=r"lineup slot 1 \(seat \d\) at (joker|tsumo|discard|ron): "):
        play_batch("trump", {}, [k, dict(k, python=f"{ME}:Raises"), k], seed=4, first_game=0, count=2)


def test_show_log_rebuilds_every_hand_and_its_payments() -> None:
    """`show` plays the batch's game (same rows) and its log accounts for it: every card comes into
    play once, a card leaves a hand only if held, a hand holds 7 after each discard, Jokers set
    aside or put out of play are Jokers, the win card is the last drawn or discarded, the yaku
    rows add up to `yaku_han`, and riichi sticks plus payments make each hand's point changes."""
    rules = resolve_rules("trump", "default", {"multi_ron": "double"})
    hunter = {"kokushi_hunt": True, "kokushi_kinds": 4, "kokushi_shanten": 3}
    knobs = [resolve_knobs("trump", k) for k in ({}, hunter, {"discard": "random"})]
    batch = play_batch("trump", rules, knobs, seed=11, first_game=0, count=24)
    seen_kinds: set[int] = set()
    for game in range(24):
        shown = show_game("trump", rules, knobs, seed=11, index=game)
        for t in ("games", "players", "hands"):
            assert shown[t].equals(batch[t].filter(pl.col("game") == game)), t
        for (hand,), rows in shown["hands"].group_by("hand", maintain_order=True):
            events = shown["events"].filter(pl.col("hand") == hand).sort("seq")
            seen_kinds |= set(events["kind"].to_list())
            _check_hand_log(events, rows, shown, int(hand), int(rules["riichi_cost"]))
    # Every kind of event happened at least once in these games (chombos need mistakes: below).
    assert seen_kinds == set(KIND.values()) - {CHOMBO}


def test_show_log_accounts_for_each_chombo_and_its_replay() -> None:
    """With mistake injection the shown games' logs still account for every hand, and for each
    chombo: the false tsumo is on the card just drawn by the offender and ends the hand, the riichi
    sticks of the hand go back, the offender pays `chombo_penalty` to each opponent, and the next
    hand is the replay by the same dealer on a new wall (other cards dealt)."""
    rules = resolve_rules("trump", "default", {"mistake_rate": 0.02, "chombo_penalty": 5})
    knobs = [resolve_knobs("trump", k) for k in ({}, {"riichi": False}, {"discard": "random"})]
    batch = play_batch("trump", rules, knobs, seed=7, first_game=0, count=40)
    replays = returned = 0
    for game in range(40):
        shown = show_game("trump", rules, knobs, seed=7, index=game)
        for t in ("games", "players", "hands"):
            assert shown[t].equals(batch[t].filter(pl.col("game") == game)), t
        dealt: dict[int, list[int]] = {}
        for (hand,), rows in shown["hands"].group_by("hand", maintain_order=True):
            events = shown["events"].filter(pl.col("hand") == hand).sort("seq")
            _check_hand_log(events, rows, shown, int(hand), 1, penalty=5)
            dealt[int(hand)] = events.filter(pl.col("kind") == DEALT)["card"].to_list()
            kinds = events["kind"].to_list()
            returned += CHOMBO in kinds and RIICHI_VOID in kinds
        hands = shown["hands"].sort("hand").to_dicts()
        for h, after in itertools.pairwise(hands):
            if h["outcome"] == OUTCOME["chombo"]:
                same = (h["dealer"], h["round"], h["repeat"] + 1)
                assert (after["dealer"], after["round"], after["repeat"]) == same
                assert dealt[after["hand"]] != dealt[h["hand"]]
                replays += 1
    assert replays >= 10 and returned >= 1, (replays, returned)


def test_mistake_injection_in_batches_and_the_summary() -> None:
    """`mistake_rate` > 0: points are conserved and settle to zero, each chombo costs its offender
    exactly 2 × `chombo_penalty` (one to each opponent), `players.chombo` counts the offenders'
    rows, the tables do not depend on the chunking, and the summary adds `chombo_rate` (per hand,
    the same count) while `draw_rate` stays exhaustive draws only. Without mistakes
    `chombo_penalty` changes nothing."""
    knobs = [resolve_knobs("trump", k) for k in ({}, {"riichi": False}, {"fold": True})]
    rules = resolve_rules("trump", "default", {"mistake_rate": 0.01, "chombo_penalty": 6})
    out = play_batch("trump", rules, knobs, seed=2, first_game=0, count=200)
    games, players, hands = out["games"], out["players"], out["hands"]
    assert (players.group_by("game").agg(pl.col("final_points").sum())["final_points"] == 0).all()
    chombos = hands.filter(pl.col("outcome") == OUTCOME["chombo"])
    assert chombos.height == games["chombos"].sum() == players["chombo"].sum() > 20
    # Each way of ending the engine names counts the hands that the games table counts so.
    ended = hands.filter(claim=0)["outcome"]
    for name, column in (("exhaustive_draw", "draws"), ("tsumo", "tsumo_hands"), ("ron", "ron_hands")):
        assert (ended == OUTCOME[name]).sum() == games[column].sum() > 0, name
    assert (ended == OUTCOME["chombo"]).sum() == chombos.height
    for h in chombos.iter_rows(named=True):
        assert [h[f"delta_{s}"] for s in range(3)] == [-12 if s == h["offender"] else 6 for s in range(3)]
    by_slot = chombos.group_by("offender_player").len().sort("offender_player")["len"].to_list()
    per_player = players.group_by("player").agg(pl.col("chombo").sum()).sort("player")["chombo"].to_list()
    assert by_slot == per_player
    split = play_batch("trump", rules, knobs, seed=2, first_game=77, count=123)
    for t in ("games", "players", "hands"):
        assert split[t].equals(out[t].filter(pl.col("game") >= 77)), t
    summary = _summary(out, ["always-riichi", "dama", "fold-on-riichi"])
    m = {(r["strategy"], r["metric"]): r["estimate"] for r in summary.iter_rows(named=True)}
    first = hands.filter(claim=0)
    assert m[("all", "draw_rate")] == pytest.approx((first["outcome"] == OUTCOME["exhaustive_draw"]).mean())
    dama = players.filter(player=1).join(games.select("game", "hands"), on="game")
    assert m[("dama", "chombo_rate")] == pytest.approx((dama["chombo"] / dama["hands"]).mean())
    quiet = play_batch("trump", {"chombo_penalty": 9}, knobs, seed=2, first_game=0, count=60)
    plain = play_batch("trump", {}, knobs, seed=2, first_game=0, count=60)
    assert all(quiet[t].equals(plain[t]) for t in ("games", "players", "hands"))
    assert plain["games"]["chombos"].sum() == 0


def test_rules_lists_the_mistake_options() -> None:
    out = runner.invoke(app, ["rules", "trump", "--json"])
    assert out.exit_code == 0, out.output
    options = {o["name"]: o for o in json.loads(out.output)["options"]}
    assert options["mistake_rate"]["default"] == 0 and options["chombo_penalty"]["default"] == 4
    with pytest.raises(OptionError) as e:
        resolve_rules("trump", "default", {"chombo_penalty": -1})
    assert e.value.field == "chombo_penalty"


def test_both_riichi_winners_of_a_double_ron_read_one_ura_indicator() -> None:
    """Under `multi_ron = "double"` one ura-dora indicator is turned per hand (A6: card #2 of the dead
    wall), and both riichi winners of a double ron count it: the second does not turn card #3."""
    rules = resolve_rules("trump", "default", {"multi_ron": "double"})
    knobs = [resolve_knobs("trump", {})] * 3
    doubles = 0
    for game in range(150):
        shown = show_game("trump", rules, knobs, seed=3, index=game)
        rons = shown["events"].filter(pl.col("kind") == RON).group_by("hand").agg(pl.col("seat"))
        for hand, seats in rons.filter(pl.col("seat").list.len() == 2).iter_rows():
            events = shown["events"].filter(pl.col("hand") == hand)
            riichi = set(events.filter(pl.col("kind") == RIICHI)["seat"]) - set(
                events.filter(pl.col("kind") == RIICHI_VOID)["seat"]
            )
            if not set(seats) <= riichi:
                continue
            doubles += 1
            assert events.filter(pl.col("kind") == URA).height == 1, events
            wins = shown["hands"].filter(pl.col("hand") == hand)
            assert wins.height == 2 and wins["ura_kind"].n_unique() == 1, wins
        if doubles >= 3:
            break
    assert doubles >= 3, "no double ron between two riichi hands in these games"


def _check_hand_log(events: pl.DataFrame, rows: pl.DataFrame, shown: dict[str, pl.DataFrame], hand: int,
                    cost: int, penalty: int = 4) -> None:  # fmt: skip
    held: list[set[int]] = [set(), set(), set()]
    into_play: set[int] = set()
    last_in: list[int | None] = [None, None, None]
    last_out = None
    riichi = [0, 0, 0]
    wins: list[tuple[int, int]] = []
    for seat, kind, card in events.select("seat", "kind", "card").iter_rows():
        if kind in (DEALT, DRAW, REPLACEMENT, DORA, URA, JOKER_OUT):
            assert card not in into_play
            into_play.add(card)
        if kind in (JOKER_OUT, SET_ASIDE, DORA, URA):
            assert (card >= 52) == (kind in (JOKER_OUT, SET_ASIDE))
        if kind in (DEALT, DRAW, REPLACEMENT):
            held[seat].add(card)
            last_in[seat] = card
        elif kind in (SET_ASIDE, DISCARD, RIICHI):
            assert card in held[seat]
            held[seat].discard(card)
            if kind != SET_ASIDE:
                assert len(held[seat]) == 7
                last_out = card
                riichi[seat] += kind == RIICHI
        elif kind == RIICHI_VOID:
            riichi[seat] -= 1
        elif kind in (TSUMO, RON, CHOMBO):
            assert card == (last_in[seat] if kind != RON else last_out)
            wins.append((seat, card))
    assert sum(1 for _, k in events.select("seat", "kind").iter_rows() if k == DEALT) == 21
    first = rows.row(0, named=True)
    assert riichi == [int(first[f"riichi_{s}"]) for s in range(3)]
    if first["outcome"] == OUTCOME["chombo"]:
        # The false tsumo ends the hand; its riichi sticks went back (RIICHI_VOID, counted above).
        assert [w for w, _ in wins] == [first["offender"]] and rows.height == 1
        assert [k for k in events["kind"].to_list() if k != RIICHI_VOID][-1] == CHOMBO
        assert [first[f"delta_{s}"] for s in range(3)] == [
            -2 * penalty if s == first["offender"] else penalty for s in range(3)
        ]
        return
    claims = rows.filter(pl.col("winner") >= 0)
    assert [w for w, _ in wins] == claims["winner"].to_list()
    yaku = shown["win_yaku"].filter(pl.col("hand") == hand)
    pay = shown["payments"].filter(pl.col("hand") == hand)
    change = [-cost * r for r in riichi]
    for c in claims.iter_rows(named=True):
        w = c["winner"]
        mine = yaku.filter(pl.col("winner") == w)
        assert mine["han"].sum() == c["yaku_han"]
        assert sum(1 << y for y in mine["yaku"].to_list()) == c["yaku"]
        for payer, points in pay.filter(pl.col("winner") == w).select("payer", "points").iter_rows():
            change[payer] -= points
            change[w] += points
        change[w] += c["sticks"]
    assert change == [first[f"delta_{s}"] for s in range(3)]
