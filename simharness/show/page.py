"""The page ``show`` writes: one self-contained HTML file (no network), the game's overview and a
stepper through its frames (← → keys, Home/End, and the buttons)."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simharness.show.replay import Shown


@dataclass
class Frame:
    """One step of the game: a caption and the board as HTML. ``part`` names the hand or turn the
    frame belongs to, so the overview can jump to the first frame of each."""

    caption: str
    body: str
    part: str


@dataclass
class Page:
    """What a game's ``show.page(shown)`` returns: a title, the overview (every hand or turn in
    order, as HTML) and the frames; ``style`` is the game's own CSS."""

    title: str
    overview: str
    frames: list[Frame] = field(default_factory=list)
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


def change_table(labels: list[str], before: list[int], after: list[int]) -> str:
    """Each seat's points before a hand, their change and after; ``labels`` name the seats (text)."""
    cells = "".join(
        f'<tr><td class="l">{esc(label)}</td><td>{b}</td><td>{a - b:+d}</td><td>{a}</td></tr>'
        for label, b, a in zip(labels, before, after, strict=True)
    )
    return (
        '<table class="deltas"><tr><th class="l">seat</th><th>before</th><th>change</th>'
        f"<th>after</th></tr>{cells}</table>"
    )


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

_SCRIPT = """
window.addEventListener('error',()=>{
  const n=Number(document.body.getAttribute('data-js-errors')||'0');
  document.body.setAttribute('data-js-errors',String(n+1));
});
(function(){
  const frames=[...document.querySelectorAll('.frame')];
  const pos=document.getElementById('pos');
  let i=0;
  function show(k){
    i=Math.max(0,Math.min(frames.length-1,k));
    frames.forEach((f,j)=>f.classList.toggle('on',j===i));
    pos.textContent=(i+1)+' / '+frames.length;
    document.body.dataset.frame=i;
  }
  document.addEventListener('keydown',e=>{
    if(e.key==='ArrowRight'){show(i+1);e.preventDefault();}
    else if(e.key==='ArrowLeft'){show(i-1);e.preventDefault();}
    else if(e.key==='Home'){show(0);}
    else if(e.key==='End'){show(frames.length-1);}
  });
  document.getElementById('prev').onclick=()=>show(i-1);
  document.getElementById('next').onclick=()=>show(i+1);
  document.querySelectorAll('tr.part').forEach(r=>r.onclick=()=>{
    const k=frames.findIndex(f=>f.dataset.part===r.dataset.part);
    if(k>=0){show(k);document.getElementById('bar').scrollIntoView();}
  });
  // #12 opens frame 12 (1-based), #hand-3 (any part name) the first frame of that part.
  const h=decodeURIComponent(location.hash.slice(1));
  const byPart=frames.findIndex(f=>f.dataset.part===h);
  if(h==='selftest'){
    // For the headless-browser test: real key events step the page; what became visible is recorded.
    const seen=()=>frames.findIndex(f=>f.classList.contains('on'))+':'
      +document.querySelector('.frame.on .caption').textContent;
    const key=k=>document.dispatchEvent(new KeyboardEvent('keydown',{key:k,bubbles:true}));
    show(0);
    const steps=[seen()];
    key('ArrowRight');steps.push(seen());
    key('ArrowRight');steps.push(seen());
    key('ArrowLeft');steps.push(seen());
    key('End');steps.push(seen());
    document.body.setAttribute('data-steps',JSON.stringify(steps));
    return;
  }
  show(byPart>=0?byPart:(parseInt(h,10)||1)-1);
})();
"""


def render(shown: Shown, page: Page) -> str:
    """The whole HTML document of ``page``."""
    frames = "\n".join(
        f'<section class="frame" data-part="{esc(f.part)}">'
        f'<div class="caption">{esc(f.caption)}</div>{f.body}</section>'
        for f in page.frames
    )
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
{frames}
<script>{_SCRIPT}</script>
</body></html>
"""
