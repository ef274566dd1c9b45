"""Replay of the 33 real four-player Tenhou games and of a real three-player (sanma) one: every
hand's outcome, wins, points and the next hand's state must equal the record; a record the engine
cannot follow is a failure."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from mjlog_records import sanma_record
from typer.testing import CliRunner

from simharness.cli import app
from simharness.games.riichi import mjlog
from simharness.games.riichi import replay as riichi_replay

DATA = Path(__file__).resolve().parent / "data" / "riichi"
CORPUS = DATA / "tenhou-mjlog"
FILES = sorted(CORPUS.glob("*.mjlog"))
# A real houou-table sanma hanchan (GO type 185), 11 hands.
SANMA = DATA / "tenhou-sanma" / "2014091101gm-00b9-0000-5ca6b487.mjlog"


def test_corpus_is_there() -> None:
    assert len(FILES) == 33


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem[:14])
def test_every_hand_equals_the_record(path: Path) -> None:
    checks = riichi_replay.replay_file(path)
    assert checks
    assert [(c.name, c.problems) for c in checks if not c.ok] == []


def test_the_corpus_covers_the_rare_outcomes() -> None:
    outcomes = {c.outcome for p in FILES for c in riichi_replay.replay_file(p)}
    assert {
        "tsumo",
        "ron",
        "exhaustive_draw",
        "kyuushu_kyuuhai",
        "nagashi_mangan",
        "suukaikan",
        "suucha_riichi",
        "suufon_renda",
    } <= outcomes


def test_a_wrong_rule_or_a_tampered_record_is_reported() -> None:
    game = mjlog.parse(FILES[0])
    # A different honba value changes the payments of a hand with honba.
    assert any(not c.ok for c in riichi_replay.compare(game, overrides={"honba_value": 200}))
    # Swap the first discard of the first hand for a tile the player does not hold.
    hand = game.hands[0]
    i = next(i for i, e in enumerate(hand.events) if isinstance(e, mjlog.Discard))
    held = set(hand.init.hands[hand.events[i].who])
    stranger = next(t for t in range(136) if t not in held and t // 4 != hand.events[i].tile // 4)
    hand.events[i] = dataclasses.replace(hand.events[i], tile=stranger)
    first = riichi_replay.compare(game)[0]
    assert not first.ok and "not" in first.problems[0]


def test_cli_exit_status(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["replay", "riichi", str(FILES[0]), "-q"])
    assert ok.exit_code == 0, ok.output
    assert "0 differ" in ok.output
    # A record whose first hand starts from other scores no longer adds up.
    tampered = tmp_path / "tampered.mjlog"
    text = FILES[0].read_text()
    tampered.write_text(text.replace('ten="250,250,250,250"', 'ten="251,249,250,250"', 1))
    bad = runner.invoke(app, ["replay", "riichi", str(tampered), "-q"])
    assert bad.exit_code == 1, bad.output
    assert "DIFF" in bad.output
    missing = runner.invoke(app, ["replay", "riichi", "/nonexistent.mjlog"])
    assert missing.exit_code == 2
    # a wrong preset is the user's input, told as such (not the engine's raw error tuple)
    preset = runner.invoke(app, ["replay", "riichi", str(FILES[0]), "--preset", "nope"])
    assert preset.exit_code == 2
    assert preset.stderr.startswith('error: --preset: unknown preset "nope"; expected one of: ')


def test_a_real_sanma_game_replays_hand_by_hand() -> None:
    game = mjlog.parse(SANMA)
    assert riichi_replay.seats(game) == 3 and riichi_replay.default_preset(game) == "tenhou_sanma"
    checks = riichi_replay.replay_file(SANMA)
    assert [(c.name, c.problems) for c in checks if not c.ok] == []
    # What the record exercises: tsumo-son wins with nukidora, rons, exhaustive draws with noten
    # payments (one and two tenpai), South 1 as Tenhou's round 4 (the engine's 3), and calls.
    assert [c.name for c in checks] == [
        "E1-0", "E1-1", "E1-2", "E1-3", "E2-0", "E3-0", "S1-0", "S2-0", "S3-0", "S3-1", "S3-2"
    ]  # fmt: skip
    assert [c.outcome for c in checks].count("exhaustive_draw") == 3
    assert {c.outcome for c in checks} == {"tsumo", "ron", "exhaustive_draw"}
    first = checks[0].engine["wins"][0]
    # East 1: the dealer's riichi tsumo, 2 Norths set aside under a West indicator (each North is
    # also a dora): 6 han haneman, 6000 from each of the two non-dealers (tsumo-son, not 18000).
    assert (first["seat"], first["han"], first["points"], first["nuki"]) == (0, 6, 12000, 2)
    assert checks[0].engine["points"] == [47000, 29000, 29000]
    kinds = {e.meld.kind for h in game.hands for e in h.events if isinstance(e, mjlog.Call)}
    assert kinds == {"nuki", "pon", "kan", "ankan"}
    assert sum(c.engine["next"]["round"] == 3 for c in checks) == 1  # S1 follows E3
    east2 = game.hands[4].init  # seat 1 deals: seat 0 is West, the last of three
    assert (east2.players, [east2.seat_wind(s) for s in range(3)]) == (3, ["W", "E", "S"])


def test_sanma_under_other_rules_differs_where_tenhou_differs() -> None:
    game = mjlog.parse(SANMA)

    def differing(preset: str | None = None, **overrides: object) -> dict[str, list[str]]:
        return {c.name: c.problems for c in riichi_replay.compare(game, preset, overrides) if not c.ok}

    # The source's 18-tile dead wall has 4 live draws fewer: the record's 55 draws do not fit.
    dead_wall = differing(sanma_dead_wall="separate_18")
    assert "do not fit the wall" in dead_wall["S3-0"][0]
    # Honba 300 (a third from each tsumo payer) instead of Tenhou's 200 (100 each).
    assert set(differing(honba_value=300)) == {"E1-2", "E1-3", "S3-2"}
    assert set(differing(sanma_tsumo_honba="by_method")) == {"E1-2", "E1-3"}
    assert set(differing("sanma")) >= {"S3-0", "S3-2"}


def test_sanma_cli_exit_status(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["replay", "riichi", str(SANMA)])
    assert ok.exit_code == 0, ok.output
    assert "E1-0    ok   tsumo         seat 0 6han 30fu 12000" in ok.output
    tampered = tmp_path / "tampered.mjlog"
    tampered.write_text(SANMA.read_text().replace('ten="350,350,350,0"', 'ten="351,349,350,0"', 1))
    bad = runner.invoke(app, ["replay", "riichi", "-q", str(tampered)])
    assert bad.exit_code == 1, bad.output
    assert "E1-0" in bad.output and "points after the hand" in bad.output


# Hand-made, not a real game (the real record has no ron on a North being set aside, which Tenhou
# allows): the dealer (1000 points) draws North and sets it aside; seat 1, chiitoitsu on a North
# tanki (33p 44p 99p 11s 66s 77s N), rons it: 2 han 25 fu = 1600, no chankan, and the dealer is
# out of points (the game ends). Scores worked by hand from Tenhou's rules.
NORTH_RON = sanma_record("""<INIT seed="0,0,0,2,3,128" ten="10,350,350,0" oya="0"
 hai0="0,32,36,40,53,56,64,76,80,89,100,108,116" hai1="44,45,48,49,68,69,72,73,92,93,96,97,120"
 hai2="1,33,41,46,54,60,65,77,84,90,101,112,124" hai3=""/>
<T121/><N who="0" m="31008" />
<AGARI ba="0,0" hai="44,45,48,49,68,69,72,73,92,93,96,97,120,121" machi="121" ten="25,1600,0"
 yaku="22,2" doraHai="128" who="1" fromWho="0" sc="10,-16,350,16,350,0,0,0"
 owari="-6,-61.0,366,32.0,350,-5.0,0,0.0" />""")


def test_a_north_set_aside_may_be_ronned_under_tenhou_sanma() -> None:
    game = mjlog.parse(NORTH_RON)
    (check,) = riichi_replay.compare(game)
    assert check.ok, check.problems
    (win,) = check.engine["wins"]
    assert (win["seat"], win["from"], win["yaku"], win["points"]) == (1, 0, [["chiitoitsu", 2]], 1600)
    assert check.engine["points"] == [-600, 36600, 35000] and check.engine["game_over"]
    (refused,) = riichi_replay.compare(game, overrides={"sanma_north_ron": False})
    assert "Ron(1, 0)" in refused.problems[0]
