"""The page of one Hong Kong mahjong game (``simharness show``), drawn from the engine's show
tables (``engine/src/games/hongkong/show.rs``): every hand rebuilt from its events (tiles dealt,
flowers and seasons exposed and replaced, draws, discards, chows, pungs and kongs), one frame per
turn, and each win's fan items, limit hand and payments (包 included) with the point changes and
running totals."""

from __future__ import annotations

from operator import itemgetter
from typing import Any

import polars as pl

from simharness import engine
from simharness.games.hongkong.metrics import FAN_ITEMS, LIMIT_HANDS
from simharness.games.riichi.show import HONOR_TITLES, HONORS
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

WINDS = "ESWN"
# `hands.outcome`'s names, as the engine declares them.
OUTCOMES = tuple(o.replace("_", " ") for o in engine.labels("hongkong", "hands", "outcome"))
# Event kinds of the `events` table, as the engine declares them (the page's script reads them too).
KINDS = engine.codes("hongkong", "events", "kind")
# Event kinds whose row carries the seat claimed or won from, and a chow's lowest kind.
WIDE = tuple(KINDS[k] for k in ("chow", "pung", "kong", "discard_win", "robbed_kong_win"))
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


class _Game(GamePage):
    def __init__(self, shown: Shown) -> None:
        super().__init__(shown)
        self.start = int(shown.rules["starting_points"])

    def seat_label(self, seat: int, dealer: int) -> str:
        return f"seat {seat} ({WINDS[(seat - dealer) % 4]}) {self.strategies[seat]}"

    def breakdown(self, wins: list[dict[str, Any]], items: dict[Any, list[dict[str, Any]]]) -> str:
        parts = []
        for w in sorted(wins, key=itemgetter("claim")):
            its = items.get((w["hand"], w["claim"]), [])
            fan = ", ".join(f"{FAN_ITEMS[i['item']]} {i['fan']}" for i in its)
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

    def page(self) -> Page:
        # A hand's events as the script reads them: kind × 4 + seat and the tile, and for a claim or
        # a win on another seat's tile (`WIDE`) the seat it came from + 1 and a chow's lowest kind.
        wide = pl.col("kind").is_in(WIDE)
        events = packed(
            self.t["events"],
            "hand",
            [
                pl.col("kind") * 4 + pl.col("seat"),
                pl.col("tile"),
                pl.when(wide).then(pl.col("from") + 1),
                pl.when(wide).then(pl.col("base")),
            ],
        )
        wins = rows_by(self.t["wins"], "hand")
        items = rows_by(self.t["win_items"], "hand", "claim")
        points = [self.start] * self.n
        parts: list[list[object]] = []
        rows = []
        for hand, claims in rows_by(self.t["hands"].sort("hand", "claim"), "hand").items():
            h = claims[0]
            deltas = [h[f"delta_{s}"] for s in range(self.n)]
            after = [p + d for p, d in zip(points, deltas, strict=True)]
            ending = (
                f"<p>{OUTCOMES[h['outcome']]} (dice {h['dice']}, {h['live_left']} live tiles left)</p>"
                + self.breakdown(wins.get(hand, []), items)
            )
            label = f"hand {hand + 1} ({WINDS[h['round_wind']]} round)"
            parts.append([hand, label, h["dealer"], deltas, h["outcome"], events.get(hand, ""), ending])
            points = after
            won = [c for c in claims if c["winner"] >= 0]
            winners = ", ".join(str(c["winner"]) for c in won) or "-"
            fan = ", ".join(str(c["fan"]) for c in won)
            cells = (
                f'<td>{hand + 1}</td><td class="l">{WINDS[h["round_wind"]]}</td><td>{h["dealer"]}</td>'
                f'<td class="l">{OUTCOMES[h["outcome"]]}</td><td>{winners}</td><td>{fan}</td>'
            )
            rows.append(part_row("hand", f"hand-{hand + 1}", cells + running_cells(deltas, after)))
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
        codes = range(BONUS + 8)
        data = {
            "faces": [face(tiles_html([c])) for c in codes],
            "names": [tile_name(c) for c in codes],
            "strategies": self.strategies,
            "start": [self.start] * self.n,
            "outcomes": OUTCOMES,
            "wide": sorted(WIDE),
            "kinds": KINDS,
            "hands": parts,
        }
        return Page(self.shown.title("Hong Kong mahjong"), overview, data, _SCRIPT, _STYLE)


_STYLE = """
.meld{margin-left:.4em;padding:0 .15em;background:#eef3ff}
.won{background:#fff0c0}
"""

# The board of each frame, rebuilt from a hand's events (see `simharness.show.page`): each seat's
# hand (sorted), melds, flowers and seasons and discards (a claimed one dimmed), the seat that just
# moved highlighted; a draw or replacement is told with the move that follows it.
_SCRIPT = """
const W='ESWN', S=D.strategies, F=D.faces, N=D.names, WIDE=new Set(D.wide), H=D.hands, BONUS=34;
const {dealt:DEALT,draw:DRAW,replacement:REPLACEMENT,discard:DISCARD,chow:CHOW,pung:PUNG,kong:KONG,
  concealed_kong:CONCEALED_KONG,added_kong:ADDED_KONG,self_draw_win:SELF_DRAW_WIN,discard_win:DISCARD_WIN,
  robbed_kong_win:ROBBED_KONG_WIN}=D.kinds;
const before=[], after=[];
let points=D.start;
for(const h of H){before.push(points);points=points.map((p,s)=>p+h[3][s]);after.push(points);}
const tiles=(codes,marks)=>codes.map((c,i)=>K.tile(F[c],marks&&marks.has(i)?'called':'')).join('');
const label=(s,dealer)=>K.esc('seat '+s+' ('+W[(s-dealer+4)%4]+') '+S[s]);
function board(seats,pts,dealer,actor){
  const rows=seats.map((st,s)=>{
    const melds=st.melds.map(([k,ts])=>'<span class="meld" title="'+k+'">'+tiles(ts)+'</span>').join(' ');
    const won=st.won===null?'':' + <span class="won">'+tiles([st.won])+'</span>';
    return '<tr'+(s===actor?' class="actor"':'')+'><td class="l">'+label(s,dealer)+'</td><td>'+pts[s]+'</td>'
      +'<td class="l hand">'+tiles(st.hand.slice().sort((a,b)=>a-b))+won+' '+melds+'</td>'
      +'<td class="l">'+tiles(st.bonus)+'</td><td class="l river">'+tiles(st.river,st.claimed)+'</td></tr>';
  });
  return '<table class="board"><tr><th class="l">seat</th><th>points</th><th class="l">hand, melds</th>'
    +'<th class="l">flowers, seasons</th><th class="l">discards</th></tr>'+rows.join('')+'</table>';
}
function apply(seats,kind,seat,code,from,base){
  const st=seats[seat], name=N[code], who='seat '+seat+' ';
  if(kind===DEALT||kind===DRAW||kind===REPLACEMENT){
    (code>=BONUS?st.bonus:st.hand).push(code);
    if(kind===DEALT)return '';
    return who+(kind===DRAW?'draws':'takes a replacement')+' '+name;
  }
  if(kind===DISCARD){K.remove(st.hand,code);st.river.push(code);return who+'discards '+name;}
  if(kind===CHOW||kind===PUNG||kind===KONG){
    seats[from].claimed.add(seats[from].river.length-1);
    const meld=kind===CHOW?[base,base+1,base+2]:Array(kind===PUNG?3:4).fill(code);
    const rest=meld.slice();
    K.remove(rest,code);
    for(const t of rest)K.remove(st.hand,t);
    const what=kind===CHOW?'chow':kind===PUNG?'pung':'kong';
    st.melds.push([what,meld]);
    return who+'claims '+name+' from seat '+from+': '+what+' '+meld.map(t=>N[t]).join(' ');
  }
  if(kind===CONCEALED_KONG){
    for(let k=0;k<4;k++)K.remove(st.hand,code);
    st.melds.push(['concealed kong',[code,code,code,code]]);
    return who+'declares a concealed kong of '+name;
  }
  if(kind===ADDED_KONG){
    K.remove(st.hand,code);
    st.melds=st.melds.map(([k,ts])=>k==='pung'&&ts[0]===code?['kong',[...ts,code]]:[k,ts]);
    return who+'adds '+name+' to its pung (kong)';
  }
  if(kind===SELF_DRAW_WIN)return who+'wins by self-draw on '+name;
  if(kind===DISCARD_WIN||kind===ROBBED_KONG_WIN){
    st.won=code;
    return who+(kind===ROBBED_KONG_WIN?'robs the kong':'wins on the discard')+' '+name+' of seat '+from;
  }
  return who+'declares a false win and pays the penalty';
}
return {
  parts:H.length,
  name:i=>'hand-'+(H[i][0]+1),
  walk(i,emit){
    const [,title,dealer,,outcome,packed,ending]=H[i];
    const seats=S.map(()=>({hand:[],bonus:[],river:[],claimed:new Set(),melds:[],won:null}));
    const v=K.ints(packed);
    let told=[], dealt=false;
    for(let j=0;j<v.length;){
      const kind=v[j]>>2, seat=v[j]&3, code=v[j+1];
      let from=-1, base=code;
      j+=2;
      if(WIDE.has(kind)){from=v[j]-1;base=v[j+1];j+=2;}
      if(kind!==DEALT&&!dealt){
        if(emit(title+': dealt',()=>board(seats,before[i],dealer,null)))return;
        dealt=true;
      }
      const caption=apply(seats,kind,seat,code,from,base);
      if(kind===DEALT)continue;
      told.push(caption);
      if(kind!==DRAW&&kind!==REPLACEMENT){
        if(emit(title+': '+told.join(', '),()=>board(seats,before[i],dealer,seat)))return;
        told=[];
      }
    }
    const labels=S.map((_,s)=>label(s,dealer));
    emit(title+' ends: '+D.outcomes[outcome],
      ()=>board(seats,after[i],dealer,null)+ending+K.changeTable(labels,before[i],after[i]));
  },
};
"""


def page(shown: Shown) -> Page:
    """The page of a replayed Hong Kong mahjong game (the contract of ``simharness.show``)."""
    return _Game(shown).page()
