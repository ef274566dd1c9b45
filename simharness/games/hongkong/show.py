"""The page of one Hong Kong mahjong game (``simharness show``), drawn from the engine's show
tables (``engine/src/games/hongkong/show.rs``): every hand rebuilt from its events (tiles dealt,
flowers and seasons exposed and replaced, draws, discards, chows, pungs and kongs), one frame per
turn, and each win's fan items, limit hand and payments (包 included) with the point changes and
running totals."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from simharness.games.hongkong.metrics import FAN_ITEMS, LIMIT_HANDS
from simharness.games.riichi.show import HONOR_TITLES, HONORS
from simharness.show.page import (
    Frame,
    GamePage,
    Page,
    change_table,
    esc,
    final_standings,
    part_row,
    running_cells,
    running_heads,
    tile,
)
from simharness.show.replay import Shown

WINDS = "ESWN"
# `hands.outcome` codes.
OUTCOMES = ("exhaustive draw", "self-draw", "discard win", "robbed kong", "false win")
# Event kinds of the `events` table (engine/src/games/hongkong/show.rs).
DEALT, DRAW, REPLACEMENT, DISCARD, CHOW, PUNG, KONG, CONCEALED_KONG, ADDED_KONG = range(9)
SELF_DRAW_WIN, DISCARD_WIN, ROBBED_KONG_WIN, FALSE_WIN = range(9, 13)
# Event tile codes 34-37 are the flowers 1-4, 38-41 the seasons 1-4.
BONUS = 34


def tile_name(code: int) -> str:
    """``5m``, ``E``, ``C``, ``F2`` (flower 2), ``S3`` (season 3) for an event tile code."""
    if code >= BONUS:
        return f"{'FS'[(code - BONUS) // 4]}{(code - BONUS) % 4 + 1}"
    if code >= 27:
        return HONORS[code - 27]
    return f"{code % 9 + 1}{'mps'[code // 9]}"


def tiles_html(codes: list[int], marks: dict[int, str] | None = None) -> str:
    """Tiles as boxes (:func:`simharness.show.page.tile`); ``marks`` maps a position to a class."""
    marks = marks or {}
    out = []
    for i, c in enumerate(codes):
        if c >= BONUS:
            n = (c - BONUS) % 4 + 1
            kind = "flower" if c < BONUS + 4 else "season"
            face, suit, title = f"{kind[0].upper()}{n}", "f", f"{kind} {n}"
        elif c >= 27:
            face, suit, title = HONORS[c - 27], "z", HONOR_TITLES[c - 27]
        else:
            face, suit, title = f"{c % 9 + 1}", "mps"[c // 9], tile_name(c)
        out.append(tile(face, suit, title, marks.get(i, "")))
    return "".join(out)


@dataclass
class Seat:
    hand: list[int] = field(default_factory=list)
    bonus: list[int] = field(default_factory=list)
    river: list[int] = field(default_factory=list)
    claimed: set[int] = field(default_factory=set)  # positions in the river taken by a claim
    melds: list[tuple[str, list[int]]] = field(default_factory=list)
    won_on: int | None = None  # another seat's tile this seat won on


class _Game(GamePage):
    def __init__(self, shown: Shown) -> None:
        super().__init__(shown)
        self.start = int(shown.rules["starting_points"])

    def seat_label(self, seat: int, dealer: int) -> str:
        return f"seat {seat} ({WINDS[(seat - dealer) % 4]}) {self.strategies[seat]}"

    def board(self, seats: list[Seat], points: list[int], dealer: int, actor: int | None) -> str:
        rows = []
        for s, st in enumerate(seats):
            melds = " ".join(f'<span class="meld" title="{k}">{tiles_html(ts)}</span>' for k, ts in st.melds)
            won = f' + <span class="won">{tiles_html([st.won_on])}</span>' if st.won_on is not None else ""
            cls = ' class="actor"' if s == actor else ""
            rows.append(
                f'<tr{cls}><td class="l">{esc(self.seat_label(s, dealer))}</td><td>{points[s]}</td>'
                f'<td class="l hand">{tiles_html(sorted(st.hand))}{won} {melds}</td>'
                f'<td class="l">{tiles_html(st.bonus)}</td>'
                f'<td class="l river">{tiles_html(st.river, dict.fromkeys(st.claimed, "called"))}</td></tr>'
            )
        return (
            '<table class="board"><tr><th class="l">seat</th><th>points</th><th class="l">hand, melds</th>'
            f'<th class="l">flowers, seasons</th><th class="l">discards</th></tr>{"".join(rows)}</table>'
        )

    @staticmethod
    def take(st: Seat, code: int) -> None:
        (st.bonus if code >= BONUS else st.hand).append(code)

    def apply(self, seats: list[Seat], ev: dict[str, int]) -> str:
        """Applies one event; returns its caption."""
        seat, kind, code, frm = ev["seat"], ev["kind"], ev["tile"], ev["from"]
        st, name = seats[seat], tile_name(code)
        if kind == DEALT:
            self.take(st, code)
            return ""
        if kind in (DRAW, REPLACEMENT):
            self.take(st, code)
            return f"seat {seat} {'draws' if kind == DRAW else 'takes a replacement'} {name}"
        if kind == DISCARD:
            st.hand.remove(code)
            st.river.append(code)
            return f"seat {seat} discards {name}"
        if kind in (CHOW, PUNG, KONG):
            river = seats[frm].river
            seats[frm].claimed.add(len(river) - 1)
            meld = (
                [ev["base"], ev["base"] + 1, ev["base"] + 2]
                if kind == CHOW
                else [code] * (3 if kind == PUNG else 4)
            )
            rest = list(meld)
            rest.remove(code)
            for t in rest:
                st.hand.remove(t)
            what = ("chow", "pung", "kong")[kind - CHOW]
            st.melds.append((what, meld))
            return f"seat {seat} claims {name} from seat {frm}: {what} {' '.join(tile_name(t) for t in meld)}"
        if kind == CONCEALED_KONG:
            for _ in range(4):
                st.hand.remove(code)
            st.melds.append(("concealed kong", [code] * 4))
            return f"seat {seat} declares a concealed kong of {name}"
        if kind == ADDED_KONG:
            st.hand.remove(code)
            for i, (what, ts) in enumerate(st.melds):
                if what == "pung" and ts[0] == code:
                    st.melds[i] = ("kong", [*ts, code])
            return f"seat {seat} adds {name} to its pung (kong)"
        if kind == SELF_DRAW_WIN:
            return f"seat {seat} wins by self-draw on {name}"
        if kind in (DISCARD_WIN, ROBBED_KONG_WIN):
            st.won_on = code
            how = "robs the kong" if kind == ROBBED_KONG_WIN else "wins on the discard"
            return f"seat {seat} {how} {name} of seat {frm}"
        return f"seat {seat} declares a false win and pays the penalty"

    def breakdown(self, hand: int) -> str:
        wins = self.t["wins"].filter(pl.col("hand") == hand).sort("claim")
        items = self.t["win_items"].filter(pl.col("hand") == hand)
        parts = []
        for w in wins.iter_rows(named=True):
            its = items.filter(pl.col("claim") == w["claim"])
            fan = ", ".join(f"{FAN_ITEMS[i]} {f}" for i, f in zip(its["item"], its["fan"], strict=True))
            limit = f"limit hand {LIMIT_HANDS[w['limit']]}; " if w["limit"] >= 0 else ""
            how = "self-draw" if w["from"] < 0 else f"the discard of seat {w['from']}"
            pays = ", ".join(f"seat {s} {w[f'pay_{s}']:+d}" for s in range(self.n) if w[f"pay_{s}"])
            bao = f"; 包: seat {w['liable']} pays alone" if w["liable"] >= 0 else ""
            parts.append(
                f'<li class="win">seat {w["seat"]} ({esc(self.strategies[w["seat"]])}) wins on {how}: '
                f"{esc(limit)}{w['fan']} fan ({w['counted_fan']} counted toward the minimum)"
                f"{': ' + esc(fan) if fan else ''}; base {w['base']}; payments {esc(pays)}{esc(bao)}</li>"
            )
        return f"<ul>{''.join(parts)}</ul>" if parts else ""

    def result(self, h: dict[str, int], before: list[int], after: list[int]) -> str:
        labels = [self.seat_label(s, h["dealer"]) for s in range(self.n)]
        return (
            f"<p>{OUTCOMES[h['outcome']]} (dice {h['dice']}, {h['live_left']} live tiles left)</p>"
            f"{self.breakdown(h['hand'])}{change_table(labels, before, after)}"
        )

    def page(self) -> Page:
        hands = self.t["hands"].sort("hand", "claim")
        events = self.t["events"].sort("seq")
        points = [self.start] * self.n
        frames: list[Frame] = []
        rows = []
        for (hand,), claims in hands.group_by("hand", maintain_order=True):
            h = claims.row(0, named=True)
            part = f"hand-{hand}"
            label = f"hand {hand + 1} ({WINDS[h['round_wind']]} round)"
            before = list(points)
            after = [points[s] + h[f"delta_{s}"] for s in range(self.n)]
            seats = [Seat() for _ in range(self.n)]
            told: list[str] = []  # draws and replacements are told with the move that follows
            dealt = False
            for ev in events.filter(pl.col("hand") == hand).iter_rows(named=True):
                if ev["kind"] != DEALT and not dealt:
                    frames.append(
                        Frame(f"{label}: dealt", self.board(seats, before, h["dealer"], None), part)
                    )
                    dealt = True
                caption = self.apply(seats, ev)
                if ev["kind"] == DEALT:
                    continue
                told.append(caption)
                if ev["kind"] not in (DRAW, REPLACEMENT):
                    frames.append(
                        Frame(
                            f"{label}: {', '.join(told)}",
                            self.board(seats, before, h["dealer"], ev["seat"]),
                            part,
                        )
                    )
                    told = []
            ending = f"{label} ends: {OUTCOMES[h['outcome']]}"
            frames.append(
                Frame(
                    ending, self.board(seats, after, h["dealer"], None) + self.result(h, before, after), part
                )
            )
            points = after
            winners = ", ".join(str(w) for w in claims["winner"].to_list() if w >= 0) or "-"
            fan = ", ".join(str(f) for f, w in zip(claims["fan"], claims["winner"], strict=True) if w >= 0)
            cells = (
                f'<td>{hand + 1}</td><td class="l">{WINDS[h["round_wind"]]}</td><td>{h["dealer"]}</td>'
                f'<td class="l">{OUTCOMES[h["outcome"]]}</td><td>{winners}</td><td>{fan}</td>'
            )
            rows.append(
                part_row(
                    "hand",
                    part,
                    cells + running_cells([a - b for a, b in zip(after, before, strict=True)], after),
                )
            )
        final = [
            (esc(self.seat_label(p["seat"], 0)), p["final_points"], f"<td>{p['rank']}</td>")
            for p in self.t["players"].sort("seat").iter_rows(named=True)
        ]
        head = (
            '<tr><th>#</th><th class="l">round</th><th>dealer</th><th class="l">outcome</th><th>winners</th>'
            f"<th>fan</th>{running_heads(self.n)}</tr>"
        )
        overview = final_standings("<th>rank</th>", final) + (
            f"<h2>Hands ({len(rows)})</h2><table>{head}{''.join(rows)}</table>"
        )
        return Page(self.shown.title("Hong Kong mahjong"), overview, frames, _STYLE)


_STYLE = """
.meld{margin-left:.4em;padding:0 .15em;background:#eef3ff}
.won{background:#fff0c0}
"""


def page(shown: Shown) -> Page:
    """The page of a replayed Hong Kong mahjong game (the contract of ``simharness.show``)."""
    return _Game(shown).page()
