"""`simharness score hongkong HAND --win TILE (--ron|--tsumo) ...`: fan items, base points and who
pays what."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from simharness.games.hongkong.scoring import score_hand
from simharness.games.suzume.cli import check_win_type, parse_rule, score_and_print


def _render(r: dict[str, Any]) -> str:
    how = "self-draw" if r["self_draw"] else "discard"
    lines = [f"seat {r['seat_wind']}, won by {how}"]
    for item in r.get("items", []):
        value = "limit" if item["fan"] is None else f"{item['fan']} fan"
        lines.append(f"  {item['name']:<22} {value}")
    if not r["legal"]:
        lines.append(f"not a legal win: {r['reason']}")
        return "\n".join(lines)
    total = (
        f"limit hand ({r['limit']})"
        if r["fan"] is None
        else f"{r['fan']} fan ({r['counted_fan']} toward the minimum)"
    )
    lines.append(f"{total}: base {r['base']:g}, portion {r['portion']:g}")
    for p in r["payments"]:
        deltas = ", ".join(f"{w} {p['deltas'][w]:+g}" for w in "ESWN")
        who = "self-draw" if p["discarder"] is None else f"discarded by {p['discarder']}"
        lines.append(f"  {who}: {deltas}")
    return "\n".join(lines)


def score_command(
    hand: Annotated[
        str, typer.Argument(help="Concealed tiles in MPSZ (1z-4z = E S W N, 5z 白, 6z 發, 7z 中).")
    ],
    win: Annotated[str, typer.Option("--win", help="The winning tile.")],
    ron: Annotated[bool, typer.Option("--ron", help="Won on a discard (the default).")] = False,
    tsumo: Annotated[bool, typer.Option("--tsumo", help="Won by self-draw.")] = False,
    seat_wind: Annotated[str, typer.Option("--seat-wind", help="E, S, W or N (East deals).")] = "E",
    round_wind: Annotated[str, typer.Option("--round-wind", help="E, S, W or N.")] = "E",
    melds: Annotated[
        list[str] | None, typer.Option("--melds", help="A meld as in score riichi (repeat).")
    ] = None,
    flowers: Annotated[str, typer.Option("--flowers", help="Flower numbers, e.g. 1,3.")] = "",
    seasons: Annotated[str, typer.Option("--seasons", help="Season numbers, e.g. 2.")] = "",
    last_tile: Annotated[
        bool, typer.Option("--last-tile", help="The last live tile or its discard.")
    ] = False,
    replacement: Annotated[
        bool,
        typer.Option(
            "--replacement",
            help="Won on a replacement tile: a kong's when --melds has a kong, else a bonus tile's.",
        ),
    ] = False,
    robbing_kong: Annotated[bool, typer.Option("--robbing-kong", help="Won by robbing a kong.")] = False,
    heavenly: Annotated[bool, typer.Option("--heavenly", help="The dealer's dealt hand.")] = False,
    earthly: Annotated[bool, typer.Option("--earthly", help="On the dealer's first discard.")] = False,
    kong_on_kong: Annotated[
        bool,
        typer.Option("--kong-on-kong", help="槓上槓: on the replacement of a second kong in a row."),
    ] = False,
    preset: Annotated[str, typer.Option("--preset", help="default or old_style.")] = "default",
    rule: Annotated[list[str] | None, typer.Option("--rule", help="Rule KEY=VALUE (repeat).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON object.")] = False,
) -> None:
    """Score one Hong Kong mahjong hand: every fan item, the base points and who pays what, or why
    it does not win (exit status 1; 2 for wrong input, circumstances that cannot happen together
    included)."""

    def score() -> dict[str, Any]:
        check_win_type(ron, tsumo)
        return score_hand(
            hand,
            win,
            tsumo=tsumo,
            melds=melds or [],
            seat_wind=seat_wind,
            round_wind=round_wind,
            flowers=flowers,
            seasons=seasons,
            last_tile=last_tile,
            replacement=replacement,
            robbing_kong=robbing_kong,
            heavenly=heavenly,
            earthly=earthly,
            kong_on_kong=kong_on_kong,
            preset=preset,
            rules=dict(parse_rule(r) for r in rule or []),
        )

    score_and_print(score, as_json, _render)


def register(app: typer.Typer, score_app: typer.Typer) -> None:
    score_app.command("hongkong")(score_command)
