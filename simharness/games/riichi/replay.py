"""Replay of real Tenhou games through the Riichi engine, four-player and three-player (sanma).

Each hand of an mjlog becomes the recorded tiles (dealt hands, live draws, replacement draws after
a kan or a North extraction, dora and ura indicators), which the engine places in its own wall
layout (the unseen rest in id order), and the recorded actions; the engine plays it, refusing any
recorded action it does not find legal, and its outcome — the winners, each win's han, fu and
points, every seat's points after the hand, and the next hand's round, honba and deposits (or the
end of the game) — is compared with the record. A three-player record (GO type bit 0x10) is played
under the `tenhou_sanma` preset unless another is given.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simharness import _engine, engine
from simharness.games.riichi import mjlog

# GO type bit of a three-player game.
SANMA = 0x10
# Tenhou's abortive-draw names → the engine's outcomes.
_DRAW_KINDS = {
    "": "exhaustive_draw", "nm": "nagashi_mangan", "yao9": "kyuushu_kyuuhai", "reach4": "suucha_riichi",
    "kaze4": "suufon_renda", "kan4": "suukaikan", "ron3": "sanchahou",
}  # fmt: skip


def seats(game: mjlog.Game) -> int:
    """Players at the table: 3 for a sanma record, else 4."""
    return 3 if game.game_type & SANMA else 4


def default_preset(game: mjlog.Game) -> str:
    """The preset of Tenhou's rules for the record's player count."""
    return "tenhou_sanma" if seats(game) == 3 else "tenhou"


def rules_for(game: mjlog.Game) -> dict[str, Any]:
    """Overrides of the preset that the log's game type implies (GO type bits)."""
    t = game.game_type
    return {
        "players": seats(game),
        "aka_dora": 0 if t & 0x02 else 3,
        "kuitan": not t & 0x04,
        "game_length": "hanchan" if t & 0x08 else "tonpuu",
    }


def engine_round(tenhou_round: int, n: int) -> int:
    """The engine's round (dealer rotations) of Tenhou's, which counts four hands per wind even
    with three players (South 1 of sanma is Tenhou's 4, the engine's 3)."""
    return tenhou_round // 4 * n + tenhou_round % 4


def hand_request(hand: mjlog.Hand, n: int = 4) -> dict[str, Any]:
    """The engine's replay request for one recorded hand of an ``n``-player game."""
    init = hand.init
    draws: list[int] = []
    rinshan: list[int] = []
    dora, ura = [init.dora_indicator], list[int]()
    actions: list[dict[str, Any]] = []
    after_kan = False
    reach: set[int] = set()
    for e in hand.events:
        if isinstance(e, mjlog.Draw):
            (rinshan if after_kan else draws).append(e.tile)
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
            after_kan = m.kind in ("kan", "ankan", "kakan", "nuki")
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
                actions.append({"t": "nuki", "who": e.who, "tile": m.tiles[0]})
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
    return {
        "round": engine_round(init.round, n), "honba": init.honba, "sticks": init.sticks,
        "points": list(init.scores[:n]), "hands": [list(h) for h in init.hands[:n]],
        "draws": draws, "rinshan": rinshan, "dora": dora, "ura": ura, "actions": actions,
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


def _recorded(hand: mjlog.Hand, n: int) -> tuple[str, list[mjlog.Agari], tuple[int, ...]]:
    """The record's outcome, wins and points after the hand (``n`` seats)."""
    results = hand.results
    wins = [r for r in results if isinstance(r, mjlog.Agari)]
    last = results[-1]
    after = tuple(s + d for s, d in zip(last.scores[:n], last.deltas[:n], strict=True))
    if wins:
        return ("tsumo" if wins[0].tsumo else "ron"), wins, after
    assert isinstance(last, mjlog.Ryuukyoku)
    return _DRAW_KINDS.get(last.kind, last.kind), [], after


def compare(
    game: mjlog.Game, preset: str | None = None, overrides: dict[str, Any] | None = None
) -> list[HandCheck]:
    """Replays every hand of ``game`` and compares each with its record, under ``preset``
    (default: Tenhou's for the record's player count) with the game type's overrides. A record
    without a hand is a :class:`mjlog.LogError`: there is nothing to compare, so it cannot agree."""
    if not game.hands:
        raise mjlog.LogError("no game to replay: the record holds no hand (no <INIT> element)")
    n = seats(game)
    preset = preset or default_preset(game)
    rules = {**rules_for(game), **(overrides or {})}
    checks: list[HandCheck] = []
    for i, hand in enumerate(game.hands):
        outcome, wins, after = _recorded(hand, n)
        check = HandCheck(i, hand_name(hand.init), outcome)
        checks.append(check)
        res = json.loads(
            engine._call(
                _engine.riichi_replay_hand, preset, json.dumps(rules), json.dumps(hand_request(hand, n))
            )
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
            want_next = {"round": engine_round(nxt.round, n), "honba": nxt.honba, "sticks": nxt.sticks}
            if res["next"] != want_next:
                check.problems.append(f"next hand: engine {res['next']}, record {want_next}")
    return checks


def replay_file(path: Path, preset: str | None = None) -> list[HandCheck]:
    return compare(mjlog.parse(path), preset)
