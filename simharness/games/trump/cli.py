"""`simharness score trump HAND --win CARD ...`: one hand's yaku, han, points and payments."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from simharness.engine import OptionError
from simharness.games.suzume.cli import check_win_type, int_between, parse_rule
from simharness.games.trump.scoring import score_hand

# The engine names the situation it refuses by score_hand's arguments ("riichi+first_turn" for two
# that clash); these are the command's flags for them.
_FLAGS = {
    name: "--" + name.replace("_", "-")
    for name in (
        "win", "ron", "riichi", "ippatsu", "double_riichi", "first_turn", "dealer", "seat_wind",
        "round_wind", "indicator", "ura_indicator", "jokers",
    )
}  # fmt: skip


def _as_flags(field: str) -> str:
    """An engine field as the flags that set it: ``riichi+first_turn`` is ``--riichi with
    --first-turn``, ``ron+dealer+first_turn`` ``--ron with --dealer and --first-turn``."""
    names = field.split("+")
    if not all(n in _FLAGS for n in names):
        return field
    first, *rest = (_FLAGS[n] for n in names)
    return " with ".join([first, " and ".join(rest)]) if rest else first


def _render(hand: str, win: str, ron: bool, r: dict[str, Any]) -> str:
    head = f"{hand} + {win} by {'ron' if ron else 'tsumo'}"
    if not r["legal"]:
        return f"{head}\nnot a win: {r['reason']}"
    lines = [f"{head}: {r['reading']}"]
    lines += [f"  {y['name']:<14} {y['han']} han" for y in r["yaku"]]
    for name in ("dora", "ura", "jokers"):
        if r[name]:
            lines.append(f"  {name:<14} {r[name]} han")
    lines.append(f"{r['han']} han -> {r['points']} points")
    p = r["payments"]
    if "discarder" in p:
        lines.append(f"the discarder pays {p['discarder']}")
    elif "each_child" in p:
        lines.append(f"each child pays {p['each_child']} (the dealer receives {p['total']})")
    else:
        lines.append(
            f"the dealer pays {p['dealer']}, the other child {p['other_child']} "
            f"(winner receives {p['total']})"
        )
    return "\n".join(lines)


def score_command(
    hand: Annotated[str, typer.Argument(help="7 cards, e.g. 8812356 (1-9, T J Q K, X = a kept Joker).")],
    win: Annotated[str, typer.Option("--win", help="The winning card.")],
    ron: Annotated[bool, typer.Option("--ron", help="Won on a discard.")] = False,
    tsumo: Annotated[bool, typer.Option("--tsumo", help="Won by own draw (the default).")] = False,
    riichi: Annotated[bool, typer.Option("--riichi", help="The winner declared riichi.")] = False,
    ippatsu: Annotated[bool, typer.Option("--ippatsu", help="Within one go-around of riichi.")] = False,
    double_riichi: Annotated[
        bool,
        typer.Option(
            "--double-riichi", help="Riichi on the first draw (a riichi: --riichi may be given too)."
        ),
    ] = False,
    first_turn: Annotated[
        bool,
        typer.Option(
            "--first-turn", help="Tsumo on the first draw (tenhou/chiihou) or ron before it (renhou)."
        ),
    ] = False,
    dealer: Annotated[bool, typer.Option("--dealer", help="The winner is the dealer (seat East).")] = False,
    seat_wind: Annotated[
        str | None, typer.Option("--seat-wind", help="T, J or Q (default J, or T for the dealer).")
    ] = None,
    round_wind: Annotated[str | None, typer.Option("--round-wind", help="T, J or Q (default T).")] = None,
    indicator: Annotated[str | None, typer.Option("--indicator", help="The dora indicator card.")] = None,
    ura_indicator: Annotated[
        str | None, typer.Option("--ura-indicator", help="The ura-dora indicator (riichi).")
    ] = None,
    jokers: Annotated[int, typer.Option("--jokers", parser=int_between(0, 2), help="Jokers set aside.")] = 0,
    rule: Annotated[list[str] | None, typer.Option("--rule", help="Rule KEY=VALUE (repeat).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
) -> None:
    """Score one Trump mahjong hand: every yaku and its han, dora, Jokers, points and payments, or
    why it does not win (exit status 1). A situation the game cannot reach (--riichi with
    --first-turn, a held Joker under joker_keep_allowed=false, ...) is wrong input (exit status 2)."""
    try:
        check_win_type(ron, tsumo)
        rules = dict(parse_rule(r) for r in rule or [])
        result = score_hand(
            hand,
            win,
            ron=ron,
            riichi=riichi,
            double_riichi=double_riichi,
            ippatsu=ippatsu,
            first_turn=first_turn,
            dealer=dealer,
            seat_wind=seat_wind,
            round_wind=round_wind,
            indicator=indicator,
            ura_indicator=ura_indicator,
            jokers=jokers,
            rules=rules,
        )
    except OptionError as e:
        typer.echo(f"error: {_as_flags(e.field)}: {e.message}", err=True)
        raise typer.Exit(2) from None
    typer.echo(json.dumps(result) if as_json else _render(hand, win, ron, result))
    if not result["legal"]:
        # As `score riichi` and `score suzume`: 0 a winning hand, 1 one that does not win, 2 wrong input.
        raise typer.Exit(1)


def register(app: typer.Typer, score_app: typer.Typer) -> None:
    score_app.command("trump")(score_command)
