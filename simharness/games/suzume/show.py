"""The page of one Suzume-jong game (``simharness show``), drawn from the engine's show tables
(``engine/src/games/suzume/show.rs``): every hand rebuilt from its events (the five tiles dealt to
each seat, the dora, every draw and discard), one frame per turn, and each win's points part by
part with the point changes and running totals."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

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

DEALT, DORA, DRAW, DISCARD, TSUMO, RON, MISTAKE = range(7)
HATSU, CHUN = 9, 10
OUTCOMES = ("exhaustive draw", "tsumo", "ron")
YAKUMAN = ("", "All Green", "Chinyao", "Super Red")
# Parts of a win's points, as the `hands` table names them.
PARTS = (("set_points", "sets"), ("red", "red tiles"), ("dora", "dora"), ("tanyao", "tanyao"),
         ("chanta", "chanta"), ("yakuman_points", "yakuman"), ("dealer_bonus", "dealer bonus"))  # fmt: skip


def tile_name(t: int, reds: bool) -> str:
    """The spec's notation of tile id 0–43 (kind = id / 4; copy 0 of a number is the red one
    when the set has red tiles): ``3``, ``3r``, ``F``, ``C``."""
    kind = t // 4
    if kind in (HATSU, CHUN):
        return "F" if kind == HATSU else "C"
    return f"{kind + 1}{'r' if reds and t % 4 == 0 else ''}"


def tile_html(t: int, reds: bool) -> str:
    name = tile_name(t, reds)
    if t // 4 in (HATSU, CHUN):
        return tile(name, "z", "hatsu" if name == "F" else "chun")
    return tile(name.rstrip("r"), "s", name, "red" if name.endswith("r") else "")


@dataclass
class HandState:
    hands: list[list[int]]
    rivers: list[list[int]]
    dora: list[int] = field(default_factory=list)


class _Game(GamePage):
    def __init__(self, shown: Shown) -> None:
        super().__init__(shown)
        self.start = int(shown.rules["starting_points"])
        self.reds = bool(shown.rules["red_tiles"])

    def tiles(self, tiles: list[int]) -> str:
        return "".join(tile_html(t, self.reds) for t in tiles)

    def board(self, st: HandState, points: list[int], dealer: int, actor: int | None) -> str:
        rows = "".join(
            f'<tr{" class=actor" if s == actor else ""}><td class="l">seat {s}'
            f"{' (dealer)' if s == dealer else ''} {esc(self.strategies[s])}</td><td>{points[s]}</td>"
            f'<td class="l">{self.tiles(sorted(st.hands[s]))}</td>'
            f'<td class="l">{self.tiles(st.rivers[s])}</td></tr>'
            for s in range(self.n)
        )
        return (
            f"<p>dora indicator: {self.tiles(st.dora) or 'none'}</p>"
            '<table><tr><th class="l">seat</th><th>points</th><th class="l">hand</th>'
            f'<th class="l">discards</th></tr>{rows}</table>'
        )

    def apply(self, st: HandState, seat: int, kind: int, t: int) -> str:
        if kind == DORA:
            st.dora.append(t)
            return ""
        if kind in (DEALT, DRAW):
            st.hands[seat].append(t)
            return "" if kind == DEALT else f"seat {seat} draws {tile_name(t, self.reds)}"
        if kind == DISCARD:
            st.hands[seat].remove(t)
            st.rivers[seat].append(t)
            return f"seat {seat} discards {tile_name(t, self.reds)}"
        if kind == TSUMO:
            return f"seat {seat} declares tsumo on {tile_name(t, self.reds)}"
        if kind == RON:
            return f"seat {seat} declares ron on {tile_name(t, self.reds)}"
        return f"seat {seat} declares a mistaken win and pays the penalty"

    def breakdown(self, claims: pl.DataFrame) -> str:
        items = []
        for c in claims.filter(pl.col("winner") >= 0).iter_rows(named=True):
            parts = ", ".join(f"{label} {c[k]}" for k, label in PARTS if c[k])
            yakuman = f" ({YAKUMAN[c['yakuman']]})" if c["yakuman"] else ""
            how = "tsumo" if c["outcome"] == 1 else f"ron from seat {c['discarder']}"
            items.append(
                f"<li>seat {c['winner']} ({esc(self.strategies[c['winner']])}) wins by {how}{yakuman}: "
                f"{esc(parts)} = {c['points']} points, received {c['received']}</li>"
            )
        return f"<ul>{''.join(items)}</ul>"

    def page(self) -> Page:
        hands = self.t["hands"].sort("hand", "claim")
        events = self.t["events"].sort("seq")
        points = [self.start] * self.n
        frames: list[Frame] = []
        rows = []
        for (hand,), claims in hands.group_by("hand", maintain_order=True):
            h = claims.row(0, named=True)
            part = f"hand-{hand}"
            before = list(points)
            after = [points[s] + h[f"delta_{s}"] for s in range(self.n)]
            st = HandState([[] for _ in range(self.n)], [[] for _ in range(self.n)])
            drawn = ""
            for seat, kind, t in (
                events.filter(pl.col("hand") == hand).select("seat", "kind", "tile").iter_rows()
            ):
                caption = self.apply(st, seat, kind, t)
                if kind == DRAW:
                    drawn = caption + ", "
                elif caption:
                    frames.append(
                        Frame(
                            f"hand {hand + 1}: {drawn}{caption}",
                            self.board(st, before, h["dealer"], seat),
                            part,
                        )
                    )
                    drawn = ""
            labels = [f"seat {s}" for s in range(self.n)]
            result = f"<p>{OUTCOMES[h['outcome']]}</p>{self.breakdown(claims)}" + change_table(
                labels, before, after
            )
            frames.append(
                Frame(
                    f"hand {hand + 1} ends: {OUTCOMES[h['outcome']]}",
                    self.board(st, after, h["dealer"], None) + result,
                    part,
                )
            )
            points = after
            winners = ", ".join(str(w) for w in claims["winner"].to_list() if w >= 0) or "-"
            value = ", ".join(
                str(p) for p, w in zip(claims["points"], claims["winner"], strict=True) if w >= 0
            )
            cells = (
                f'<td>{hand + 1}</td><td>{h["dealer"]}</td><td class="l">{OUTCOMES[h["outcome"]]}</td>'
                f"<td>{winners}</td><td>{value}</td>"
            )
            deltas = [after[s] - before[s] for s in range(self.n)]
            rows.append(part_row("hand", str(part), cells + running_cells(deltas, after)))
        final = [
            (
                f"seat {p['seat']} {esc(self.strategies[p['seat']])}",
                p["final_points"],
                f"<td>{p['rank']}</td>",
            )
            for p in self.t["players"].sort("seat").iter_rows(named=True)
        ]
        head = (
            '<tr><th>#</th><th>dealer</th><th class="l">outcome</th><th>winners</th><th>points</th>'
            f"{running_heads(self.n)}</tr>"
        )
        overview = final_standings("<th>rank</th>", final) + (
            f"<h2>Hands ({len(rows)})</h2><table>{head}{''.join(rows)}</table>"
        )
        return Page(self.shown.title("Suzume-jong"), overview, frames)


def page(shown: Shown) -> Page:
    """The page of a replayed Suzume-jong game (the contract of ``simharness.show``)."""
    return _Game(shown).page()
