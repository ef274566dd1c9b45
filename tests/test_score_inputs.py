"""The `score` commands refuse what cannot happen (exit 2 naming the flags and why) instead of
scoring it: Trump situations against the spec (§4.3, §6.1 #2, #3, #16), `--ron` with `--tsumo`,
numbers out of range; and a `--batch` row that the engine's strict JSON would refuse fails alone."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from simharness.cli import app
from simharness.engine import OptionError
from simharness.games.trump import score_hand


def _cli(*args: object) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize(
    ("args", "error"),
    [
        # riichi is declared with a discard; tenhou/chiihou/renhou come before the first discard
        (["--tsumo", "--riichi", "--first-turn"], "--riichi with --first-turn: riichi is declared"),
        (["--double-riichi", "--ippatsu", "--first-turn"], "--double-riichi with --first-turn: "),
        # the dealer draws first: no discard comes before the dealer's first draw
        (["--ron", "--dealer", "--first-turn"], "--ron with --dealer and --first-turn: renhou is"),
        (["--ron", "--tsumo"], "--ron with --tsumo: a win is on another player's discard"),
        (["--ippatsu"], "--ippatsu: ippatsu is a win within one go-around"),
        (["--ura-indicator", "5"], "--ura-indicator: ura-dora is turned only for a riichi winner"),
    ],
)
def test_trump_situations_the_game_cannot_reach_exit_2_naming_the_flags(args: list[str], error: str) -> None:
    result = _cli("score", "trump", "8812356", "--win", "4", *args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {error}"), result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(("hand", "win", "field"), [("11TJQKX", "9", "hand"), ("11TJQK9", "X", "--win")])
def test_without_joker_keep_allowed_no_joker_is_held_or_won_on(hand: str, win: str, field: str) -> None:
    # §11: joker_keep_allowed off "forces set-aside and disables kokushi": a Joker never stays in a
    # hand, so a kokushi hand (always holding one, §5.2) is a situation that cannot happen.
    off = ("--rule", "joker_keep_allowed=false")
    result = _cli("score", "trump", hand, "--win", win, "--tsumo", *off)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {field}: a Joker (X) here, but with joker_keep_allowed off")
    assert _cli("score", "trump", hand, "--win", win, "--tsumo").exit_code == 0  # kokushi when allowed
    # Jokers set aside still count (+1 han each) with the rule off.
    r = json.loads(_cli("score", "trump", "8812356", "--win", "4", "--jokers", "2", *off, "--json").stdout)
    assert (r["jokers"], r["han"]) == (2, 6)  # tsumo 1, pinfu 1, chinitsu 2 and the two Jokers


def _refused_by_spec(
    ron: bool, riichi: bool, double: bool, ippatsu: bool, first: bool, dealer: bool
) -> str | None:
    """The spec's reasons, one per clash: ippatsu needs a riichi (§6.1 #2); a first-turn win comes
    before the first discard, which a riichi goes with (#16, #3); the dealer draws first (§4)."""
    if ippatsu and not (riichi or double):
        return "ippatsu"
    if first and double:
        return "double_riichi+first_turn"
    if first and riichi:
        return "riichi+first_turn"
    if first and ron and dealer:
        return "ron+dealer+first_turn"
    return None


@pytest.mark.parametrize("flags", list(itertools.product([False, True], repeat=6)))
def test_every_combination_of_trump_situation_flags(flags: tuple[bool, ...]) -> None:
    ron, riichi, double, ippatsu, first, dealer = flags
    kw: dict[str, Any] = dict(ron=ron, riichi=riichi, double_riichi=double, ippatsu=ippatsu, first_turn=first)
    refused = _refused_by_spec(*flags)
    if refused is not None:
        with pytest.raises(OptionError) as e:
            score_hand("8812356", "4", dealer=dealer, **kw)
        assert e.value.field == refused
        return
    r = score_hand("8812356", "4", dealer=dealer, **kw)
    names = {y["name"] for y in r["yaku"]}
    # 88 123 456 + 4: pinfu and chinitsu whatever the situation; the rest is the situation's.
    expected = {"pinfu", "chinitsu"}
    expected |= {"double_riichi"} if double else {"riichi"} if riichi else set()
    expected |= {"ippatsu"} if ippatsu else set()
    expected |= set() if ron else {"tsumo"}
    if first:
        expected.add("renhou" if ron else "tenhou" if dealer else "chiihou")
    assert r["legal"] and names == expected, (flags, names)


def test_ron_with_tsumo_is_refused_by_every_score_command() -> None:
    for cmd in (
        ["score", "riichi", "123m456p789s1122z", "--win", "1z"],
        ["score", "suzume", "1r2r3rCCC", "--win", "C"],
        ["score", "trump", "8812356", "--win", "4"],
    ):
        for order in (["--ron", "--tsumo"], ["--tsumo", "--ron"]):
            result = _cli(*cmd, *order)
            assert result.exit_code == 2, (cmd, order, result.output)
            assert result.stderr.startswith("error: --ron with --tsumo: "), result.stderr
        assert _cli(*cmd, "--ron").exit_code == 0 and _cli(*cmd, "--tsumo").exit_code == 0, cmd


@pytest.mark.parametrize(
    ("cmd", "flag", "low", "high"),
    [
        (["score", "suzume", "1r2r3rCCC", "--win", "C"], "--players", 2, 5),
        (["score", "trump", "8812356", "--win", "4"], "--jokers", 0, 2),
        (["score", "riichi", "123m456p789s1122z", "--win", "1z"], "--honba", 0, 65535),
        (["score", "riichi", "123m456p789s1122z", "--win", "1z"], "--nukidora", 0, 8),
    ],
)
def test_numbers_out_of_range_name_the_flag_and_the_range(
    cmd: list[str], flag: str, low: int, high: int
) -> None:
    for value in ("1e20", "10" * 20, "-1", "2.5", str(high + 1), "1" * 5000):
        result = _cli(*cmd, flag, value)
        assert result.exit_code == 2, (flag, value[:30], result.output)
        text = " ".join(result.stderr.replace("│", " ").split())  # the usage box wraps long values
        assert f"Invalid value for '{flag}': expected an integer from {low} to {high}, got" in text
        assert "Traceback" not in result.output
    assert _cli(*cmd, flag, str(high)).exit_code in (0, 1)  # the bound itself is taken


def test_rule_values_strict_json_refuses_name_the_rule() -> None:
    for cmd, prefix in (
        (["score", "trump", "8812356", "--win", "4"], "error: rule: han_cap=NaN: NaN is not a finite"),
        (["score", "suzume", "1r2r3rCCC", "--win", "C"], "error: rule: han_cap=NaN: NaN is not a finite"),
        (["score", "riichi", "123m456p789s1122z", "--win", "1z"], "error: --rule: han_cap=NaN: NaN is not"),
    ):
        result = _cli(*cmd, "--rule", "han_cap=NaN")
        assert result.exit_code == 2 and result.stderr.startswith(prefix), result.stderr


def test_one_bad_row_of_a_long_batch_fails_alone(tmp_path: Path) -> None:
    """A row Python's JSON reader takes but the engine's strict JSON does not (NaN, Infinity, a
    number beyond a float, a lone surrogate, deep nesting, an integer of 5,000 digits) used to make
    the engine refuse the whole batch."""
    n = 600
    bad = {
        100: ('"honba": NaN', "honba", "NaN is not a finite JSON number"),
        200: ('"deposits": -Infinity', "deposits", "-Infinity is not a finite JSON number"),
        300: ('"honba": 1e400', "honba", "Infinity is not a finite JSON number"),
        400: ('"seat_wind": "\\udc00"', "seat_wind", "a lone surrogate escape (\\udc00)"),
        500: ('"melds": ' + "[" * 150 + "]" * 150, "melds", "nested more than 100 levels deep"),
        550: ('"honba": ' + "1" * 5000, "line", "a number too long to read"),
    }
    lines = []
    for i in range(1, n + 1):
        extra = bad[i][0] if i in bad else f'"honba": {i % 5}'
        lines.append(f'{{"hand": "123m456p789s1122z", "win": "1z", {extra}}}')
    path = tmp_path / "wins.jsonl"
    path.write_text("\n".join(lines) + "\n")
    result = _cli("score", "riichi", "--batch", path)
    assert result.exit_code == 2
    rows = {r["line"]: r for r in map(json.loads, result.stdout.splitlines())}
    assert sorted(rows) == list(range(1, n + 1))
    for i, r in rows.items():
        if i in bad:
            _, field, message = bad[i]
            assert (r["field"], r["error"][: len(message)]) == (field, message), r
            assert f"error: {path}:{i}: {field}: {message}" in result.stderr
        else:  # the East dealer's ron on 1z: double East, 2 han 40 fu = 3900; the discarder adds 300 a honba
            assert (r["han"], r["points"], r["ron"]) == (2, 3900, 3900 + 300 * (i % 5)), r
    assert result.stderr.count("error: ") == len(bad)


def test_a_shanten_batch_row_with_a_lone_surrogate_fails_alone(tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text(
        '"123m456p789s1122z"\n"\\ud800"\n{"hand": "123m456p789s112z", "x": NaN}\n"119m19p19s1234567z"\n'
    )
    result = _cli("shanten", "--batch", path)
    assert result.exit_code == 2
    rows = sorted(
        (r["line"], r.get("shanten"), r.get("field")) for r in map(json.loads, result.stdout.splitlines())
    )
    assert rows == [(1, 0, None), (2, None, "line"), (3, None, "x"), (4, -1, None)]


@pytest.mark.parametrize("jokers", [-1, 3, 255])
def test_jokers_set_aside_out_of_range_are_refused_by_score_hand(jokers: int) -> None:
    # 255 Jokers used to wrap around the engine's byte count (255 + 2 held = 1) and score.
    with pytest.raises(OptionError) as e:
        score_hand("XX1TJQK", "9", jokers=jokers)
    assert e.value.field == "jokers" and "expected 0 to 2 Jokers set aside" in e.value.message
