"""``simharness replay riichi`` of a file that is not a whole Tenhou log: a record cut short (at any
point: inside a tag, between events, between hands, inside gzip), an element without the attribute
it needs, or a well-formed record that holds no game, is wrong input (exit status 2, one line naming
the file), never a traceback nor a replay that matched."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simharness.cli import app
from simharness.games.riichi import mjlog

RECORD = sorted((Path(__file__).resolve().parent / "data" / "riichi" / "tenhou-mjlog").glob("*.mjlog"))[0]
TEXT = RECORD.read_text()
INITS = [m.start() for m in re.finditer("<INIT ", TEXT)]


def _replay(*paths: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["replay", "riichi", "-q", *map(str, paths)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def _cut(tmp_path: Path, text: str, name: str = "cut.mjlog") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _second_event_of_hand(n: int) -> int:
    """Where the second event of hand ``n`` (from 1) begins."""
    first = TEXT.index("<", TEXT.index("/>", INITS[n - 1]))
    return TEXT.index("<", first + 1)


@pytest.mark.parametrize(
    ("cut", "why"),
    [
        # Between two events of hand 3, the root closed again: well-formed XML, a hand with no end.
        (
            lambda: TEXT[: _second_event_of_hand(3)] + "</mjloggm>",
            "its hand 3 ends without a result (AGARI or RYUUKYOKU): the record is cut short",
        ),
        # Between two whole hands: the game has no final scores.
        (
            lambda: TEXT[: INITS[4]] + "</mjloggm>",
            "its last hand has no final scores (owari): the record is cut short",
        ),
        # Inside a tag.
        (lambda: TEXT[:5000], "not XML (unclosed token: line 1, column "),
        # Elements without the attributes they need, or with malformed ones.
        (
            lambda: TEXT.replace('<INIT seed="', '<INIT sed="', 1),
            "<INIT> has no seed attribute",
        ),
        (
            lambda: re.sub(r'<INIT seed="[^"]*"', '<INIT seed="0,0"', TEXT, count=1),
            "<INIT> has a malformed attribute (tuple index out of range)",
        ),
        (
            lambda: re.sub(r'<AGARI ba="[^"]*"', '<AGARI ba="x,0"', TEXT, count=1),
            "<AGARI> has a malformed attribute (invalid literal for int() with base 10: 'x')",
        ),
    ],
)
def test_a_record_cut_short_or_malformed_is_not_a_readable_log(
    tmp_path: Path, cut: Callable[[], str], why: str
) -> None:
    path = _cut(tmp_path, cut())
    code, out, err = _replay(path)
    assert code == 2 and out == ""
    assert err.startswith(f"error: {path}: not a readable log: {why}") and err.count("\n") == 1, err
    with pytest.raises(mjlog.LogError, match=re.escape(why)):
        mjlog.parse(path)


def test_a_gzip_record_cut_short_is_not_a_readable_log(tmp_path: Path) -> None:
    path = tmp_path / "cut.mjlog.gz"
    path.write_bytes(gzip.compress(TEXT.encode())[:2000])
    code, _, err = _replay(path)
    assert code == 2
    why = "Compressed file ended before the end-of-stream marker was reached"
    assert err == f"error: {path}: not a readable log: {why}\n"


def test_a_record_without_a_game_is_not_a_replay_that_matched(tmp_path: Path) -> None:
    empty = _cut(tmp_path, TEXT[: INITS[0]] + "</mjloggm>", "empty.mjlog")
    assert mjlog.parse(empty).hands == []
    code, out, err = _replay(empty)
    assert code == 2 and out == ""
    assert err == f"error: {empty}: no game to replay: the record holds no hand (no <INIT> element)\n"
    # After a whole record that replays, the empty one still fails the command.
    code, out, err = _replay(RECORD, empty)
    assert code == 2 and "0 differ" not in out
    assert err == f"error: {empty}: no game to replay: the record holds no hand (no <INIT> element)\n"
    # The whole record alone replays and matches.
    assert _replay(RECORD)[0] == 0
