"""A Riichi game as the formats viewers read: tenhou.net/6 JSON (pasted into Tenhou's and most
community viewers) and mjai JSON lines (read by Mortal, mjai-reviewer, RiichiEnv).

Both are written from a :class:`GameLog`, the engine's `events` log of each hand (dealt tiles,
draws, discards, calls with the tiles they took from the hand, kans, dora) with the hand's result;
one comes from ``simharness show``'s replay of a simulated game (:func:`from_shown`), another from
the engine's replay of a recorded Tenhou game (:func:`from_mjlog`).

Where the formats need what the log lacks, the choice is documented here: the yaku strings of
tenhou.net/6 carry the engine's yaku names (``riichi(1飜)``), not Tenhou's Japanese ones; a
multiple ron lists each win with the hand's total point changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from simharness import engine
from simharness.games.riichi.scoring import yaku_names

if TYPE_CHECKING:
    from simharness.games.riichi import mjlog
    from simharness.show.replay import Shown

RED_FIVES = frozenset({16, 52, 88})
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
TSUMO, RON, DORA, NUKI = _KIND["tsumo"], _KIND["ron"], _KIND["dora_indicator"], _KIND["nuki"]
DEALT, MELD_TILE, URA = _KIND["dealt"], _KIND["into_meld"], _KIND["ura_indicator"]
OUTCOMES = engine.labels("riichi", "hands", "outcome")
# tenhou.net/6 names of the ends without a win.
_T6_DRAWS = {
    "exhaustive_draw": "流局", "nagashi_mangan": "流し満貫", "kyuushu_kyuuhai": "九種九牌",
    "suucha_riichi": "四家立直", "suufon_renda": "四風連打", "suukaikan": "四槓散了", "sanchahou": "三家和了",
    "chombo": "流局",
}  # fmt: skip
_MJAI_HONORS = ("E", "S", "W", "N", "P", "F", "C")


@dataclass
class Win:
    seat: int
    from_: int
    han: int
    fu: int
    points: int
    yaku: list[tuple[str, int]]


@dataclass
class HandLog:
    """One hand: its start, its events as the engine logs them, and its result."""

    round: int
    honba: int
    sticks: int
    scores: list[int]
    events: list[tuple[int, int, int]]
    outcome: str
    deltas: list[int]
    wins: list[Win] = field(default_factory=list)

    @property
    def dealer(self) -> int:
        return self.round % 4


@dataclass
class GameLog:
    names: list[str]
    aka: int
    hands: list[HandLog]
    title: str = ""


def t6(tile: int) -> int:
    """tenhou.net/6 tile code: 11–19 man, 21–29 pin, 31–39 sou, 41–47 honors, 51–53 red fives."""
    kind = tile // 4
    if tile in RED_FIVES:
        return 51 + kind // 9
    return (kind // 9 + 1) * 10 + kind % 9 + 1 if kind < 27 else 41 + kind - 27


def mjai_tile(tile: int) -> str:
    """mjai tile: ``1m``…``9s``, ``5mr`` for a red five, ``E S W N P F C`` for honors."""
    kind = tile // 4
    if kind >= 27:
        return _MJAI_HONORS[kind - 27]
    return f"{kind % 9 + 1}{'mps'[kind // 9]}{'r' if tile in RED_FIVES else ''}"


@dataclass
class _Meld:
    """A call being read from the log: its kind, caller, called tile, discarder and own tiles."""

    kind: int
    seat: int
    called: int
    target: int
    own: list[int] = field(default_factory=list)


def _melds(events: list[tuple[int, int, int]]) -> list[tuple[int, _Meld | None]]:
    """Each event with the call it completes: a call event is followed by its MELD_TILE events; the
    call is returned at its last MELD_TILE (declared calls that lost to another claim have none)."""
    out: list[tuple[int, _Meld | None]] = []
    last_discarder = -1
    pending: dict[int, _Meld] = {}
    for i, (seat, kind, tile) in enumerate(events):
        if kind in (DISCARD, RIICHI_DISCARD):
            last_discarder = seat
        if kind in (CHI, PON, DAIMINKAN, ANKAN):
            pending[seat] = _Meld(kind, seat, tile, seat if kind == ANKAN else last_discarder)
        done = None
        if kind == MELD_TILE:
            meld = pending[seat]
            meld.own.append(tile)
            nxt = events[i + 1] if i + 1 < len(events) else None
            if nxt is None or nxt[1] != MELD_TILE or nxt[0] != seat:
                done = pending.pop(seat)
        out.append((i, done))
    return out


def _accepted_riichi(events: list[tuple[int, int, int]]) -> list[int]:
    """Per seat, 1 if its riichi was accepted in this hand (the declaring discard was not ronned)."""
    out = [0, 0, 0, 0]
    pending = None
    for seat, kind, _ in events:
        if pending is not None:
            out[pending] = int(kind != RON)
            pending = None
        if kind == RIICHI_DISCARD:
            pending = seat
    if pending is not None:  # the hand ended as the riichi passed (suucha riichi): it stands
        out[pending] = 1
    return out


def _result_deltas(h: HandLog) -> list[int]:
    """The hand's point changes as both formats give them: without the riichi sticks placed in the
    hand (those are a separate payment, made when the riichi is accepted)."""
    return [d + 1000 * a for d, a in zip(h.deltas, _accepted_riichi(h.events), strict=True)]


def _pon_string(meld: _Meld, marker: str, called: int, rel: int) -> str:
    """A pon/daiminkan string: the marker sits where the called tile came from (kamicha first,
    toimen second, shimocha last)."""
    own = [str(t6(t)) for t in meld.own]
    pos = {3: 0, 2: 1, 1: len(own)}[rel]
    return "".join(own[:pos]) + f"{marker}{t6(called)}" + "".join(own[pos:])


def to_tenhou6(game: GameLog) -> dict[str, Any]:
    """The game as a tenhou.net/6 JSON object."""
    log = []
    for h in game.hands:
        haipai: list[list[int]] = [[], [], [], []]
        takes: list[list[int | str]] = [[], [], [], []]
        discards: list[list[int | str]] = [[], [], [], []]
        dora: list[int] = []
        ura: list[int] = []
        drawn: list[int | None] = [None] * 4
        pons: dict[tuple[int, int], str] = {}
        for (seat, kind, tile), (_, meld) in zip(h.events, _melds(h.events), strict=True):
            if kind == DEALT:
                haipai[seat].append(t6(tile))
            elif kind == DORA:
                dora.append(t6(tile))
            elif kind == URA:
                ura.append(t6(tile))
            elif kind in (DRAW, RINSHAN):
                takes[seat].append(t6(tile))
                drawn[seat] = tile
            elif kind in (DISCARD, RIICHI_DISCARD):
                code = 60 if tile == drawn[seat] else t6(tile)
                discards[seat].append(f"r{code}" if kind == RIICHI_DISCARD else code)
                drawn[seat] = None
            elif kind == KAKAN:
                pon = pons[(seat, tile // 4)]
                discards[seat].append(pon.replace("p", f"k{t6(tile)}", 1))
            elif kind == NUKI:
                discards[seat].append(f"f{t6(tile)}")
            if meld is not None:
                drawn[seat] = None
                rel = (meld.target - seat) % 4
                if meld.kind == CHI:
                    takes[seat].append(f"c{t6(meld.called)}" + "".join(str(t6(t)) for t in meld.own))
                elif meld.kind == PON:
                    pons[(seat, meld.called // 4)] = _pon_string(meld, "p", meld.called, rel)
                    takes[seat].append(pons[(seat, meld.called // 4)])
                elif meld.kind == DAIMINKAN:
                    takes[seat].append(_pon_string(meld, "m", meld.called, rel))
                    discards[seat].append(0)
                else:
                    own = [str(t6(t)) for t in meld.own]
                    discards[seat].append("".join(own[:3]) + "a" + own[3])
        result: list[Any]
        deltas = _result_deltas(h)
        if h.wins:
            result = ["和了"]
            for w in h.wins:
                value = f"{w.fu}符{w.han}飜{w.points}点"
                result += [
                    deltas,
                    [w.seat, w.from_, w.seat, value, *(f"{n}({k}飜)" for n, k in w.yaku)],
                ]
        else:
            result = [_T6_DRAWS[h.outcome], deltas]
        hand: list[Any] = [[h.round, h.honba, h.sticks], list(h.scores), dora, ura]
        for s in range(4):
            hand += [sorted(haipai[s]), takes[s], discards[s]]
        log.append([*hand, result])
    return {
        "title": [game.title, ""],
        "name": list(game.names),
        "rule": {"disp": "simharness", "aka": game.aka},
        "log": log,
    }


def to_mjai(game: GameLog) -> list[dict[str, Any]]:
    """The game as mjai events (one JSON object per line)."""
    out: list[dict[str, Any]] = [{"type": "start_game", "names": list(game.names)}]
    for h in game.hands:
        tehais: list[list[str]] = [[], [], [], []]
        first_dora = None
        for seat, kind, tile in h.events:
            if kind == DEALT:
                tehais[seat].append(mjai_tile(tile))
            elif kind == DORA and first_dora is None:
                first_dora = mjai_tile(tile)
        out.append({
            "type": "start_kyoku", "bakaze": "ESWN"[h.round // 4 % 4], "dora_marker": first_dora,
            "kyoku": h.dealer + 1, "honba": h.honba, "kyotaku": h.sticks, "oya": h.dealer,
            "scores": list(h.scores), "tehais": tehais,
        })  # fmt: skip
        drawn: list[int | None] = [None] * 4
        reached: int | None = None
        seen_first_dora = False
        ura = [mjai_tile(t) for _, k, t in h.events if k == URA]
        wins = {w.seat: w for w in h.wins}
        last_offered = None  # the tile a ron takes: the last discard, or a kakan's (chankan)
        for i, ((seat, kind, tile), (_, meld)) in enumerate(zip(h.events, _melds(h.events), strict=True)):
            if reached is not None:
                if kind != RON:
                    out.append({"type": "reach_accepted", "actor": reached})
                reached = None
            if kind == DORA:
                if seen_first_dora:
                    out.append({"type": "dora", "dora_marker": mjai_tile(tile)})
                seen_first_dora = True
            elif kind in (DRAW, RINSHAN):
                out.append({"type": "tsumo", "actor": seat, "pai": mjai_tile(tile)})
                drawn[seat] = tile
            elif kind in (DISCARD, RIICHI_DISCARD):
                if kind == RIICHI_DISCARD:
                    out.append({"type": "reach", "actor": seat})
                out.append(
                    {"type": "dahai", "actor": seat, "pai": mjai_tile(tile), "tsumogiri": tile == drawn[seat]}
                )
                drawn[seat] = None
                last_offered = tile
                if kind == RIICHI_DISCARD:
                    reached = seat
            elif kind == KAKAN:
                consumed = [mjai_tile(t) for t in _pon_tiles(h.events[:i], seat, tile // 4)]
                out.append({"type": "kakan", "actor": seat, "pai": mjai_tile(tile), "consumed": consumed})
                last_offered = tile
            elif kind in (TSUMO, RON):
                w = wins.pop(seat, None)  # a declared ron that lost to another (head bump) is no win
                if w is not None:
                    pai = drawn[seat] if kind == TSUMO else last_offered
                    out.append({
                        "type": "hora", "actor": w.seat, "target": w.from_, "pai": mjai_tile(pai or 0),
                        "fu": w.fu, "fan": w.han, "hora_points": w.points, "deltas": _result_deltas(h),
                        "ura_markers": ura,
                    })  # fmt: skip
            if meld is not None:
                drawn[seat] = None
                consumed = [mjai_tile(t) for t in meld.own]
                if meld.kind == ANKAN:
                    out.append({"type": "ankan", "actor": seat, "consumed": consumed})
                else:
                    name = {CHI: "chi", PON: "pon", DAIMINKAN: "daiminkan"}[meld.kind]
                    out.append({
                        "type": name, "actor": seat, "target": meld.target, "pai": mjai_tile(meld.called),
                        "consumed": consumed,
                    })  # fmt: skip
        if reached is not None:
            out.append({"type": "reach_accepted", "actor": reached})
        if not h.wins:
            out.append({"type": "ryukyoku", "deltas": _result_deltas(h)})
        out.append({"type": "end_kyoku"})
    out.append({"type": "end_game"})
    return out


def _pon_tiles(events: list[tuple[int, int, int]], seat: int, kind: int) -> list[int]:
    """The three tiles of ``seat``'s pon of ``kind``: the called one and the two from the hand."""
    for _, meld in _melds(events):
        if meld is not None and meld.seat == seat and meld.kind == PON and meld.called // 4 == kind:
            return [meld.called, *meld.own]
    return []


def mjai_lines(game: GameLog) -> str:
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in to_mjai(game))


def from_shown(shown: Shown) -> GameLog:
    """The game ``simharness show`` replayed (its `events`, `hands`, `wins` and `win_yaku`)."""
    import polars as pl

    t = shown.tables
    names = yaku_names()
    start = int(shown.rules["starting_points"])
    points = [start] * 4
    hands = []
    for h in t["hands"].sort("hand").iter_rows(named=True):
        ev = t["events"].filter(pl.col("hand") == h["hand"]).sort("seq").select("seat", "kind", "tile").rows()
        wins = []
        for w in t["wins"].filter(pl.col("hand") == h["hand"]).iter_rows(named=True):
            ys = t["win_yaku"].filter((pl.col("hand") == h["hand"]) & (pl.col("seat") == w["seat"]))
            yaku = [(names[y], k) for y, k in ys.select("yaku", "han").rows()]
            yaku += [
                (label, w[key]) for key, label in (("dora", "dora"), ("aka", "aka"), ("ura", "ura")) if w[key]
            ]
            wins.append(Win(w["seat"], w["from"], w["han"], w["fu"], w["points"], yaku))
        deltas = [h[f"delta_{s}"] for s in range(4)]
        hands.append(
            HandLog(
                h["round"],
                h["honba"],
                _sticks(t, h["hand"]),
                list(points),
                list(ev),
                OUTCOMES[h["outcome"]],
                deltas,
                wins,
            )
        )
        points = [p + d for p, d in zip(points, deltas, strict=True)]
    strategies = [shown.strategy(s) for s in range(t["players"].height)]
    title = f"{shown.manifest.name} {shown.variant} game {shown.game}"
    return GameLog(strategies, int(shown.rules["aka_dora"]), hands, title)


def _sticks(tables: dict[str, Any], hand: int) -> int:
    """Riichi sticks on the table at the start of ``hand``: the deposits of earlier hands not yet
    taken by a win (a hand with a winner takes them all)."""
    sticks = 0
    for h in tables["hands"].sort("hand").iter_rows(named=True):
        if h["hand"] >= hand:
            break
        sticks = 0 if h["winners"] else sticks + bin(h["riichi"]).count("1")
    return sticks


def from_mjlog(game: mjlog.Game) -> GameLog:
    """A recorded Tenhou game as the engine replays it (``replay.compare``): its events, point
    changes and wins as the engine computed them."""
    from simharness.games.riichi import replay

    hands = []
    for check, hand in zip(replay.compare(game), game.hands, strict=True):
        res = check.engine
        if res.get("error"):
            raise ValueError(f"hand {check.name}: the engine refuses the record: {res['error']}")
        wins = [
            Win(w["seat"], w["from"], w["han"], w["fu"], w["points"], [(n, k) for n, k in w["yaku"]])
            for w in res["wins"]
        ]
        init = hand.init
        events = [tuple(e) for e in res["events"]]
        hands.append(
            HandLog(
                init.round,
                init.honba,
                init.sticks,
                list(init.scores),
                events,
                res["outcome"],
                res["deltas"],
                wins,
            )
        )
    aka = replay.rules_for(game)["aka_dora"]
    return GameLog(list(game.players), aka, hands)
