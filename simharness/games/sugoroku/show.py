"""The page of one sugoroku game (``simharness show``), drawn from the engine's show tables
(``engine/src/games/sugoroku/show.rs``): the course as a board whose squares turn face up as the
pieces land on them, the pieces after every turn, every roll and decision, and the settlement."""

from __future__ import annotations

import polars as pl

from simharness.show.page import Frame, GamePage, Page, esc, part_row, tile
from simharness.show.replay import Shown

# Board squares per row (the course snakes: row 2 runs right to left).
ROW = 20
DECISIONS = {
    1: "pinzoro back re-roll",
    2: "6-zoro extra roll",
    3: "offset after a pinzoro",
    4: "offset after a 6-zoro",
    5: "agree to end the game",
}
SPECIAL = {34: ("5", "m", "red 5m"), 35: ("5", "p", "red 5p"), 36: ("5", "p", "gold 5p"),
           37: ("5", "s", "red 5s"), 38: ("5", "s", "gold 5s"), 39: ("P", "x", "white pochi")}  # fmt: skip
HONORS = ("E", "S", "W", "N", "P", "F", "C")
ENDS = ("a piece reached the goal", "max_turns reached (no settlement)", "ended by agreement (no settlement)")


def tile_html(tile_id: int) -> str:
    """A sugoroku tile id (see the `course` table) as a box."""
    if tile_id in SPECIAL:
        face, suit, title = SPECIAL[tile_id]
        return tile(face, suit, title, "red" if "red" in title else "gold" if "gold" in title else "")
    if tile_id >= 27:
        return tile(HONORS[tile_id - 27], "z", HONORS[tile_id - 27])
    suit = "mps"[tile_id // 9]
    return tile(str(tile_id % 9 + 1), suit, f"{tile_id % 9 + 1}{suit}")


class _Game(GamePage):
    def __init__(self, shown: Shown) -> None:
        super().__init__(shown)
        course = self.t["course"].sort("square")
        self.tiles = course["tile"].to_list()
        self.revealed = course["revealed"].to_list()
        self.goal = len(self.tiles) + 1

    def board(self, turn: int, positions: dict[int, int]) -> str:
        pieces: dict[int, list[int]] = {}
        for seat, pos in positions.items():
            pieces.setdefault(pos, []).append(seat)
        cells = []
        for sq in range(self.goal + 1):
            if sq == 0:
                face = '<span class="t z" title="start">S</span>'
            elif sq == self.goal:
                face = '<span class="t z" title="goal">G</span>'
            elif 0 < self.revealed[sq - 1] <= turn:
                face = tile_html(self.tiles[sq - 1])
            else:
                face = tile("?", "z", f"square {sq}, face down", "down")
            marks = "".join(f'<b class="pc p{s}" title="seat {s}">{s}</b>' for s in pieces.get(sq, []))
            cells.append(f'<div class="sq" title="square {sq}">{face}{marks}</div>')
        rows = [cells[i : i + ROW] for i in range(0, len(cells), ROW)]
        html_rows = [
            f'<div class="row{" rev" if i % 2 else ""}">{"".join(r)}</div>' for i, r in enumerate(rows)
        ]
        return f'<div class="board">{"".join(html_rows)}</div>'

    def standing(self, rows: pl.DataFrame, mover: int | None) -> str:
        cells = "".join(
            f'<tr{" class=actor" if r["seat"] == mover else ""}><td class="l">'
            f'<b class="pc p{r["seat"]}">{r["seat"]}</b> {esc(self.strategies[r["seat"]])}</td>'
            f"<td>{r['pos']}</td><td>{r['points']}</td><td>{r['rests']}</td><td>×{r['mult']}</td></tr>"
            for r in rows.sort("seat").iter_rows(named=True)
        )
        return (
            '<table><tr><th class="l">seat</th><th>square</th><th>points</th><th>rests</th>'
            f"<th>next landing</th></tr>{cells}</table>"
        )

    def page(self) -> Page:
        positions = self.t["positions"].sort("turn", "seat")
        rolls = self.t["rolls"]
        decisions = self.t["decisions"]
        frames = []
        rows = []
        for (turn,), snap in positions.group_by("turn", maintain_order=True):
            mover = int(snap["mover"][0])
            where = dict(zip(snap["seat"].to_list(), snap["pos"].to_list(), strict=True))
            part = f"turn-{turn}"
            if turn == 0:
                caption = "the course is laid, the dora flipped"
                said = ""
            else:
                r = rolls.filter(pl.col("turn") == turn)
                d = decisions.filter(pl.col("turn") == turn)
                dice = ", ".join(f"{a}+{b}" for a, b in zip(r["die1"], r["die2"], strict=True)) or "rests"
                said = "; ".join(
                    f"seat {s} {'takes' if taken else 'declines'} {DECISIONS[k]}"
                    for s, k, taken in d.select("seat", "decision", "taken").iter_rows()
                )
                caption = f"turn {turn}: seat {mover} ({self.strategies[mover]}) rolls {dice}" + (
                    f"; {said}" if said else ""
                )
                points = " ".join(str(p) for p in snap["points"].to_list())
                cells = (
                    f'<td>{turn}</td><td>{mover}</td><td class="l">{esc(dice)}</td>'
                    f'<td class="l">{esc(said)}</td><td>{where[mover]}</td><td>{points}</td>'
                )
                rows.append(part_row("turn", part, cells))
            frames.append(
                Frame(caption, self.standing(snap, mover if turn else None) + self.board(turn, where), part)
            )
        game = self.t["games"].row(0, named=True)
        players = self.t["players"].sort("seat")
        final = "".join(
            f'<tr><td class="l"><b class="pc p{p["seat"]}">{p["seat"]}</b> '
            f"{esc(self.strategies[p['seat']])}</td>"
            f"<td>{p['points_before_settlement']}</td><td>{p['winner_bonus']:+d}</td><td>{p['settlement']:+d}</td>"
            f'<td>{p["rest_chips"]:+d}</td><td class="points">{p["final_points"]}</td>'
            f"<td>{p['rank']}</td></tr>"
            for p in players.iter_rows(named=True)
        )
        settlement = (
            f"<p>{ENDS[game['early_end']]}"
            + (f"; winner: seat {game['winner']}" if game["winner"] >= 0 else "")
            + '</p><table><tr><th class="l">seat</th><th>before settlement</th><th>winner bonus</th>'
            "<th>distance settlement</th><th>rest chips</th><th>final points</th><th>rank</th></tr>"
            f"{final}</table>"
        )
        dora = ", ".join(f"{tile_html(k)}×{c}" for k, c in self.t["dora"].select("kind", "count").iter_rows())
        last = frames[-1]
        frames.append(Frame(f"the game ends: {ENDS[game['early_end']]}", settlement + last.body, last.part))
        points_head = " ".join(str(s) for s in range(self.n))
        overview = (
            f"<h2>Final standings</h2>{settlement}<p>dora: {dora}</p>"
            f'<h2>Turns ({len(rows)})</h2><table><tr><th>turn</th><th>seat</th><th class="l">dice</th>'
            f'<th class="l">decisions</th><th>square</th><th>points of seats {points_head}</th></tr>'
            f"{''.join(rows)}</table>"
        )
        return Page(self.shown.title("Sugoroku"), overview, frames, _STYLE)


_STYLE = """
.board{margin:.5em 0} .row{display:flex} .row.rev{flex-direction:row-reverse}
.sq{position:relative;width:2.1em;height:2.3em;text-align:center;border:1px dotted #ddd}
.pc{display:inline-block;width:1.2em;height:1.2em;line-height:1.2em;border-radius:50%;color:#fff;
 font-size:.75em;text-align:center}
.sq .pc{position:absolute;right:0;top:0}
.p0{background:#d62728} .p1{background:#1f77b4} .p2{background:#2ca02c} .p3{background:#9467bd}
.p4{background:#ff7f0e} .t.gold{background:#ffe9a8}
"""


def page(shown: Shown) -> Page:
    """The page of a replayed sugoroku game (the contract of ``simharness.show``)."""
    return _Game(shown).page()
