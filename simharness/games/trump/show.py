"""The page of one Trump mahjong game (``simharness show``), drawn from the engine's show tables
(``engine/src/games/trump/show.rs``): every hand rebuilt from its events (the seven cards dealt to
each seat, the dora indicator and the Jokers it put out of play, every draw, Joker set aside and
replacement, every discard and riichi), one frame per turn, and each win's yaku, han, points and
payments with the point changes, the riichi sticks and the running totals; a chombo (a false tsumo
injected by ``mistake_rate``) with its penalty, the sticks it returns and the replay it causes.

A card is drawn with its rank and a suit as on a playing card. The rules ignore suits (spec A1);
the suit shown is the card's copy (id mod 4: ♠ ♥ ♦ ♣), so the four copies of a rank look apart."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from simharness.games.trump.metrics import YAKU
from simharness.show.page import (
    Frame,
    GamePage,
    Page,
    esc,
    final_standings,
    part_row,
    running_cells,
    running_heads,
)
from simharness.show.replay import Shown

(DEALT, DORA, JOKER_OUT, DRAW, SET_ASIDE, REPLACEMENT, DISCARD, RIICHI, RIICHI_VOID, TSUMO, RON,
 URA, CHOMBO) = range(13)  # fmt: skip
FIRST_JOKER = 52
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("♠", "♥", "♦", "♣")
ROUNDS = ("East", "South", "West")
OUTCOMES = ("exhaustive draw", "tsumo", "ron", "chombo")
VOID = 3  # `hands.outcome` of a hand voided by a chombo
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


def card_html(c: int, *marks: str) -> str:
    """One card as a small box (CSS only, no font needed); ``marks`` are ``riichi`` or ``win``."""
    if c >= FIRST_JOKER:
        face, colour = "JKR", "joker"
    else:
        face, colour = card_name(c), "redsuit" if c % 4 in (1, 2) else "black"
    cls = " ".join(("t", "card", colour, *marks))
    return f'<span class="{cls}" title="{esc(card_name(c))}">{esc(face)}</span>'


def cards_html(cards: list[int]) -> str:
    return "".join(card_html(c) for c in cards)


@dataclass
class HandState:
    """What lies on the table during one hand."""

    hands: list[list[int]]
    rivers: list[list[tuple[int, bool]]]
    aside: list[list[int]]
    riichi: list[bool]
    points: list[int]
    pool: int
    dora: list[int] = field(default_factory=list)
    ura: list[int] = field(default_factory=list)
    out: list[int] = field(default_factory=list)


class _Game(GamePage):
    def __init__(self, shown: Shown) -> None:
        super().__init__(shown)
        rules = shown.rules
        self.start = int(rules["starting_points"])
        self.cost = int(rules["riichi_cost"])
        self.first = int(self.t["games"]["first_dealer"][0])

    def seat(self, s: int) -> str:
        return f"seat {s} ({esc(self.strategies[s])})"

    def board(self, st: HandState, dealer: int, actor: int | None, win: int | None = None) -> str:
        rows = []
        for s in range(self.n):
            hand = "".join(card_html(c, "win" if c == win else "") for c in sorted(st.hands[s]))
            river = "".join(card_html(c, "riichi" if r else "") for c, r in st.rivers[s])
            riichi = " <b>riichi</b>" if st.riichi[s] else ""
            rows.append(
                f'<tr{" class=actor" if s == actor else ""}><td class="l">seat {s}'
                f"{' (dealer)' if s == dealer else ''} {esc(self.strategies[s])}{riichi}</td>"
                f'<td>{st.points[s]}</td><td class="l">{hand}</td>'
                f'<td class="l">{cards_html(st.aside[s])}</td><td class="l">{river}</td></tr>'
            )
        ura = f" &nbsp; ura-dora indicator: {cards_html(st.ura)}" if st.ura else ""
        out = f" &nbsp; Jokers out of play: {cards_html(st.out)}" if st.out else ""
        return (
            f"<p>dora indicator: {cards_html(st.dora) or 'none'}{ura}{out} &nbsp; "
            f"riichi sticks on the table: {st.pool}</p>"
            '<table><tr><th class="l">seat</th><th>points</th><th class="l">hand</th>'
            f'<th class="l">Jokers set aside</th><th class="l">discards</th></tr>{"".join(rows)}</table>'
        )

    def apply(self, st: HandState, seat: int, kind: int, c: int) -> str:
        """Puts one event on the table; returns what it says (empty for the deal)."""
        name = card_name(c)
        if kind == DEALT:
            st.hands[seat].append(c)
        elif kind in (DORA, URA, JOKER_OUT):
            {DORA: st.dora, URA: st.ura, JOKER_OUT: st.out}[kind].append(c)
            if kind == URA:
                return f"ura-dora indicator {name}"
        elif kind in (DRAW, REPLACEMENT):
            st.hands[seat].append(c)
            return f"seat {seat} draws {name}" + (" from the dead wall" if kind == REPLACEMENT else "")
        elif kind == SET_ASIDE:
            st.hands[seat].remove(c)
            st.aside[seat].append(c)
            return f"seat {seat} sets a Joker aside"
        elif kind in (DISCARD, RIICHI):
            st.hands[seat].remove(c)
            st.rivers[seat].append((c, kind == RIICHI))
            if kind == DISCARD:
                return f"seat {seat} discards {name}"
            st.riichi[seat] = True
            st.points[seat] -= self.cost
            st.pool += self.cost
            return f"seat {seat} declares riichi, discarding {name}"
        elif kind == RIICHI_VOID:
            st.riichi[seat] = False
            st.points[seat] += self.cost
            st.pool -= self.cost
            return f"the riichi of seat {seat} never stood: its stick returns"
        elif kind == TSUMO:
            return f"seat {seat} declares tsumo on {name}"
        elif kind == CHOMBO:
            return f"seat {seat} declares tsumo on {name}, but the hand is not complete: chombo"
        elif kind == RON:
            st.hands[seat].append(c)
            return f"seat {seat} declares ron on {name}"
        return ""

    def breakdown(self, hand: int, claims: pl.DataFrame) -> str:
        """Each win: its yaku with their han, dora, ura-dora and Jokers, the points and who paid."""
        yaku = self.t["win_yaku"].filter(pl.col("hand") == hand)
        pay = self.t["payments"].filter(pl.col("hand") == hand)
        items = []
        for c in claims.filter(pl.col("winner") >= 0).iter_rows(named=True):
            w = c["winner"]
            mine = yaku.filter(pl.col("winner") == w).select("yaku", "han").iter_rows()
            han = [f"{YAKU[y].replace('_', ' ')} {h}" for y, h in mine]
            han += [f"{label} {c[k]}" for k, label in BONUS_HAN if c[k]]
            payers = pay.filter(pl.col("winner") == w).select("payer", "points").iter_rows()
            paid = ", ".join(f"seat {p} pays {x}" for p, x in payers)
            how = "tsumo" if c["outcome"] == 1 else f"ron from seat {c['discarder']}"
            sticks = f"; takes {c['sticks']} in riichi sticks" if c["sticks"] else ""
            dealer = f" (dealer: × {self.shown.rules['dealer_multiplier']})" if w == c["dealer"] else ""
            items.append(
                f"<li>{self.seat(w)} wins by {how}: {esc(', '.join(han))} = {c['han']} han, "
                f"{c['points']} points{dealer}; {paid}{sticks}</li>"
            )
        return f"<ul>{''.join(items)}</ul>"

    def ending(self, h: dict[str, object], claims: pl.DataFrame, before: list[int], after: list[int]) -> str:
        deltas = "".join(
            f'<tr><td class="l">{self.seat(s)}</td><td>{before[s]}</td><td>{after[s] - before[s]:+d}</td>'
            f"<td>{after[s]}</td></tr>"
            for s in range(self.n)
        )
        draw = ""
        if h["outcome"] == 0:
            draw = f"<p>the dealer is {'tenpai' if h['dealer_tenpai'] else 'not tenpai'}</p>"
        keeps = "the dealer " + ("keeps" if h["dealer_keeps"] else "passes") + " the deal"
        if h["outcome"] == VOID:
            penalty = self.shown.rules["chombo_penalty"]
            draw = (f"<p>{self.seat(h['offender'])} declared a false tsumo and pays {penalty} to each "
                    "opponent; the riichi sticks of this hand return to their players</p>")  # fmt: skip
            keeps = "the hand is void and the same dealer deals it again"
        return (
            f"<p>{OUTCOMES[int(h['outcome'])]}; {keeps}; riichi sticks left on the "
            f"table: {h['pool']}</p>{draw}{self.breakdown(int(h['hand']), claims)}"
            '<table><tr><th class="l">seat</th><th>before</th><th>change</th>'
            f"<th>after</th></tr>{deltas}</table>"
        )

    def page(self) -> Page:
        hands = self.t["hands"].sort("hand", "claim")
        events = self.t["events"].sort("seq")
        points = [self.start] * self.n
        pool = 0
        frames: list[Frame] = []
        rows = []
        for (hand,), claims in hands.group_by("hand", maintain_order=True):
            h = claims.row(0, named=True)
            dealer = h["dealer"]
            part = f"hand-{hand}"
            name = f"{ROUNDS[h['round']]} {(dealer - self.first) % self.n + 1}"
            if h["repeat"]:
                name += f", replay {h['repeat']}"
            title = f"hand {hand + 1} ({name}, dealer seat {dealer})"
            before = list(points)
            after = [points[s] + h[f"delta_{s}"] for s in range(self.n)]
            st = HandState([[] for _ in range(self.n)], [[] for _ in range(self.n)],
                           [[] for _ in range(self.n)], [False] * self.n, list(before), pool)  # fmt: skip
            said: list[str] = []
            dealt = False
            win = None
            for seat, kind, c in (
                events.filter(pl.col("hand") == hand).select("seat", "kind", "card").iter_rows()
            ):
                if kind == DRAW and not dealt:
                    frames.append(Frame(f"{title}: the deal{'; ' if said else ''}{'; '.join(said)}",
                                        self.board(st, dealer, None), part))  # fmt: skip
                    said, dealt = [], True
                said.append(self.apply(st, seat, kind, c))
                said = [s for s in said if s]
                if kind in (DISCARD, RIICHI, TSUMO, RON, CHOMBO):
                    win = c if kind in (TSUMO, RON, CHOMBO) else None
                    frames.append(
                        Frame(f"{title}: {', '.join(said)}", self.board(st, dealer, seat, win), part)
                    )
                    said = []
            st.points, st.pool = after, h["pool"]
            frames.append(
                Frame(
                    f"{title} ends: {', '.join([OUTCOMES[h['outcome']], *said])}",
                    self.board(st, dealer, None, win) + self.ending(h, claims, before, after),
                    part,
                )
            )
            points, pool = after, h["pool"]
            winners = claims.filter(pl.col("winner") >= 0)
            riichi = ", ".join(str(s) for s in range(self.n) if h[f"riichi_{s}"]) or "-"
            outcome = OUTCOMES[h["outcome"]] + (f" by seat {h['offender']}" if h["outcome"] == VOID else "")
            cells = (
                f'<td>{hand + 1}</td><td class="l">{name}</td><td>{dealer}</td>'
                f'<td class="l">{outcome}</td>'
                f"<td>{', '.join(map(str, winners['winner'].to_list())) or '-'}</td>"
                f"<td>{', '.join(map(str, winners['han'].to_list()))}</td>"
                f"<td>{', '.join(map(str, winners['points'].to_list()))}</td><td>{riichi}</td>"
            )
            deltas = [after[s] - before[s] for s in range(self.n)]
            rows.append(part_row("hand", part, cells + running_cells(deltas, after)))
        return Page(self.shown.title("Trump mahjong"), self.overview(rows), frames, STYLE)

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


def page(shown: Shown) -> Page:
    """The page of a replayed Trump mahjong game (the contract of ``simharness.show``)."""
    return _Game(shown).page()
