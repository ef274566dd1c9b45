"""Riichi hand tools from Python and the command line: shanten data through the batch API, the
scoring API's results and errors, rule catalogue, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from simharness.cli import app
from simharness.engine import OptionError
from simharness.games import riichi

SHANTEN = Path(__file__).resolve().parent / "data" / "riichi" / "shanten"


def test_shanten_testdata_through_the_batch_api() -> None:
    rows = []
    for name in ("p_normal_10000.txt", "p_hon_10000.txt", "p_tin_10000.txt", "p_koku_10000.txt"):
        rows += [
            list(map(int, line.split())) for line in (SHANTEN / name).read_text().splitlines() if line.strip()
        ]
    data = np.array(rows)
    counts = np.zeros((len(data), 34), dtype=np.uint8)
    np.add.at(counts, (np.repeat(np.arange(len(data)), 14), data[:, :14].ravel()), 1)
    got = riichi.shanten_batch(counts)
    assert len(got) == 40_000
    np.testing.assert_array_equal(got, data[:, 14:].min(axis=1))


def test_shanten_single_and_string_batch() -> None:
    assert riichi.shanten("123m456p789s1122z") == 0
    assert riichi.shanten_forms("19m19p19s1234567z") == (8, 6, 0)
    assert riichi.shanten("11m") == -1
    assert list(riichi.shanten_batch(["123m456p789s1122z", "119m19p19s1234567z"])) == [0, -1]
    assert riichi.ukeire("23m456p789s11z", visible="1m4m4m") == {"1m": 3, "4m": 2}
    assert riichi.waits("1112345678999m") == [f"{i}m" for i in range(1, 10)]
    with pytest.raises(OptionError) as e:
        riichi.shanten("123m456p789s112z")
    assert e.value.field == "hand" and "got 12" in e.value.message
    with pytest.raises(OptionError) as e:
        riichi.shanten_batch(["123m456p789s1122z", "1x"])
    assert e.value.field == "hands[1]"


def test_score_hand_reports_every_part() -> None:
    s = riichi.score_hand(
        "234m340p567p33s67s", "8s", seat_wind="S", dora="4p", ura="1z", riichi=True, honba=1
    )
    assert (s.han, s.fu, s.dora, s.aka, s.ura) == (6, 30, 2, 1, 0)
    assert dict(s.yaku) == {"riichi": 1, "pinfu": 1, "tanyao": 1}
    assert (s.limit, s.points, s.payments.ron) == ("haneman", 12000, 12300)
    # Dealer tsumo: riichi, tsumo, pinfu, tanyao, red five = 5 han, mangan 4000 all.
    s = riichi.score_hand(
        "234m340p567p33s67s", "8s", seat_wind="E", tsumo=True, riichi=True, deposits=2, honba=2
    )
    assert (s.han, s.fu, s.points, s.payments.tsumo_non_dealer, s.payments.received) == (
        5,
        20,
        12000,
        4200,
        14600,
    )


def test_not_winning_and_bad_input_are_clear_errors() -> None:
    with pytest.raises(riichi.HandNotWinning, match="no yaku"):
        riichi.score_hand("123m456p789s1122z", "2z")
    with pytest.raises(riichi.HandNotWinning, match="not a complete hand"):
        riichi.score_hand("123m456p789s1123z", "5z")
    with pytest.raises(OptionError) as e:
        riichi.score_hand("567p789s8s", "8s", melds=["pon:777z", "chi:234m"], riichi=True)
    assert e.value.field == "riichi"
    with pytest.raises(OptionError) as e:
        riichi.score_hand("123m456p789s1122z", "1z", kuitann=False)
    assert e.value.field == "kuitann" and "kuitan" in e.value.message
    with pytest.raises(OptionError) as e:
        riichi.score_hand("123m456p789s1122z", "1z", melds=["chi:135m"])
    assert e.value.field == "melds"
    assert issubclass(riichi.HandNotWinning, ValueError) and issubclass(OptionError, ValueError)


def test_rule_catalogue_and_presets() -> None:
    names = {o.name for o in riichi.rule_options()}
    for key in (
        "kuitan",
        "atozuke",
        "kansaki",
        "aka_dora",
        "kiriage_mangan",
        "kazoe_yakuman",
        "yakuman_stacking",
        "double_kokushi13",
        "double_suuankou_tanki",
        "double_daisuushii",
        "double_junsei_chuuren",
        "renhou",
        "local_yaku",
        "double_wind_pair_fu",
        "open_no_fu_min",
        "pinfu_tsumo",
        "chiitoitsu_fu",
    ):
        assert key in names, key  # fmt: skip
    presets = {p.name for p in riichi.presets()}
    assert {"tenhou", "nashi_nashi", "ema"} <= presets
    assert riichi.resolve_rules("tenhou")["double_kokushi13"] is False
    with pytest.raises(OptionError) as e:
        riichi.resolve_rules("tenhou", aka_dora=2)
    assert e.value.field == "aka_dora"


def test_house_rules_change_the_value() -> None:
    hand = dict(hand="77z234p78m", win="6m", melds=["pon:555z", "pon:666z"], seat_wind="S")
    assert riichi.score_hand(**hand).points == 7700
    assert riichi.score_hand(**hand, kiriage_mangan=True).points == 8000
    k13 = dict(hand="19m19p19s1234567z", win="1m", seat_wind="S")
    assert riichi.score_hand(**k13).points == 32000
    assert riichi.score_hand(**k13, rules="default").points == 64000
    # Renhou is off by default (Tenhou); as a mangan it pays at least 8000.
    assert riichi.score_hand("23567m345p678s22p", "4m", seat_wind="S", renhou=True).points == 2000
    as_mangan = riichi.score_hand(
        "23567m345p678s22p", "4m", seat_wind="S", renhou=True, rule_overrides={"renhou": "mangan"}
    )
    assert (as_mangan.points, as_mangan.limit) == (8000, "mangan")


def test_score_batch_matches_single_calls_and_reports_failures() -> None:
    reqs = [
        {"hand": "23567m345p678s22p", "win": "4m", "seat_wind": "S"},
        {"hand": "123m456p789s1122z", "win": "2z"},
        {"hand": "123m456p789s1122z", "win": "2z", "tsumoo": True},
        {"hand": "77z234p78m", "win": "6m", "melds": ["pon:555z", "pon:666z"], "seat_wind": "S",
         "rule_overrides": {"kiriage_mangan": True}},
    ]  # fmt: skip
    b = riichi.score_batch(reqs)
    assert list(b.points) == [2000, 0, 0, 8000]
    assert b.errors[1][0] == "agari" and b.errors[2][0] == "tsumoo"
    names = riichi.yaku_names()
    assert {names[i] for i in range(64) if int(b.yaku_mask[0]) >> i & 1} == {"pinfu", "tanyao"}


runner = CliRunner()


def test_cli_score_and_shanten(tmp_path: Path) -> None:
    r = runner.invoke(app, ["score", "riichi", "123m456p789s1122z", "--win", "2z", "--tsumo", "--riichi",
                            "--seat", "S", "--round", "S", "--dora", "1z"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "7 han 30 fu" in r.output and "haneman" in r.output and "3000 / 6000" in r.output
    r = runner.invoke(app, ["score", "riichi", "567p789s8s", "--win", "8s", "--melds", "pon:777z", "--melds",
                            "chi:234m", "--seat", "S", "--json"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["points"] == 1000
    r = runner.invoke(
        app, ["score", "riichi", "567p789s8s", "--win", "8s", "--melds", "pon:777z,chi:234m", "--seat", "S"]
    )
    assert r.exit_code == 0 and "yakuhai_chun" in r.output, r.output
    r = runner.invoke(
        app, ["score", "riichi", "23567m345p678s22p", "--win", "4m", "--seat", "S", "--nukidora", "2"]
    )
    assert r.exit_code == 0 and "nukidora" in r.output and "7700" in r.output, r.output
    r = runner.invoke(app, ["score", "riichi", "123m456p789s1122z", "--win", "2z"])
    assert r.exit_code == 1 and "no yaku" in r.output
    r = runner.invoke(app, ["score", "riichi", "123m456p789s1122z", "--win", "1z", "--rule", "kuitan=maybe"])
    assert r.exit_code == 2 and "kuitan" in r.output
    batch = tmp_path / "hands.jsonl"
    batch.write_text(
        '{"hand": "23567m345p678s22p", "win": "4m", "seat_wind": "S"}\n{"hand": "1m", "win": "1m"}\n'
    )
    r = runner.invoke(app, ["score", "riichi", "--batch", str(batch)])
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines[0]["points"] == 2000 and lines[0]["line"] == 1
    assert lines[1]["line"] == 2 and "error" in lines[1]
    assert r.exit_code == 2 and f"error: {batch}:2: hand: " in r.stderr
    r = runner.invoke(app, ["shanten", "23m456p789s11z"])
    assert r.exit_code == 0 and "shanten 0" in r.output and "1m:4 4m:4" in r.output
    r = runner.invoke(app, ["shanten", "123m456p789s11223z", "--json"])
    assert json.loads(r.output)["discards"] == {"3z": {"1z": 2, "2z": 2}}
    batch.write_text('"123m456p789s1122z"\n{"hand": "119m19p19s1234567z"}\n')
    r = runner.invoke(app, ["shanten", "--batch", str(batch)])
    assert r.exit_code == 0
    assert [json.loads(x)["shanten"] for x in r.stdout.splitlines()] == [0, -1]
