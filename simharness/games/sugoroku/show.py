"""The page of one sugoroku game (``simharness show``), drawn from the engine's show tables
(``engine/src/games/sugoroku/show.rs``): the course as a board whose squares turn face up as the
pieces land on them, the pieces after every turn, every roll and decision, and the settlement."""

from __future__ import annotations

from simharness import engine
from simharness.show.page import GamePage, Page, esc, part_row, rows_by, tile
from simharness.show.replay import Shown

# Board squares per row (the course snakes: row 2 runs right to left).
ROW = 20
# How the page tells each option of `decisions.decision` (by its code's label in the engine).
_TOLD = {
    "pinzoro_reroll": "pinzoro back re-roll",
    "extra_roll": "6-zoro extra roll",
    "pinzoro_offset": "offset after a pinzoro",
    "sixzoro_offset": "offset after a 6-zoro",
    "agree_end": "agree to end the game",
}
DECISIONS = tuple(_TOLD[label] for label in engine.labels("sugoroku", "decisions", "decision"))
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

    def course(self) -> list[list[object]]:
        """Each square from the start to the goal as ``[turn, face up, face down]``: its face up
        from that turn on (0: always, the start and the goal; -1: never turned)."""
        start = '<span class="t z" title="start">S</span>'
        goal = '<span class="t z" title="goal">G</span>'
        squares: list[list[object]] = [[0, start, start]]
        for sq, (t, turn) in enumerate(zip(self.tiles, self.revealed, strict=True), start=1):
            down = tile("?", "z", f"square {sq}, face down", "down")
            squares.append([turn if turn > 0 else -1, tile_html(t), down])
        return [*squares, [0, goal, goal]]

    def page(self) -> Page:
        rolls = rows_by(self.t["rolls"], "turn")
        decisions = rows_by(self.t["decisions"], "turn")
        turns: list[list[object]] = []
        rows = []
        for turn, snap in rows_by(self.t["positions"].sort("turn", "seat"), "turn").items():
            mover = int(snap[0]["mover"])
            where = [p["pos"] for p in snap]
            if turn == 0:
                caption = "the course is laid, the dora flipped"
            else:
                dice = ", ".join(f"{r['die1']}+{r['die2']}" for r in rolls.get(turn, [])) or "rests"
                said = "; ".join(
                    f"seat {d['seat']} {'takes' if d['taken'] else 'declines'} {DECISIONS[d['decision']]}"
                    for d in decisions.get(turn, [])
                )
                caption = f"turn {turn}: seat {mover} ({self.strategies[mover]}) rolls {dice}" + (
                    f"; {said}" if said else ""
                )
                points = " ".join(str(p["points"]) for p in snap)
                cells = (
                    f'<td>{turn}</td><td>{mover}</td><td class="l">{esc(dice)}</td>'
                    f'<td class="l">{esc(said)}</td><td>{where[mover]}</td><td>{points}</td>'
                )
                rows.append(part_row("turn", f"turn-{turn}", cells))
            more = [[p[c] for p in snap] for c in ("points", "rests", "mult")]
            turns.append([turn, mover if turn else -1, caption, where, *more])
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
        points_head = " ".join(str(s) for s in range(self.n))
        overview = (
            f"<h2>Final standings</h2>{settlement}<p>dora: {dora}</p>"
            f'<h2>Turns ({len(rows)})</h2><table><tr><th>turn</th><th>seat</th><th class="l">dice</th>'
            f'<th class="l">decisions</th><th>square</th><th>points of seats {points_head}</th></tr>'
            f"{''.join(rows)}</table>"
        )
        data = {
            "strategies": self.strategies,
            "course": self.course(),
            "turns": turns,
            "end": f"the game ends: {ENDS[game['early_end']]}",
            "settlement": settlement,
        }
        return Page(self.shown.title("Sugoroku"), overview, data, _SCRIPT, _STYLE)


_STYLE = """
.board{margin:.5em 0} .row{display:flex} .row.rev{flex-direction:row-reverse}
.sq{position:relative;width:2.1em;height:2.3em;text-align:center;border:1px dotted #ddd}
.pc{display:inline-block;width:1.2em;height:1.2em;line-height:1.2em;border-radius:50%;color:#fff;
 font-size:.75em;text-align:center}
.sq .pc{position:absolute;right:0;top:0}
.p0{background:#d62728} .p1{background:#1f77b4} .p2{background:#2ca02c} .p3{background:#9467bd}
.p4{background:#ff7f0e} .t.gold{background:#ffe9a8}
"""

# One frame per turn (see `simharness.show.page`): each seat's square, points, rests and next
# landing's multiplier, and the course (squares turned face up by that turn, the pieces on it);
# the last turn has a second frame with the settlement.
_SCRIPT = """
const S=D.strategies, C=D.course, T=D.turns, ROW=__ROW__;
function standing([,mover,,pos,points,rests,mult]){
  return '<table><tr><th class="l">seat</th><th>square</th><th>points</th><th>rests</th>'
    +'<th>next landing</th></tr>'
    +S.map((strategy,s)=>'<tr'+(s===mover?' class=actor':'')+'><td class="l"><b class="pc p'+s+'">'+s+'</b> '
      +K.esc(strategy)+'</td><td>'+pos[s]+'</td><td>'+points[s]+'</td><td>'+rests[s]+'</td><td>×'+mult[s]
      +'</td></tr>').join('')+'</table>';
}
function board([turn,,,pos]){
  const cells=C.map(([from,up,down],sq)=>'<div class="sq" title="square '+sq+'">'
    +(from>=0&&from<=turn?up:down)
    +S.map((_,s)=>pos[s]===sq?'<b class="pc p'+s+'" title="seat '+s+'">'+s+'</b>':'').join('')+'</div>');
  const rows=[];
  for(let k=0;k<cells.length;k+=ROW)
    rows.push('<div class="row'+(rows.length%2?' rev':'')+'">'+cells.slice(k,k+ROW).join('')+'</div>');
  return '<div class="board">'+rows.join('')+'</div>';
}
return {
  parts:T.length,
  name:i=>'turn-'+T[i][0],
  walk(i,emit){
    const body=()=>standing(T[i])+board(T[i]);
    if(emit(T[i][2],body))return;
    if(i===T.length-1)emit(D.end,()=>D.settlement+body());
  },
};
""".replace("__ROW__", str(ROW))


def page(shown: Shown) -> Page:
    """The page of a replayed sugoroku game (the contract of ``simharness.show``)."""
    return _Game(shown).page()
