"""The page of one Suzume-jong game (``simharness show``), drawn from the engine's show tables
(``engine/src/games/suzume/show.rs``): every hand rebuilt from its events (the five tiles dealt to
each seat, the dora, every draw and discard), one frame per turn, and each win's points part by
part with the point changes and running totals."""

from __future__ import annotations

from typing import Any

import polars as pl

from simharness import engine
from simharness.show.page import (
    GamePage,
    Page,
    esc,
    face,
    final_standings,
    packed,
    part_row,
    rows_by,
    running_cells,
    running_heads,
    tile,
)
from simharness.show.replay import Shown

HATSU, CHUN = 9, 10
TILES = 44
OUTCOMES = tuple(o.replace("_", " ") for o in engine.labels("suzume", "hands", "outcome"))
TSUMO = engine.codes("suzume", "hands", "outcome")["tsumo"]
# Yakuman by code as the page names them ("All Green"); code 0, none, is no name.
YAKUMAN = tuple(
    "" if y == "none" else y.replace("_", " ").title() for y in engine.labels("suzume", "hands", "yakuman")
)
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


class _Game(GamePage):
    def __init__(self, shown: Shown) -> None:
        super().__init__(shown)
        self.start = int(shown.rules["starting_points"])
        self.reds = bool(shown.rules["red_tiles"])

    def breakdown(self, won: list[dict[str, Any]]) -> str:
        items = []
        for c in won:
            parts = ", ".join(f"{label} {c[k]}" for k, label in PARTS if c[k])
            yakuman = f" ({YAKUMAN[c['yakuman']]})" if c["yakuman"] else ""
            how = "tsumo" if c["outcome"] == TSUMO else f"ron from seat {c['discarder']}"
            items.append(
                f"<li>seat {c['winner']} ({esc(self.strategies[c['winner']])}) wins by {how}{yakuman}: "
                f"{esc(parts)} = {c['points']} points, received {c['received']}</li>"
            )
        return f"<ul>{''.join(items)}</ul>"

    def page(self) -> Page:
        # A hand's events as the script reads them: kind × 6 + seat (5 for the table: the dora
        # indicator) and the tile id.
        events = packed(
            self.t["events"], "hand", [pl.col("kind") * 6 + pl.min_horizontal("seat", 5), pl.col("tile")]
        )
        points = [self.start] * self.n
        parts: list[list[object]] = []
        rows = []
        for hand, claims in rows_by(self.t["hands"].sort("hand", "claim"), "hand").items():
            h = claims[0]
            deltas = [h[f"delta_{s}"] for s in range(self.n)]
            after = [p + d for p, d in zip(points, deltas, strict=True)]
            won = [c for c in claims if c["winner"] >= 0]
            ending = f"<p>{OUTCOMES[h['outcome']]}</p>{self.breakdown(won)}"
            parts.append([hand, h["dealer"], deltas, h["outcome"], events.get(hand, ""), ending])
            points = after
            winners = ", ".join(str(c["winner"]) for c in won) or "-"
            value = ", ".join(str(c["points"]) for c in won)
            cells = (
                f'<td>{hand + 1}</td><td>{h["dealer"]}</td><td class="l">{OUTCOMES[h["outcome"]]}</td>'
                f"<td>{winners}</td><td>{value}</td>"
            )
            rows.append(part_row("hand", f"hand-{hand + 1}", cells + running_cells(deltas, after)))
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
        ids = range(TILES)
        data = {
            "faces": [face(tile_html(t, self.reds)) for t in ids],
            "names": [tile_name(t, self.reds) for t in ids],
            "strategies": self.strategies,
            "start": [self.start] * self.n,
            "outcomes": OUTCOMES,
            # The `events.kind` codes as the engine declares them, which the script reads.
            "kinds": engine.codes("suzume", "events", "kind"),
            "hands": parts,
        }
        return Page(self.shown.title("Suzume-jong"), overview, data, _SCRIPT)


# The board of each frame, rebuilt from a hand's events (see `simharness.show.page`): the dora
# indicator, each seat's hand (sorted) and discards, the seat that just moved highlighted; a draw
# is told with the discard that follows it.
_SCRIPT = """
const S=D.strategies, F=D.faces, N=D.names, H=D.hands, n=S.length;
const {dealt:DEALT,dora:DORA,draw:DRAW,discard:DISCARD,tsumo:TSUMO,ron:RON}=D.kinds;
const before=[], after=[];
let points=D.start;
for(const h of H){before.push(points);points=points.map((p,s)=>p+h[2][s]);after.push(points);}
const tiles=ts=>ts.map(t=>K.tile(F[t])).join('');
function board(st,pts,dealer,actor){
  const rows=S.map((strategy,s)=>'<tr'+(s===actor?' class=actor':'')+'><td class="l">seat '+s
    +(s===dealer?' (dealer)':'')+' '+K.esc(strategy)+'</td><td>'+pts[s]+'</td>'
    +'<td class="l">'+tiles(st.hands[s].slice().sort((a,b)=>a-b))+'</td>'
    +'<td class="l">'+tiles(st.rivers[s])+'</td></tr>');
  return '<p>dora indicator: '+(tiles(st.dora)||'none')+'</p>'
    +'<table><tr><th class="l">seat</th><th>points</th><th class="l">hand</th><th class="l">discards</th>'
    +'</tr>'+rows.join('')+'</table>';
}
function apply(st,seat,kind,t){
  const who='seat '+seat+' ';
  if(kind===DORA){st.dora.push(t);return '';}
  if(kind===DEALT||kind===DRAW){st.hands[seat].push(t);return kind===DEALT?'':who+'draws '+N[t];}
  if(kind===DISCARD){K.remove(st.hands[seat],t);st.rivers[seat].push(t);return who+'discards '+N[t];}
  if(kind===TSUMO)return who+'declares tsumo on '+N[t];
  if(kind===RON)return who+'declares ron on '+N[t];
  return who+'declares a mistaken win and pays the penalty';
}
return {
  parts:H.length,
  name:i=>'hand-'+(H[i][0]+1),
  walk(i,emit){
    const [hand,dealer,,outcome,packed,ending]=H[i];
    const st={hands:S.map(()=>[]),rivers:S.map(()=>[]),dora:[]};
    const v=K.ints(packed);
    let drawn='';
    for(let j=0;j<v.length;j+=2){
      const kind=Math.floor(v[j]/6), seat=v[j]%6, caption=apply(st,seat,kind,v[j+1]);
      if(kind===DRAW)drawn=caption+', ';
      else if(caption){
        if(emit('hand '+(hand+1)+': '+drawn+caption,()=>board(st,before[i],dealer,seat)))return;
        drawn='';
      }
    }
    const labels=S.map((_,s)=>'seat '+s);
    emit('hand '+(hand+1)+' ends: '+D.outcomes[outcome],
      ()=>board(st,after[i],dealer,null)+ending+K.changeTable(labels,before[i],after[i]));
  },
};
"""


def page(shown: Shown) -> Page:
    """The page of a replayed Suzume-jong game (the contract of ``simharness.show``)."""
    return _Game(shown).page()
