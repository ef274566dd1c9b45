"""The page ``show`` writes: one self-contained HTML file (no network), the game's overview and a
stepper through its frames (← → keys, Home/End, and the buttons).

A frame is not written as HTML. A long Hong Kong game has hundreds of thousands of frames, and each
board repeats the whole table, so a page of boards grew by kilobytes per move (a 2,412-hand game:
906 MB). The page holds the game once instead, as data: each hand's (or turn's) events packed a
character per value (:func:`packed`), with what a hand shows at its end. The game's script
(``Page.script``) rebuilds the board of the frame shown by replaying the events of its hand from
the start of that hand, so a page grows by a few bytes per event and the browser keeps one board.
``#all`` at the end of the address draws every frame at once (the way a test reads them).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

if TYPE_CHECKING:
    from simharness.show.replay import Shown

# The characters a packed value is written as: printable ASCII but for '<' (so that the data can
# never close its <script> element) and '\' (JSON would double it).
ALPHABET = "".join(chr(c) for c in range(35, 127) if chr(c) not in "<\\")
BASE = len(ALPHABET)
_CODES = np.frombuffer(ALPHABET.encode("ascii"), dtype=np.uint8)


@dataclass
class Page:
    """What a game's ``show.page(shown)`` returns: a title, the overview (every hand or turn in
    order, as HTML), the data its frames are drawn from (JSON-able, read by ``script`` as ``D``),
    and ``script``, the body of a JavaScript function of ``D`` and the page's kit ``K`` (see
    ``_SCRIPT``) that returns ``{parts, name(i), walk(i, emit)}``: the number of parts (hands,
    turns), the name of part ``i`` (the ``data-part`` of its overview row) and a replay of part
    ``i`` that calls ``emit(caption, board)`` once per frame, in order, where ``board()`` draws the
    frame's board as HTML (only the frame shown is drawn) and a true return stops the replay.
    ``style`` is the game's own CSS."""

    title: str
    overview: str
    data: dict[str, Any]
    script: str
    style: str = ""


class GamePage:
    """What every game's page builder starts from: the shown game, its tables, its seats and the
    strategy of each seat."""

    def __init__(self, shown: Shown) -> None:
        self.shown = shown
        self.t = shown.tables
        self.n = shown.seats
        self.strategies = shown.strategies()


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def packed(events: pl.DataFrame, key: str, values: list[pl.Expr]) -> dict[Any, str]:
    """The events of each ``key`` (a hand), in ``seq`` order, as one string that ``K.ints`` reads
    back: per event each of ``values`` (0 to ``BASE - 1``; a null is left out, for what only some
    kinds of event carry) as one character. The integer columns are Int32 in ``values``. The
    characters are made in numpy, a byte per value: a game of two million events costs tens of
    megabytes here, not hundreds."""
    ints = events.lazy().cast({c: pl.Int32 for c, t in events.schema.items() if t.is_integer()})
    cols = (
        ints.sort(key, "seq").select(pl.col(key), *(v.alias(f"v{i}") for i, v in enumerate(values))).collect()
    )
    if cols.height == 0:
        return {}
    lows, highs = cols.select(pl.exclude(key).min()).row(0), cols.select(pl.exclude(key).max()).row(0)
    for value, lo, hi in zip(values, lows, highs, strict=True):
        if lo is not None and not 0 <= lo <= hi < BASE:
            raise ValueError(f"cannot pack {value}: it runs from {lo} to {hi}, not 0 to {BASE - 1}")
    vals = cols.select(pl.exclude(key).fill_null(-1)).to_numpy()
    kept = vals >= 0
    text = _CODES[vals[kept]].tobytes().decode("ascii")
    ends = np.cumsum(kept.sum(axis=1))  # the end of each event's characters in `text`
    keys = cols[key].to_numpy()
    firsts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])  # each key's first event
    lasts = np.r_[firsts[1:], len(keys)] - 1
    return {
        keys[a].item(): text[(ends[a - 1] if a else 0) : ends[b]] for a, b in zip(firsts, lasts, strict=True)
    }


def rows_by(frame: pl.DataFrame, *keys: str) -> dict[Any, list[dict[str, Any]]]:
    """The rows of ``frame`` in order, as dicts, by the value of ``keys`` (a tuple for several):
    one pass over a table, where filtering it once per hand would cost a pass per hand."""
    out: dict[Any, list[dict[str, Any]]] = {}
    for row in frame.iter_rows(named=True):
        k = tuple(row[c] for c in keys) if len(keys) > 1 else row[keys[0]]
        out.setdefault(k, []).append(row)
    return out


def face(tile_html: str) -> list[str]:
    """A tile's HTML (:func:`tile`) cut where its class list ends, so that the script can add a
    mark to it (``K.tile(face, 'called')``) without knowing how a tile is drawn."""
    head, tail = tile_html.split('" ', 1)
    return [head, tail]


def part_row(kind: str, part: str, cells: str) -> str:
    """A row of the overview that lists one hand or turn (``kind``); a click steps to ``part``."""
    return f'<tr class="part {kind}" data-part="{esc(part)}">{cells}</tr>'


def running_heads(seats: int) -> str:
    """Header cells of each seat's point change and running total."""
    return "".join(f"<th>&Delta; {s}</th>" for s in range(seats)) + "".join(
        f"<th>total {s}</th>" for s in range(seats)
    )


def running_cells(deltas: list[int], totals: list[int]) -> str:
    return "".join(f"<td>{d:+d}</td>" for d in deltas) + "".join(f"<td>{t}</td>" for t in totals)


def final_standings(heads: str, rows: list[tuple[str, int, str]]) -> str:
    """The final standings: per seat a label (HTML), the final points (the cell tests read) and
    more cells; ``heads`` are the header cells after the first two."""
    body = "".join(
        f'<tr><td class="l">{label}</td><td class="points">{points}</td>{more}</tr>'
        for label, points, more in rows
    )
    return (
        '<h2>Final standings</h2><table><tr><th class="l">seat</th><th>final points</th>'
        f"{heads}</tr>{body}</table>"
    )


def tile(face: str, suit: str, title: str, *classes: str) -> str:
    """A tile drawn as a small box in CSS (its face and a suit letter, coloured by ``suit``: m, p,
    s, z for honors, f for flowers, x for a special tile), so that the page needs no mahjong font;
    ``title`` names it on hover; ``classes`` add marks (``red``, ``called``, ``riichi``, ``down``)."""
    cls = " ".join(c for c in ("t", suit, *classes) if c)
    sub = f"<small>{suit}</small>" if suit in ("m", "p", "s") else ""
    return f'<span class="{cls}" title="{esc(title)}">{esc(face)}{sub}</span>'


_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:72em}
h1{font-size:1.3em} h2{font-size:1.1em;margin-top:1.5em}
table{border-collapse:collapse;font-size:.9em}
td,th{border:1px solid #ccc;padding:.15em .45em;text-align:right}
th{background:#f3f3f3} td.l,th.l{text-align:left}
.prov{color:#666;font-size:.85em}
#bar{position:sticky;top:0;background:#fff;padding:.4em 0;border-bottom:1px solid #ddd}
#bar button{font-size:1em;margin-right:.3em}
.frame{display:none} .frame.on{display:block}
.caption{font-weight:600;margin:.6em 0}
tr.part{cursor:pointer} tr.part:hover{background:#eef} tr.actor td{background:#fffbe0}
.t{display:inline-block;min-width:1.35em;height:1.8em;line-height:1.8em;margin:1px;
 border:1px solid #999;border-radius:3px;background:#fdfcf5;text-align:center;font-weight:600;
 font-family:monospace;font-size:1.05em}
.t small{font-size:.6em} .t.m{color:#222} .t.p{color:#1f4fb0} .t.s{color:#17803a}
.t.z{color:#000} .t.f{color:#a05a00} .t.x{color:#7a2bb0}
.t.red{background:#ffd9d9;color:#c00} .t.called{opacity:.35} .t.riichi{transform:rotate(90deg);margin:0 .3em}
.t.down{background:#9aa7b5;color:#9aa7b5}
"""

# The stepper. `K` is what every game's script may use: `ints` (a packed string's values), `tile`
# (a face with a mark), `esc`, `signed` (+3, -2, +0) and `changeTable` (each seat's points before
# a hand, the change and after; labels are HTML). `first[p]` is the index of part p's first frame;
# frame k is drawn by replaying its part up to it.
_SCRIPT = """
window.addEventListener('error',()=>{
  const n=Number(document.body.getAttribute('data-js-errors')||'0');
  document.body.setAttribute('data-js-errors',String(n+1));
});
(function(){
  const D=JSON.parse(document.getElementById('show-data').textContent);
  const A=__ALPHABET__, V=new Int16Array(128).fill(-1);
  for(let k=0;k<A.length;k++)V[A.charCodeAt(k)]=k;
  const ESC={'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#x27;'};
  const esc=s=>String(s).replace(/[&<>"']/g,c=>ESC[c]);
  const signed=x=>(x<0?'':'+')+x;
  const K={
    ints:s=>Array.from(s,c=>V[c.charCodeAt(0)]),
    tile:(f,mark)=>f[0]+(mark?' '+mark:'')+'" '+f[1],
    esc:esc,
    signed:signed,
    remove:(list,x)=>{
      const k=list.indexOf(x);
      if(k<0)throw new Error('the page replays an event on a tile that is not there: '+x);
      list.splice(k,1);
    },
    changeTable:(labels,before,after)=>'<table class="deltas"><tr><th class="l">seat</th><th>before</th>'
      +'<th>change</th><th>after</th></tr>'+labels.map((l,s)=>'<tr><td class="l">'+l+'</td><td>'+before[s]
      +'</td><td>'+signed(after[s]-before[s])+'</td><td>'+after[s]+'</td></tr>').join('')+'</table>',
  };
  const G=(function(D,K){
__GAME__
  })(D,K);
  const n=G.parts, first=[0], byName=new Map();
  for(let p=0;p<n;p++){
    let c=0;
    G.walk(p,()=>{c++;return false;});
    first.push(first[p]+c);
    byName.set(G.name(p),p);
  }
  const total=first[n];
  document.body.dataset.frames=total;
  function draw(k){
    let lo=0,hi=n-1;
    while(lo<hi){const m=(lo+hi+1)>>1;if(first[m]<=k)lo=m;else hi=m-1;}
    let j=k-first[lo],out=null;
    G.walk(lo,(c,b)=>{if(j--===0){out=[c,b()];return true;}return false;});
    return [G.name(lo),out[0],out[1]];
  }
  const frame=document.getElementById('frame'), pos=document.getElementById('pos');
  let i=0;
  function show(k){
    i=Math.max(0,Math.min(total-1,k));
    const [part,caption,board]=draw(i);
    frame.dataset.part=part;
    frame.querySelector('.caption').textContent=caption;
    frame.querySelector('.view').innerHTML=board;
    pos.textContent=(i+1)+' / '+total;
    document.body.dataset.frame=i;
  }
  function jump(part){
    const p=byName.get(part);
    if(p===undefined||first[p+1]===first[p])return false;
    show(first[p]);
    return true;
  }
  document.addEventListener('keydown',e=>{
    if(e.key==='ArrowRight'){show(i+1);e.preventDefault();}
    else if(e.key==='ArrowLeft'){show(i-1);e.preventDefault();}
    else if(e.key==='Home'){show(0);}
    else if(e.key==='End'){show(total-1);}
  });
  document.getElementById('prev').onclick=()=>show(i-1);
  document.getElementById('next').onclick=()=>show(i+1);
  document.addEventListener('click',e=>{
    const r=e.target.closest('tr.part');
    if(r&&jump(r.dataset.part))document.getElementById('bar').scrollIntoView();
  });
  // #12 opens frame 12 (1-based), #hand-3 (any part name) the first frame of that part.
  // How far the page is wider than the window (0: nothing to scroll sideways), for the tests.
  const overflow=()=>document.body.setAttribute('data-overflow',
    String(document.documentElement.scrollWidth-document.documentElement.clientWidth));
  const h=decodeURIComponent(location.hash.slice(1));
  if(h==='all'){
    // Every frame at once, as sections in order (for printing, and for the tests to read).
    const all=[];
    for(let p=0;p<n;p++)G.walk(p,(c,b)=>{
      all.push('<section class="frame on" data-part="'+esc(G.name(p))+'"><div class="caption">'+esc(c)
        +'</div><div class="view">'+b()+'</div></section>');
      return false;
    });
    frame.outerHTML=all.join('');
    overflow();
    return;
  }
  if(h==='selftest'){
    // For the headless-browser test: real key events step the page; what became visible is recorded.
    const seen=()=>document.body.dataset.frame+':'+frame.querySelector('.caption').textContent;
    const key=k=>document.dispatchEvent(new KeyboardEvent('keydown',{key:k,bubbles:true}));
    show(0);
    const steps=[seen()];
    key('ArrowRight');steps.push(seen());
    key('ArrowRight');steps.push(seen());
    key('ArrowLeft');steps.push(seen());
    key('End');steps.push(seen());
    document.body.setAttribute('data-steps',JSON.stringify(steps));
    overflow();
    return;
  }
  if(!jump(h))show((parseInt(h,10)||1)-1);
  if(h)document.getElementById('bar').scrollIntoView();
})();
"""


def tables_page(shown: Shown) -> Page:
    """The page of a game whose package draws none (a game with no ``show`` module, such as the
    tests' toy game): its rows, every table the engine returned, one frame of final standings."""
    parts = []
    for name, frame in shown.tables.items():
        heads = "".join(f"<th>{esc(c)}</th>" for c in frame.columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row) + "</tr>" for row in frame.iter_rows()
        )
        parts.append(f"<h2>{esc(name)}</h2><table><tr>{heads}</tr>{body}</table>")
    players = shown.tables["players"].sort("seat")
    rows = [
        (esc(f"seat {r['seat']} ({shown.strategy(r['seat'])})"), r["final_points"], f"<td>{r['rank']}</td>")
        for r in players.iter_rows(named=True)
    ]
    standings = final_standings("<th>rank</th>", rows)
    script = "return {parts:1,name:()=>'game',walk:(i,emit)=>{emit('the final standings',()=>D.standings);}};"
    return Page(shown.title(shown.manifest.game), "".join(parts), {"standings": standings}, script)


def _json(data: dict[str, Any]) -> str:
    """``data`` as JSON to sit in a <script> element: '</' and '<!' inside its strings are written
    as escapes, so that no string can end the element."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("</", "\\u003c/").replace("<!", "\\u003c!")


def render(shown: Shown, page: Page) -> str:
    """The whole HTML document of ``page``."""
    script = _SCRIPT.replace("__ALPHABET__", json.dumps(ALPHABET)).replace("__GAME__", page.script)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(page.title)}</title>
<style>{_STYLE}{page.style}</style></head>
<body>
<h1>{esc(page.title)}</h1>
<p class="prov">{esc(shown.provenance())}; the replayed rows equal the run's (players, games, hands).</p>
{page.overview}
<h2>Step through the game</h2>
<div id="bar"><button id="prev">&larr;</button><button id="next">&rarr;</button>
<span id="pos"></span> &nbsp;<span class="prov">keys: &larr; &rarr; Home End; click a row above to jump;
the address may end in #N (frame N) or #part (e.g. #hand-3)</span></div>
<section class="frame on" id="frame"><div class="caption"></div><div class="view"></div></section>
<script type="application/json" id="show-data">{_json(page.data)}</script>
<script>{script}</script>
</body></html>
"""
