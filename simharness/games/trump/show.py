"""The page of one Trump mahjong game (``simharness show``), drawn from the engine's show tables
(``engine/src/games/trump/show.rs``): every hand rebuilt from its events (the seven cards dealt to
each seat, the dora indicator and the Jokers it put out of play, every draw, Joker set aside and
replacement, every discard and riichi), one frame per turn, and each win's yaku, han, points and
payments with the point changes, the riichi sticks and the running totals; a chombo (a false tsumo
injected by ``mistake_rate``) with its penalty, the sticks it returns and the replay it causes.

A card is drawn with its rank and a suit as on a playing card. The rules ignore suits (spec A1);
the suit shown is the card's copy (id mod 4: ♠ ♥ ♦ ♣), so the four copies of a rank look apart."""

from __future__ import annotations

from typing import Any

import polars as pl

from simharness import engine
from simharness.games.trump.metrics import OUTCOME, YAKU
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
)
from simharness.show.replay import Shown

FIRST_JOKER = 52
CARDS = 54
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("♠", "♥", "♦", "♣")
ROUNDS = ("East", "South", "West")
OUTCOMES = tuple(o.replace("_", " ") for o in engine.labels("trump", "hands", "outcome"))
# Han besides the yaku, as the `hands` table counts them.
BONUS_HAN = (("dora", "dora"), ("ura", "ura-dora"), ("jokers", "Jokers"))
STYLE = """
.t.card{min-width:1.9em;background:#fff} .t.card.black{color:#111} .t.card.redsuit{color:#c0142b}
.t.card.joker{color:#7a2bb0;font-size:.8em} .t.card.riichi{transform:none;outline:2px solid #c0142b}
.t.card.win{outline:2px solid #17803a}
"""


def card_name(c: int) -> str:
    """A card as printed on it: ``7♥``, ``A♠``, ``10♣``; ``Joker`` for ids 52 and 53."""
    if c >= FIRST_JOKER:
        return "Joker"
    return f"{RANKS[c // 4]}{SUITS[c % 4]}"


def card_html(c: int) -> str:
    """One card as a small box (CSS only, no font needed); the page's script marks a riichi
    discard or the winning card (``riichi``, ``win``)."""
    if c >= FIRST_JOKER:
        text, colour = "JKR", "joker"
    else:
        text, colour = card_name(c), "redsuit" if c % 4 in (1, 2) else "black"
    return f'<span class="t card {colour}" title="{esc(card_name(c))}">{esc(text)}</span>'


class _Game(GamePage):
    def __init__(self, shown: Shown) -> None:
        super().__init__(shown)
        rules = shown.rules
        self.start = int(rules["starting_points"])
        self.cost = int(rules["riichi_cost"])
        self.first = int(self.t["games"]["first_dealer"][0])

    def seat(self, s: int) -> str:
        return f"seat {s} ({esc(self.strategies[s])})"

    def breakdown(self, won: list[dict[str, Any]], tables: dict[str, dict[Any, list[dict[str, Any]]]]) -> str:
        """Each win: its yaku with their han, dora, ura-dora and Jokers, the points and who paid."""
        items = []
        for c in won:
            w = c["winner"]
            mine = tables["win_yaku"].get((c["hand"], w), [])
            han = [f"{YAKU[y['yaku']].replace('_', ' ')} {y['han']}" for y in mine]
            han += [f"{label} {c[k]}" for k, label in BONUS_HAN if c[k]]
            payers = tables["payments"].get((c["hand"], w), [])
            paid = ", ".join(f"seat {p['payer']} pays {p['points']}" for p in payers)
            how = "tsumo" if c["outcome"] == OUTCOME["tsumo"] else f"ron from seat {c['discarder']}"
            sticks = f"; takes {c['sticks']} in riichi sticks" if c["sticks"] else ""
            dealer = f" (dealer: × {self.shown.rules['dealer_multiplier']})" if w == c["dealer"] else ""
            items.append(
                f"<li>{self.seat(w)} wins by {how}: {esc(', '.join(han))} = {c['han']} han, "
                f"{c['points']} points{dealer}; {paid}{sticks}</li>"
            )
        return f"<ul>{''.join(items)}</ul>"

    def ending(
        self, h: dict[str, Any], won: list[dict[str, Any]], tables: dict[str, dict[Any, list[dict[str, Any]]]]
    ) -> str:
        """What a hand's last frame says under its board, before each seat's point change."""
        draw = ""
        if h["outcome"] == OUTCOME["exhaustive_draw"]:
            draw = f"<p>the dealer is {'tenpai' if h['dealer_tenpai'] else 'not tenpai'}</p>"
        keeps = "the dealer " + ("keeps" if h["dealer_keeps"] else "passes") + " the deal"
        if h["outcome"] == OUTCOME["chombo"]:
            penalty = self.shown.rules["chombo_penalty"]
            draw = (f"<p>{self.seat(h['offender'])} declared a false tsumo and pays {penalty} to each "
                    "opponent; the riichi sticks of this hand return to their players</p>")  # fmt: skip
            keeps = "the hand is void and the same dealer deals it again"
        return (
            f"<p>{OUTCOMES[int(h['outcome'])]}; {keeps}; riichi sticks left on the "
            f"table: {h['pool']}</p>{draw}" + self.breakdown(won, tables)
        )

    def page(self) -> Page:
        # A hand's events as the script reads them: kind × 4 + seat (3 for the table: dora,
        # ura-dora, a Joker out of play) and the card.
        events = packed(
            self.t["events"], "hand", [pl.col("kind") * 4 + pl.min_horizontal("seat", 3), pl.col("card")]
        )
        tables = {name: rows_by(self.t[name], "hand", "winner") for name in ("win_yaku", "payments")}
        points = [self.start] * self.n
        parts: list[list[object]] = []
        rows = []
        for hand, claims in rows_by(self.t["hands"].sort("hand", "claim"), "hand").items():
            h = claims[0]
            won = [c for c in claims if c["winner"] >= 0]
            dealer = h["dealer"]
            name = f"{ROUNDS[h['round']]} {(dealer - self.first) % self.n + 1}"
            if h["repeat"]:
                name += f", replay {h['repeat']}"
            title = f"hand {hand + 1} ({name}, dealer seat {dealer})"
            deltas = [h[f"delta_{s}"] for s in range(self.n)]
            after = [p + d for p, d in zip(points, deltas, strict=True)]
            ending = self.ending(h, won, tables)
            parts.append([hand, title, dealer, deltas, h["pool"], h["outcome"], events.get(hand, ""), ending])
            points = after
            riichi = ", ".join(str(s) for s in range(self.n) if h[f"riichi_{s}"]) or "-"
            outcome = OUTCOMES[h["outcome"]] + (
                f" by seat {h['offender']}" if h["outcome"] == OUTCOME["chombo"] else ""
            )
            cells = (
                f'<td>{hand + 1}</td><td class="l">{name}</td><td>{dealer}</td>'
                f'<td class="l">{outcome}</td>'
                f"<td>{', '.join(str(c['winner']) for c in won) or '-'}</td>"
                f"<td>{', '.join(str(c['han']) for c in won)}</td>"
                f"<td>{', '.join(str(c['points']) for c in won)}</td><td>{riichi}</td>"
            )
            rows.append(part_row("hand", f"hand-{hand + 1}", cells + running_cells(deltas, after)))
        data = {
            "faces": [face(card_html(c)) for c in range(CARDS)],
            "names": [card_name(c) for c in range(CARDS)],
            "strategies": self.strategies,
            "start": [self.start] * self.n,
            "cost": self.cost,
            "outcomes": OUTCOMES,
            # The `events.kind` codes as the engine declares them, which the script reads.
            "kinds": engine.codes("trump", "events", "kind"),
            "hands": parts,
        }
        return Page(self.shown.title("Trump mahjong"), self.overview(rows), data, _SCRIPT, STYLE)

    def overview(self, rows: list[str]) -> str:
        g = self.t["games"].row(0, named=True)
        final = [
            (self.seat(p["seat"]), p["final_points"], f"<td>{p['points']}</td><td>{p['rank']}</td>")
            for p in self.t["players"].sort("seat").iter_rows(named=True)
        ]
        end = "the last deal"
        if g["bust"] or g["stopped"]:
            end = "a player reached 0 points" if g["bust"] else "the safety stop"
        head = (
            '<tr><th>#</th><th class="l">round</th><th>dealer</th><th class="l">outcome</th><th>winners</th>'
            f"<th>han</th><th>points</th><th>riichi</th>{running_heads(self.n)}</tr>"
        )
        return (
            final_standings("<th>points before settlement</th><th>rank</th>", final)
            + f"<p>the game ended after {g['hands']} hands ({end}); riichi sticks left on the table: "
            f"{g['sticks_left']}; final points are settled against {self.shown.rules['return_points']}.</p>"
            + f"<h2>Hands ({len(rows)})</h2><table>{head}{''.join(rows)}</table>"
        )


# The board of each frame, rebuilt from a hand's events (see `simharness.show.page`): the dora
# (and ura-dora) indicators, the Jokers out of play and the riichi sticks on the table, each
# seat's points, hand (sorted, the winning card marked), Jokers set aside and discards (the riichi
# one marked); the deal is one frame, then one per discard, riichi or win.
_SCRIPT = """
const S=D.strategies, F=D.faces, N=D.names, H=D.hands, n=S.length;
const {dealt:DEALT,dora:DORA,joker_out:JOKER_OUT,draw:DRAW,set_aside:SET_ASIDE,replacement:REPLACEMENT,
  discard:DISCARD,riichi:RIICHI,riichi_void:RIICHI_VOID,tsumo:TSUMO,ron:RON,ura:URA,chombo:CHOMBO}=D.kinds;
const MOVES=new Set([DISCARD,RIICHI,TSUMO,RON,CHOMBO]), WINS=new Set([TSUMO,RON,CHOMBO]);
const before=[], after=[], pools=[0];
let points=D.start;
for(const h of H){
  before.push(points);
  points=points.map((p,s)=>p+h[3][s]);
  after.push(points);
  pools.push(h[4]);
}
const cards=(cs,mark)=>cs.map(c=>K.tile(F[c],mark?mark(c):'')).join('');
const seat=s=>'seat '+s+' ('+K.esc(S[s])+')';
function board(st,dealer,actor,win){
  const rows=S.map((strategy,s)=>'<tr'+(s===actor?' class=actor':'')+'><td class="l">seat '+s
    +(s===dealer?' (dealer)':'')+' '+K.esc(strategy)+(st.riichi[s]?' <b>riichi</b>':'')+'</td>'
    +'<td>'+st.points[s]+'</td><td class="l">'+cards(st.hands[s].slice().sort((a,b)=>a-b),c=>c===win?'win':'')
    +'</td><td class="l">'+cards(st.aside[s])+'</td><td class="l">'
    +st.rivers[s].map(([c,r])=>K.tile(F[c],r?'riichi':'')).join('')+'</td></tr>');
  const ura=st.ura.length?' &nbsp; ura-dora indicator: '+cards(st.ura):'';
  const out=st.out.length?' &nbsp; Jokers out of play: '+cards(st.out):'';
  return '<p>dora indicator: '+(cards(st.dora)||'none')+ura+out+' &nbsp; riichi sticks on the table: '+st.pool
    +'</p><table><tr><th class="l">seat</th><th>points</th><th class="l">hand</th>'
    +'<th class="l">Jokers set aside</th><th class="l">discards</th></tr>'+rows.join('')+'</table>';
}
function apply(st,s,kind,c){
  const name=N[c], who='seat '+s+' ';
  if(kind===DEALT)st.hands[s].push(c);
  else if(kind===DORA||kind===URA||kind===JOKER_OUT){
    ({[DORA]:st.dora,[URA]:st.ura,[JOKER_OUT]:st.out})[kind].push(c);
    if(kind===URA)return 'ura-dora indicator '+name;
  }
  else if(kind===DRAW||kind===REPLACEMENT){
    st.hands[s].push(c);
    return who+'draws '+name+(kind===REPLACEMENT?' from the dead wall':'');
  }
  else if(kind===SET_ASIDE){K.remove(st.hands[s],c);st.aside[s].push(c);return who+'sets a Joker aside';}
  else if(kind===DISCARD||kind===RIICHI){
    K.remove(st.hands[s],c);
    st.rivers[s].push([c,kind===RIICHI]);
    if(kind===DISCARD)return who+'discards '+name;
    st.riichi[s]=true;st.points[s]-=D.cost;st.pool+=D.cost;
    return who+'declares riichi, discarding '+name;
  }
  else if(kind===RIICHI_VOID){
    st.riichi[s]=false;st.points[s]+=D.cost;st.pool-=D.cost;
    return 'the riichi of seat '+s+' never stood: its stick returns';
  }
  else if(kind===TSUMO)return who+'declares tsumo on '+name;
  else if(kind===CHOMBO)return who+'declares tsumo on '+name+', but the hand is not complete: chombo';
  else if(kind===RON){st.hands[s].push(c);return who+'declares ron on '+name;}
  return '';
}
return {
  parts:H.length,
  name:i=>'hand-'+(H[i][0]+1),
  walk(i,emit){
    const [,title,dealer,,pool,outcome,packed,ending]=H[i];
    const st={hands:S.map(()=>[]),rivers:S.map(()=>[]),aside:S.map(()=>[]),riichi:S.map(()=>false),
      points:before[i].slice(),pool:pools[i],dora:[],ura:[],out:[]};
    const v=K.ints(packed);
    let said=[], dealt=false, win=null;
    for(let j=0;j<v.length;j+=2){
      const kind=v[j]>>2, s=v[j]&3, c=v[j+1];
      if(kind===DRAW&&!dealt){
        const deal=title+': the deal'+(said.length?'; ':'')+said.join('; ');
        if(emit(deal,()=>board(st,dealer,null,null)))return;
        said=[];dealt=true;
      }
      said.push(apply(st,s,kind,c));
      said=said.filter(x=>x);
      if(MOVES.has(kind)){
        win=WINS.has(kind)?c:null;
        if(emit(title+': '+said.join(', '),()=>board(st,dealer,s,win)))return;
        said=[];
      }
    }
    st.points=after[i];st.pool=pool;
    emit(title+' ends: '+[D.outcomes[outcome],...said].join(', '),
      ()=>board(st,dealer,null,win)+ending+K.changeTable(S.map((_,s)=>seat(s)),before[i],after[i]));
  },
};
"""


def page(shown: Shown) -> Page:
    """The page of a replayed Trump mahjong game (the contract of ``simharness.show``)."""
    return _Game(shown).page()
