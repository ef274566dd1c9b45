"""The page of one Riichi game (``simharness show``), drawn from the engine's show tables
(``engine/src/games/riichi/show.rs``): every hand rebuilt from its events (dealt tiles, draws,
discards, calls with the tiles they took from the hand, kans, dora), one frame per event, and each
win's scoring breakdown with the point changes and running totals."""

from __future__ import annotations

from typing import Any

import polars as pl

from simharness import engine
from simharness.games.riichi.scoring import yaku_names
from simharness.show.page import (
    BASE,
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
OUTCOMES = tuple(o.replace("_", " ") for o in engine.labels("riichi", "hands", "outcome"))
LIMITS = ("", "mangan", "haneman", "baiman", "sanbaiman", "kazoe yakuman", "yakuman")
RED_FIVES = {16, 52, 88}
FLOWER = 136

# Event kinds of the `events` table, by the engine's names.
_KIND = engine.codes("riichi", "events", "kind")
DRAW, RINSHAN = _KIND["draw"], _KIND["replacement_draw"]
DISCARD, RIICHI_DISCARD = _KIND["discard"], _KIND["riichi_discard"]
CHI, PON, DAIMINKAN, ANKAN, KAKAN = (
    _KIND["chi"],
    _KIND["pon"],
    _KIND["daiminkan"],
    _KIND["ankan"],
    _KIND["kakan"],
)
TSUMO, RON, DORA, KYUUSHU, FOUL = (
    _KIND["tsumo"],
    _KIND["ron"],
    _KIND["dora_indicator"],
    _KIND["kyuushu"],
    _KIND["chombo"],
)
NOTEN, OPEN_RIICHI, NUKI = _KIND["noten_claimed"], _KIND["open_riichi"], _KIND["nuki"]
DEALT, MELD_TILE, URA = _KIND["dealt"], _KIND["into_meld"], _KIND["ura_indicator"]
_CALLS = {CHI: "chi", PON: "pon", DAIMINKAN: "daiminkan", ANKAN: "ankan", KAKAN: "kakan"}


def tile_name(tile: int) -> str:
    """``5m``, ``0p`` (a red five), ``E``, ``F1`` (a flower) for a Tenhou tile id."""
    if tile >= FLOWER:
        return f"F{tile - FLOWER + 1}"
    kind = tile // 4
    if kind >= 27:
        return ("E", "S", "W", "N", "P", "F", "C")[kind - 27]
    number = 0 if tile in RED_FIVES else kind % 9 + 1
    return f"{number}{'mps'[kind // 9]}"


HONORS = ("E", "S", "W", "N", "P", "F", "C")
HONOR_TITLES = (
    "East",
    "South",
    "West",
    "North",
    "white dragon (haku)",
    "green dragon (hatsu)",
    "red dragon (chun)",
)


def tiles_html(tiles: list[int], marks: dict[int, str] | None = None) -> str:
    """Tiles as boxes (:func:`simharness.show.page.tile`); red fives and marked tiles get a class."""
    marks = marks or {}
    out = []
    for t in tiles:
        kind = t // 4
        if t >= FLOWER:
            face, suit, title = f"{t - FLOWER + 1}", "f", f"flower {t - FLOWER + 1}"
        elif kind >= 27:
            face, suit, title = HONORS[kind - 27], "z", HONOR_TITLES[kind - 27]
        else:
            face, suit, title = f"{kind % 9 + 1}", "mps"[kind // 9], tile_name(t)
        out.append(tile(face, suit, title, "red" if t in RED_FIVES else "", marks.get(t, "")))
    return "".join(out)


def round_name(round_: int, honba: int, n: int) -> str:
    return f"{'ESWN'[round_ // n % 4]}{round_ % n + 1}" + (f"-{honba}" if honba else "")


class _Game(GamePage):
    def __init__(self, shown: Shown) -> None:
        super().__init__(shown)
        self.start = int(shown.rules["starting_points"])
        self.names = yaku_names()

    def seat_label(self, seat: int, dealer: int) -> str:
        wind = WINDS[(seat - dealer) % self.n]
        return f"seat {seat} ({wind}) {self.strategies[seat]}"

    def breakdown(self, wins: list[dict[str, Any]], yaku: dict[Any, list[dict[str, Any]]]) -> str:
        parts = []
        for w in wins:
            items = [f"{self.names[y['yaku']]} {y['han']}" for y in yaku.get((w["hand"], w["seat"]), [])]
            items += [
                f"{label} {w[k]}"
                for k, label in (
                    ("dora", "dora"),
                    ("aka", "red fives"),
                    ("ura", "ura dora"),
                    ("nuki", "nukidora"),
                )
                if w[k]
            ]
            how = "tsumo" if w["from"] == w["seat"] else f"ron from seat {w['from']}"
            limit = f" {LIMITS[w['limit']]}" if w["limit"] else ""
            pao = f"; pao: seat {w['pao']} pays" if w["pao"] >= 0 else ""
            parts.append(
                f'<li class="win">seat {w["seat"]} ({esc(self.strategies[w["seat"]])}) wins by {how}: '
                f"{w['han']} han {w['fu']} fu{limit} = {w['points']} points; "
                f"{esc(', '.join(items))}{pao}</li>"
            )
        return f"<ul>{''.join(parts)}</ul>" if parts else ""

    def page(self) -> Page:
        hands = self.t["hands"].sort("hand")
        # A hand's events as the script reads them: the kind, the seat (n for the table: a dora
        # indicator) and the tile id (255: none) in two values.
        events = packed(
            self.t["events"],
            "hand",
            [
                pl.col("kind"),
                pl.min_horizontal("seat", self.n),
                pl.col("tile") // BASE,
                pl.col("tile") % BASE,
            ],
        )
        wins = rows_by(self.t["wins"], "hand")
        yaku = rows_by(self.t["win_yaku"], "hand", "seat")
        points = [self.start] * self.n
        parts: list[list[object]] = []
        rows = []
        for h in hands.iter_rows(named=True):
            hand = h["hand"]
            label = round_name(h["round"], h["honba"], self.n)
            deltas = [h[f"delta_{s}"] for s in range(self.n)]
            after = [p + d for p, d in zip(points, deltas, strict=True)]
            ending = f"<p>{OUTCOMES[h['outcome']]}</p>" + self.breakdown(wins.get(hand, []), yaku)
            title = f"hand {hand + 1} ({label})"
            parts.append([hand, title, h["dealer"], deltas, h["outcome"], events.get(hand, ""), ending])
            points = after
            winners = ", ".join(str(s) for s in range(self.n) if h["winners"] >> s & 1) or "-"
            value = f"{h['han']} han {h['fu']} fu {h['points']}" if h["winners"] else ""
            cells = (
                f'<td>{hand + 1}</td><td class="l">{label}</td><td>{h["dealer"]}</td>'
                f'<td class="l">{OUTCOMES[h["outcome"]]}</td><td>{winners}</td><td class="l">{value}</td>'
            )
            rows.append(part_row("hand", f"hand-{hand + 1}", cells + running_cells(deltas, after)))
        final = [
            (
                esc(self.seat_label(p["seat"], 0)),
                p["final_points"],
                f"<td>{p['rank']}</td><td>{p['score']:+.1f}</td>",
            )
            for p in self.t["players"].sort("seat").iter_rows(named=True)
        ]
        head = (
            '<tr><th>#</th><th class="l">round</th><th>dealer</th><th class="l">outcome</th><th>winners</th>'
            f'<th class="l">value (first winner)</th>{running_heads(self.n)}</tr>'
        )
        overview = (
            final_standings("<th>rank</th><th>score</th>", final)
            + f"<h2>Hands ({hands.height})</h2><table>{head}{''.join(rows)}</table>"
        )
        ids = range(FLOWER + 8)
        # Each tile's place in a sorted hand: by kind, a red five first.
        order = sorted(ids, key=lambda t: (t // 4, t not in RED_FIVES, t))
        data = {
            "faces": [face(tiles_html([t])) for t in ids],
            "names": [tile_name(t) for t in ids],
            "order": [order.index(t) for t in ids],
            "strategies": self.strategies,
            "start": [self.start] * self.n,
            "outcomes": OUTCOMES,
            "hands": parts,
        }
        return Page(self.shown.title("Riichi"), overview, data, _SCRIPT, _STYLE)


_STYLE = """
.meld{margin-left:.4em;padding:0 .15em;background:#eef3ff}
.rb{color:#c00}
"""

# The board of each frame, rebuilt from a hand's events (see `simharness.show.page`): the dora
# (and ura) indicators, each seat's hand (sorted), melds, nukidora and discards (a called one
# dimmed, the riichi one turned), the seat that just moved highlighted; a draw is told with the
# discard that follows it.
_SCRIPT = """
const W='ESWN', S=D.strategies, F=D.faces, N=D.names, O=D.order, H=D.hands, n=S.length;
const [DRAW,RINSHAN,DISCARD,RIICHI_DISCARD,CHI,PON,DAIMINKAN,ANKAN,KAKAN,TSUMO,RON,DORA,KYUUSHU,FOUL,
  NOTEN,OPEN_RIICHI,NUKI,DEALT,MELD_TILE,URA]=[...Array(20).keys()];
const CALLS={[CHI]:'chi',[PON]:'pon',[DAIMINKAN]:'daiminkan',[ANKAN]:'ankan'};
const SAID={[TSUMO]:' declares tsumo',[KYUUSHU]:' declares kyuushu kyuuhai',
  [FOUL]:"'s foul is shown (chombo)",[NOTEN]:' claims noten',[OPEN_RIICHI]:' opens its riichi'};
const before=[], after=[];
let points=D.start;
for(const h of H){before.push(points);points=points.map((p,s)=>p+h[3][s]);after.push(points);}
const tiles=(ts,marks)=>ts.map(t=>K.tile(F[t],marks&&marks.get(t))).join('');
const label=(s,dealer)=>K.esc('seat '+s+' ('+W[(s-dealer+n)%n]+') '+S[s]);
function board(st,pts,dealer,actor){
  const rows=st.seats.map((seat,s)=>{
    const melds=seat.melds.map(([k,ts])=>'<span class="meld" title="'+k+'">'+tiles(ts)+'</span>').join(' ');
    const marks=new Map([...seat.called].map(t=>[t,'called']));
    if(seat.riichi!==null)marks.set(seat.riichi,'riichi');
    const flag=seat.riichi!==null?' <b class="rb">riichi</b>':'';
    const hand=tiles(seat.hand.slice().sort((a,b)=>O[a]-O[b]));
    return '<tr'+(s===actor?' class="actor"':'')+'><td class="l">'+label(s,dealer)+flag+'</td>'
      +'<td>'+pts[s]+'</td><td class="l hand">'+hand+' '+melds+' '+tiles(seat.nuki)+'</td>'
      +'<td class="l river">'+tiles(seat.river,marks)+'</td></tr>';
  });
  return '<p>dora indicators: '+tiles(st.dora)+(st.ura.length?' &nbsp; ura indicators: '+tiles(st.ura):'')
    +'</p><table class="board"><tr><th class="l">seat</th><th>points</th><th class="l">hand, melds</th>'
    +'<th class="l">discards</th></tr>'+rows.join('')+'</table>';
}
function apply(st,seat,kind,t){
  const name=t===255?'':N[t], who='seat '+seat;
  if(kind===DORA){st.dora.push(t);return 'dora indicator '+name;}
  if(kind===URA){st.ura.push(t);return '';}
  const s=st.seats[seat];
  if(s===undefined)throw new Error('event kind '+kind+' without a seat');
  if(kind===DEALT){s.hand.push(t);return '';}
  if(kind===DRAW||kind===RINSHAN){
    s.hand.push(t);
    return who+' draws '+name+(kind===RINSHAN?' (replacement)':'');
  }
  if(kind===DISCARD||kind===RIICHI_DISCARD){
    K.remove(s.hand,t);
    s.river.push(t);
    st.last=[seat,t];
    if(kind===DISCARD)return who+' discards '+name;
    s.riichi=t;
    return who+' declares riichi, discarding '+name;
  }
  if(kind in CALLS){s.call=[kind,t];s.building=false;return '';}
  if(kind===MELD_TILE){
    K.remove(s.hand,t);
    if(!s.building){
      s.building=true;
      const [call,called]=s.call===null?[ANKAN,255]:s.call;
      const taken=call===ANKAN?[]:[called];
      if(taken.length&&st.last!==null)st.seats[st.last[0]].called.add(called);
      s.melds.push([CALLS[call],taken]);
    }
    s.melds[s.melds.length-1][1].push(t);
    return '';
  }
  if(kind===KAKAN){
    K.remove(s.hand,t);
    for(const [k,ts] of s.melds)if(k==='pon'&&ts[0]>>2===t>>2)ts.push(t);
    return who+' adds '+name+' to its pon (kakan)';
  }
  if(kind===NUKI){K.remove(s.hand,t);s.nuki.push(t);return who+' extracts '+name+' (nuki)';}
  if(kind===RON)return who+' declares ron on '+name;
  return kind in SAID?who+SAID[kind]:who+': event '+kind;
}
return {
  parts:H.length,
  name:i=>'hand-'+(H[i][0]+1),
  walk(i,emit){
    const [,title,dealer,,outcome,packed,ending]=H[i];
    const st={seats:S.map(()=>({hand:[],river:[],called:new Set(),riichi:null,melds:[],nuki:[],call:null,
      building:false})),dora:[],ura:[],last:null};
    const v=K.ints(packed);
    let drawn='', shown=0;
    for(let j=0;j<v.length;j+=4){
      const kind=v[j], seat=v[j+1], t=v[j+2]*__BASE__+v[j+3];
      const caption=apply(st,seat,kind,t);
      if(kind===DRAW||kind===RINSHAN){drawn=caption+', ';continue;}
      if(caption&&(kind!==DORA||shown>0)){
        shown++;
        if(emit(title+': '+drawn+caption,()=>board(st,before[i],dealer,seat<n?seat:null)))return;
        drawn='';
      }
    }
    if(shown===0&&emit(title+': dealt',()=>board(st,before[i],dealer,null)))return;
    const labels=S.map((_,s)=>label(s,dealer));
    emit(title+' ends: '+D.outcomes[outcome],
      ()=>board(st,after[i],dealer,null)+ending+K.changeTable(labels,before[i],after[i]));
  },
};
""".replace("__BASE__", str(BASE))


def page(shown: Shown) -> Page:
    """The page of a replayed Riichi game (the contract of ``simharness.show``)."""
    return _Game(shown).page()
