"""Replay of real Tenhou games through the Riichi engine.

Each hand of an mjlog becomes the engine's wall (§3.3 order: the dealt hands, the recorded draws,
replacement tiles, dora and ura indicators, the unseen rest in id order) and the recorded actions;
the engine plays it, refusing any recorded action it does not find legal, and its outcome — the
winners, each win's han, fu and points, every seat's points after the hand, and the next hand's
round, honba and deposits (or the end of the game) — is compared with the record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simharness import _engine  # type: ignore[attr-defined]
from simharness.games.riichi import mjlog

_DEAD = 122
# GO type bit of a three-player game.
SANMA = 0x10
# Tenhou's abortive-draw names → the engine's outcomes.
_DRAW_KINDS = {
    "": "exhaustive", "nm": "nagashi", "yao9": "kyuushu", "reach4": "suucha_riichi",
    "kaze4": "suufon_renda", "kan4": "suukaikan", "ron3": "sanchahou",
}  # fmt: skip


def rules_for(game: mjlog.Game) -> dict[str, Any]:
    """Overrides of the `tenhou` preset that the log's game type implies (GO type bits)."""
    t = game.game_type
    return {
        "aka_dora": 0 if t & 0x02 else 3,
        "kuitan": not t & 0x04,
        "game_length": "hanchan" if t & 0x08 else "tonpuu",
    }


def hand_request(hand: mjlog.Hand) -> dict[str, Any]:
    """The engine's replay request for one recorded hand."""
    init = hand.init
    wall: list[int | None] = [None] * 136
    dealer = init.dealer
    for i in range(4):
        tiles = init.hands[(dealer + i) % 4]
        for p in range(3):
            for j in range(4):
                wall[p * 16 + i * 4 + j] = tiles[p * 4 + j]
        wall[48 + i] = tiles[12]
    live, rinshan, dora, ura = 52, 0, [init.dora_indicator], list[int]()
    actions: list[dict[str, Any]] = []
    after_kan = False
    reach: set[int] = set()
    for e in hand.events:
        if isinstance(e, mjlog.Draw):
            if after_kan:
                wall[_DEAD + rinshan] = e.tile
                rinshan += 1
            else:
                wall[live] = e.tile
                live += 1
            after_kan = False
        elif isinstance(e, mjlog.Discard):
            actions.append({"t": "discard", "who": e.who, "tile": e.tile, "riichi": e.who in reach})
            reach.discard(e.who)
        elif isinstance(e, mjlog.Reach) and e.step == 1:
            reach.add(e.who)
        elif isinstance(e, mjlog.NewDora):
            dora.append(e.indicator)
        elif isinstance(e, mjlog.Call):
            m = e.meld
            after_kan = m.kind in ("kan", "ankan", "kakan")
            if m.kind in ("pon", "chi"):
                own = [t for t in m.tiles if t != m.called]
                actions.append({"t": m.kind, "who": e.who, "tiles": own})
            elif m.kind == "kan":
                actions.append({"t": "kan", "who": e.who})
            elif m.kind == "ankan":
                actions.append({"t": "ankan", "who": e.who, "kind": m.tiles[0] // 4})
            elif m.kind == "kakan":
                actions.append({"t": "kakan", "who": e.who, "tile": m.called})
            else:
                raise ValueError(f"a {m.kind} call has no place in four-player Riichi")
        elif isinstance(e, mjlog.Agari):
            kind = "tsumo" if e.tsumo else "ron"
            actions.append({"t": kind, "who": e.who, "from": e.from_who})
            if e.ura:
                ura = list(e.ura)
        elif isinstance(e, mjlog.Ryuukyoku):
            if e.kind == "yao9":
                last = next(a for a in reversed(hand.events) if isinstance(a, mjlog.Draw))
                actions.append({"t": "kyuushu", "who": last.who})
            elif e.kind == "ron3":
                actions.append({"t": "ron3"})
    for i, t in enumerate(dora):
        wall[_DEAD + 4 + 2 * i] = t
    for i, t in enumerate(ura):
        wall[_DEAD + 5 + 2 * i] = t
    used = {t for t in wall if t is not None}
    rest = iter(t for t in range(136) if t not in used)
    full = [t if t is not None else next(rest) for t in wall]
    return {
        "round": init.round, "honba": init.honba, "sticks": init.sticks,
        "points": list(init.scores), "wall": full, "actions": actions,
    }  # fmt: skip


@dataclass
class HandCheck:
    """One hand's comparison: ``problems`` is empty when the engine agrees with the record."""

    index: int
    name: str
    outcome: str
    problems: list[str] = field(default_factory=list)
    engine: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def hand_name(init: mjlog.Init) -> str:
    return f"{'ESWN'[init.round // 4 % 4]}{init.round % 4 + 1}-{init.honba}"


def _recorded(hand: mjlog.Hand) -> tuple[str, list[mjlog.Agari], tuple[int, ...]]:
    """The record's outcome, wins and points after the hand."""
    results = hand.results
    wins = [r for r in results if isinstance(r, mjlog.Agari)]
    last = results[-1]
    after = tuple(s + d for s, d in zip(last.scores, last.deltas, strict=True))
    if wins:
        return ("tsumo" if wins[0].tsumo else "ron"), wins, after
    assert isinstance(last, mjlog.Ryuukyoku)
    return _DRAW_KINDS.get(last.kind, last.kind), [], after


def compare(
    game: mjlog.Game, preset: str = "tenhou", overrides: dict[str, Any] | None = None
) -> list[HandCheck]:
    """Replays every hand of ``game`` and compares each with its record.

    Three-player records (GO type bit 0x10) are refused with a ValueError: their walls, seats and
    North extractions are not rebuilt yet (the hand requests assume four seats).
    """
    if game.game_type & SANMA:
        raise ValueError(
            f"a three-player (sanma) record (GO type {game.game_type:#x}, bit 0x10): only four-player "
            "records are replayed so far"
        )
    rules = {**rules_for(game), **(overrides or {})}
    checks: list[HandCheck] = []
    for i, hand in enumerate(game.hands):
        outcome, wins, after = _recorded(hand)
        check = HandCheck(i, hand_name(hand.init), outcome)
        checks.append(check)
        res = json.loads(
            _engine.riichi_replay_hand(preset, json.dumps(rules), json.dumps(hand_request(hand)))
        )
        check.engine = res
        if res.get("error"):
            check.problems.append(res["error"])
            if "outcome" not in res:
                continue
        if res["outcome"] != outcome:
            check.problems.append(f"outcome: engine {res['outcome']}, record {outcome}")
        got = [(w["seat"], w["fu"], w["points"]) for w in res["wins"]]
        want = [(w.who, w.fu, w.points) for w in wins]
        if got != want:
            check.problems.append(f"wins (seat, fu, points): engine {got}, record {want}")
        han = [w["han"] for w in res["wins"]]
        rec_han = [sum(h for _, h in w.yaku) + 13 * len(w.yakuman) for w in wins]
        if han != rec_han and got == want:
            check.problems.append(f"han: engine {han}, record {rec_han}")
        if tuple(res["points"]) != after:
            check.problems.append(f"points after the hand: engine {res['points']}, record {list(after)}")
        nxt = game.hands[i + 1].init if i + 1 < len(game.hands) else None
        if nxt is None:
            if not res["game_over"]:
                check.problems.append("the record's game ends here; the engine would play on")
        elif res["game_over"]:
            check.problems.append("the engine ends the game here; the record plays on")
        else:
            want_next = {"round": nxt.round, "honba": nxt.honba, "sticks": nxt.sticks}
            if res["next"] != want_next:
                check.problems.append(f"next hand: engine {res['next']}, record {want_next}")
    return checks


def replay_file(path: Path, preset: str = "tenhou") -> list[HandCheck]:
    return compare(mjlog.parse(path), preset)
