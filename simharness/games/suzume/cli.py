"""`simharness score suzume HAND --win TILE ...`: one hand's points and every part of them."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Annotated, Any

import typer

from simharness.engine import OptionError
from simharness.games.suzume.scoring import score_hand


def parse_rule(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with VALUE read as JSON when it is JSON (5, true, 0.1), else as a string."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise OptionError("rule", f"expected KEY=VALUE, got {text!r}")
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):  # not JSON (or more than Python reads): a string
        return key, value
    if problem := json_value_problem(parsed):
        raise OptionError("rule", f"{text}: {problem}")
    return key, parsed


# serde_json, which reads JSON in the engine, refuses nesting deeper than 128 levels; no request or
# rule value comes near this.
MAX_JSON_DEPTH = 100


def json_value_problem(value: Any, depth: int = 1) -> str | None:
    """Why the engine's strict JSON reader would refuse ``value``, which Python's reader gave: NaN or
    Infinity (also a number beyond a float's range), a lone surrogate escape (``"\\ud800"``), nesting
    too deep. None for a value it reads."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"{json.dumps(value)} is not a finite JSON number (NaN, Infinity or beyond 1.8e308)"
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as e:
            return f"a lone surrogate escape (\\u{ord(value[e.start]):04x}) is not a character"
        return None
    if isinstance(value, (list, dict)):
        if depth >= MAX_JSON_DEPTH:
            return f"nested more than {MAX_JSON_DEPTH} levels deep"
        items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        return next((p for v in items if (p := json_value_problem(v, depth + 1))), None)
    return None


def check_win_type(ron: bool, tsumo: bool) -> None:
    """``--ron`` and ``--tsumo`` are two flags rather than one ``--ron/--tsumo`` switch so that giving
    both is refused instead of the last one silently winning."""
    if ron and tsumo:
        raise OptionError(
            "--ron with --tsumo",
            "a win is on another player's discard (ron) or on one's own draw (tsumo), not both",
        )


def int_between(low: int, high: int) -> Callable[[int | str], int]:
    """A Typer ``parser`` for an integer option whose error names the whole allowed range, whatever
    is wrong (negative, too large, not an integer): Typer's own checks name only the broken bound."""

    def parse(text: int | str) -> int:
        try:
            value = int(text)
        except ValueError:  # not an integer, or more digits than Python converts
            value = None
        if value is None or not low <= value <= high:
            raise typer.BadParameter(f"expected an integer from {low} to {high}, got {text}")
        return value

    return parse


Report = dict[str, Any]


def score_and_print(score: Callable[[], Report], as_json: bool, render: Callable[[Report], str]) -> None:
    """Runs a `score <game>` command's scoring and prints its report (JSON or ``render``): exit
    status 0 for a winning hand, 1 for one that does not win (as `score riichi`), 2 for wrong input."""
    try:
        result = score()
    except OptionError as e:
        typer.echo(f"error: {e.field}: {e.message}", err=True)
        raise typer.Exit(2) from None
    typer.echo(json.dumps(result) if as_json else render(result))
    if not result["legal"]:
        raise typer.Exit(1)


def _render(r: dict[str, Any]) -> str:
    who = "dealer" if r["dealer"] else "non-dealer"
    dora = r["dora"] or "none"
    lines = [
        f"{' '.join(r['hand'])}  won on {r['win']} by {r['win_type']}, {who}, dora {dora}, "
        f"{r['players']} players"
    ]
    if "sets" not in r:
        lines.append(f"not a win: {r['reason']}")
        return "\n".join(lines)
    for s in r["sets"]:
        lines.append(f"  {s['tiles']:<6} {s['kind']:<10} +{s['points']}")
    parts = (
        [("yakuman " + r["yakuman"], r["yakuman_points"])]
        if r["yakuman"]
        else [
            ("red tiles", r["red"]),
            ("dora", r["dora_points"]),
            ("tanyao", r["tanyao"]),
            ("chanta", r["chanta"]),
        ]
    )
    for name, pts in parts:
        if pts:
            lines.append(f"  {name:<17} +{pts}")
    lines.append(f"  base {r['base']} (counts toward the minimum)")
    if r["dealer_bonus"]:
        lines.append(f"  {'dealer bonus':<17} +{r['dealer_bonus']}")
    lines.append(f"points {r['points']}")
    if r["legal"]:
        p = r["payments"]
        if r["win_type"] == "ron":
            lines.append(f"the discarder pays {p['discarder']}")
        else:
            lines.append(f"each of {p['payers']} others pays {p['each']} (winner receives {p['total']})")
    else:
        lines.append(f"not a legal win: {r['reason']}")
    return "\n".join(lines)


def score_command(
    hand: Annotated[str, typer.Argument(help="6 tiles, e.g. 1r2r3rCCC (1-9, r = red, F = 發, C = 中).")],
    win: Annotated[str, typer.Option("--win", help="The winning tile (one of the 6).")],
    ron: Annotated[bool, typer.Option("--ron", help="Won on a discard.")] = False,
    tsumo: Annotated[bool, typer.Option("--tsumo", help="Won by own draw (the default).")] = False,
    dealer: Annotated[bool, typer.Option("--dealer", help="The winner is the dealer.")] = False,
    dora: Annotated[str | None, typer.Option("--dora", help="The flipped dora tile.")] = None,
    players: Annotated[
        int, typer.Option("--players", parser=int_between(2, 5), help="Players (2-5), for tsumo payments.")
    ] = 4,
    rule: Annotated[list[str] | None, typer.Option("--rule", help="Rule KEY=VALUE (repeat).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
) -> None:
    """Score one Suzume-jong hand: the points and each part that makes them, or why it does not win
    (exit status 1)."""

    def score() -> dict[str, Any]:
        check_win_type(ron, tsumo)
        rules = dict(parse_rule(r) for r in rule or [])
        return score_hand(hand, win, ron=ron, dealer=dealer, dora=dora, players=players, rules=rules)

    score_and_print(score, as_json, _render)


def register(app: typer.Typer, score_app: typer.Typer) -> None:
    score_app.command("suzume")(score_command)
