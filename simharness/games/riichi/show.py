"""The page of one Riichi game (``simharness show``), drawn from the engine's show tables
(``engine/src/games/riichi/show.rs``): every hand rebuilt from its events (dealt tiles, draws,
discards, calls with the tiles they took from the hand, kans, dora), one frame per event, and each
win's scoring breakdown with the point changes and running totals."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from simharness.games.riichi.scoring import yaku_names
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

WINDS = "ESWN"
OUTCOMES = (
    "tsumo", "ron", "exhaustive draw", "nagashi mangan", "kyuushu kyuuhai", "suucha riichi",
    "suufon renda", "suukaikan", "sanchahou", "chombo",
)  # fmt: skip
LIMITS = ("", "mangan", "haneman", "baiman", "sanbaiman", "kazoe yakuman", "yakuman")
RED_FIVES = {16, 52, 88}
FLOWER = 136

# Event kinds of the `events` table (engine/src/games/riichi/batch.rs).
DRAW, RINSHAN, DISCARD, RIICHI_DISCARD = 0, 1, 2, 3
CHI, PON, DAIMINKAN, ANKAN, KAKAN, TSUMO, RON, DORA = 4, 5, 6, 7, 8, 9, 10, 11
KYUUSHU, FOUL, NOTEN, OPEN_RIICHI, NUKI, DEALT, MELD_TILE, URA = 12, 13, 14, 15, 16, 17, 18, 19
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


def _sorted(tiles: list[int]) -> list[int]:
    return sorted(tiles, key=lambda t: (t // 4, t not in RED_FIVES, t))


@dataclass
class Seat:
    hand: list[int] = field(default_factory=list)
    river: list[int] = field(default_factory=list)
    called: set[int] = field(default_factory=set)
    riichi_tile: int | None = None
    melds: list[tuple[str, list[int]]] = field(default_factory=list)
    nuki: list[int] = field(default_factory=list)
    # The call this seat declared last (kind, called tile): the meld its MELD_TILE events build.
    call: tuple[int, int] | None = None
    building: bool = False


@dataclass
class HandState:
    seats: list[Seat]
    dora: list[int] = field(default_factory=list)
    ura: list[int] = field(default_factory=list)
    last_discard: tuple[int, int] | None = None


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

    def board(self, st: HandState, points: list[int], dealer: int, actor: int | None) -> str:
        rows = []
        for s, seat in enumerate(st.seats):
            melds = " ".join(
                f'<span class="meld" title="{k}">{tiles_html(ts)}</span>' for k, ts in seat.melds
            )
            marks = {t: "called" for t in seat.called}
            if seat.riichi_tile is not None:
                marks[seat.riichi_tile] = "riichi"
            flag = ' <b class="rb">riichi</b>' if seat.riichi_tile is not None else ""
            cls = ' class="actor"' if s == actor else ""
            rows.append(
                f'<tr{cls}><td class="l">{esc(self.seat_label(s, dealer))}{flag}</td><td>{points[s]}</td>'
                f'<td class="l hand">{tiles_html(_sorted(seat.hand))} {melds} {tiles_html(seat.nuki)}</td>'
                f'<td class="l river">{tiles_html(seat.river, marks)}</td></tr>'
            )
        return (
            f"<p>dora indicators: {tiles_html(st.dora)}"
            + (f" &nbsp; ura indicators: {tiles_html(st.ura)}" if st.ura else "")
            + '</p><table class="board"><tr><th class="l">seat</th>'
            '<th>points</th><th class="l">hand, melds</th><th class="l">discards</th></tr>'
            f"{''.join(rows)}</table>"
        )

    def apply(self, st: HandState, seat: int, kind: int, tile: int) -> str:
        """Applies one event; returns its caption ('' for the parts of a call and the deal)."""
        s = st.seats[seat] if seat < self.n else None
        name = tile_name(tile) if tile != 255 else ""
        if kind == DORA:
            st.dora.append(tile)
            return f"dora indicator {name}"
        if kind == URA:
            st.ura.append(tile)
            return ""
        assert s is not None, f"event kind {kind} without a seat"
        if kind == DEALT:
            s.hand.append(tile)
            return ""
        if kind in (DRAW, RINSHAN):
            s.hand.append(tile)
            return f"seat {seat} draws {name}" + (" (replacement)" if kind == RINSHAN else "")
        if kind in (DISCARD, RIICHI_DISCARD):
            s.hand.remove(tile)
            s.river.append(tile)
            st.last_discard = (seat, tile)
            if kind == RIICHI_DISCARD:
                s.riichi_tile = tile
                return f"seat {seat} declares riichi, discarding {name}"
            return f"seat {seat} discards {name}"
        if kind in (CHI, PON, DAIMINKAN, ANKAN):
            s.call, s.building = (kind, tile), False
            return ""
        if kind == MELD_TILE:
            s.hand.remove(tile)
            if not s.building:
                s.building = True
                call_kind, called = s.call if s.call is not None else (ANKAN, 255)
                taken = [] if call_kind == ANKAN else [called]
                if taken and st.last_discard is not None:
                    st.seats[st.last_discard[0]].called.add(called)
                s.melds.append((_CALLS[call_kind], taken))
            s.melds[-1][1].append(tile)
            return ""
        if kind == KAKAN:
            s.hand.remove(tile)
            for k, ts in s.melds:
                if k == "pon" and ts[0] // 4 == tile // 4:
                    ts.append(tile)
            return f"seat {seat} adds {name} to its pon (kakan)"
        if kind == NUKI:
            s.hand.remove(tile)
            s.nuki.append(tile)
            return f"seat {seat} extracts {name} (nuki)"
        return {
            TSUMO: f"seat {seat} declares tsumo",
            RON: f"seat {seat} declares ron on {name}",
            KYUUSHU: f"seat {seat} declares kyuushu kyuuhai",
            FOUL: f"seat {seat}'s foul is shown (chombo)",
            NOTEN: f"seat {seat} claims noten",
            OPEN_RIICHI: f"seat {seat} opens its riichi",
        }.get(kind, f"seat {seat}: event {kind}")

    def breakdown(self, hand: int) -> str:
        wins = self.t["wins"].filter(pl.col("hand") == hand)
        yaku = self.t["win_yaku"].filter(pl.col("hand") == hand)
        parts = []
        for w in wins.iter_rows(named=True):
            ys = yaku.filter(pl.col("seat") == w["seat"])
            items = [f"{self.names[y]} {h}" for y, h in zip(ys["yaku"], ys["han"], strict=True)]
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

    def result(self, h: dict[str, int], before: list[int], after: list[int]) -> str:
        labels = [self.seat_label(s, h["dealer"]) for s in range(self.n)]
        return (
            f"<p>{OUTCOMES[h['outcome']]}</p>{self.breakdown(h['hand'])}{change_table(labels, before, after)}"
        )

    def page(self) -> Page:
        hands = self.t["hands"].sort("hand")
        events = self.t["events"].sort("hand", "seq")
        points = [self.start] * self.n
        frames: list[Frame] = []
        rows = []
        for h in hands.iter_rows(named=True):
            part = f"hand-{h['hand']}"
            label = round_name(h["round"], h["honba"], self.n)
            before = list(points)
            after = [points[s] + h[f"delta_{s}"] for s in range(self.n)]
            st = HandState([Seat() for _ in range(self.n)])
            hand_events = events.filter(pl.col("hand") == h["hand"])
            drawn = ""  # a draw is told with the discard that follows it: one frame per turn
            for seat, kind, tile_id in hand_events.select("seat", "kind", "tile").iter_rows():
                caption = self.apply(st, seat, kind, tile_id)
                if kind in (DRAW, RINSHAN):
                    drawn = caption + ", "
                    continue
                if caption and (kind != DORA or (frames and frames[-1].part == part)):
                    title = f"hand {h['hand'] + 1} ({label}): {drawn}{caption}"
                    actor = seat if seat < self.n else None
                    frames.append(Frame(title, self.board(st, before, h["dealer"], actor), part))
                    drawn = ""
            if not frames or frames[-1].part != part:
                frames.append(
                    Frame(
                        f"hand {h['hand'] + 1} ({label}): dealt",
                        self.board(st, before, h["dealer"], None),
                        part,
                    )
                )
            ending = f"hand {h['hand'] + 1} ({label}) ends: {OUTCOMES[h['outcome']]}"
            frames.append(
                Frame(ending, self.board(st, after, h["dealer"], None) + self.result(h, before, after), part)
            )
            points = after
            winners = ", ".join(str(s) for s in range(self.n) if h["winners"] >> s & 1) or "-"
            value = f"{h['han']} han {h['fu']} fu {h['points']}" if h["winners"] else ""
            cells = (
                f'<td>{h["hand"] + 1}</td><td class="l">{label}</td><td>{h["dealer"]}</td>'
                f'<td class="l">{OUTCOMES[h["outcome"]]}</td><td>{winners}</td><td class="l">{value}</td>'
            )
            deltas = [h[f"delta_{s}"] for s in range(self.n)]
            rows.append(part_row("hand", part, cells + running_cells(deltas, after)))
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
        return Page(self.shown.title("Riichi"), overview, frames, _STYLE)


_STYLE = """
.meld{margin-left:.4em;padding:0 .15em;background:#eef3ff}
.rb{color:#c00}
"""


def page(shown: Shown) -> Page:
    """The page of a replayed Riichi game (the contract of ``simharness.show``)."""
    return _Game(shown).page()
