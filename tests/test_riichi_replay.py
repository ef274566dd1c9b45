"""Replay of the 33 real Tenhou games: every hand's outcome, wins, points and the next hand's state
must equal the record; a record the engine cannot follow is a failure."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simharness.cli import app
from simharness.games.riichi import mjlog
from simharness.games.riichi import replay as riichi_replay

CORPUS = Path(__file__).resolve().parent / "data" / "riichi" / "tenhou-mjlog"
FILES = sorted(CORPUS.glob("*.mjlog"))


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
        "exhaustive",
        "kyuushu",
        "nagashi",
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
