"""Writing a Riichi strategy in Python.

A strategy script names a class with ``python = "module:Class"``; the engine creates one instance
per lineup slot and batch and calls its ``decide(view, legal)`` only at decision points that offer a
choice (a lone "pass" is never asked). It returns the index of the chosen action in ``legal``; an
exception, a non-int or an index out of range stops the batch with an error of the same type naming
the game index, the lineup slot, the seat and the decision point (or the game and ``__init__`` when
making the instance raises; the original is its ``__cause__``). Every other decision of the slot's
knobs (yame, noten_declaration, open_riichi) still comes from the script's ``[knobs]``.

Each decision builds a Python view and calls Python, which costs more than the native knobs
(``benchmarks/riichi_game.py`` reports the cost: ``ShantenGreedy`` plays about 0.6 as fast as the
native lineup); prototype in Python, then express a strategy in knobs when it should run at scale.

``legal`` holds tuples with Tenhou tile ids (kind = id // 4; ids 16, 52, 88 are the red fives):
``("discard", tile, riichi)``, ``("tsumo",)``, ``("ankan", kind)``, ``("kakan", tile)``,
``("kyuushu",)``, ``("pass",)``, ``("ron",)``, ``("pon", (t1, t2))``, ``("chi", (t1, t2))``,
``("kan",)``, ``("nuki", tile)`` (flowers are ids 136–143). Their order is fixed: at a turn a
``("tsumo",)`` comes first, and each tile's riichi discard right after its plain one; at a
response ``("pass",)`` comes first and ``("ron",)``, when offered, second. ``view`` is a mapping:
``seat``, ``point`` ("turn" or "response"), ``after_call``,
``from``/``tile``/``kan`` (responses), ``hand`` (own tile ids), ``melds`` (per seat, lists of
``(type, tiles)``), ``rivers``, ``riichi``, ``points``, ``nuki`` (extracted tiles per seat),
``dora_indicators``, ``round``, ``honba``, ``sticks``, ``dealer``, ``live_remaining``, ``shanten``
(of the own hand), ``open_hands`` (per seat, the concealed tile ids of an open riichi, else None)
and ``shanten_after`` (bytes, one per action of ``legal``: the shanten of the hand after that
discard, riichi or not, from the engine's tables; 255 for an action that is no discard).

Speed (see ``docs/python-api.md``): ``view`` is a read-only mapping whose values are built when
first read, so read only what a decision needs. Cheap: ``legal`` itself (its tuples are made once
per batch), ``point`` and the other numbers, ``shanten`` and ``shanten_after`` (the engine's
tables; ``min`` and ``index`` of the bytes run in C). Costly: ``melds``, ``rivers`` and
``open_hands`` (nested lists). ``ShantenGreedy`` reads the order of ``legal`` and
``shanten_after`` alone. For the shanten of other hands, ``_engine.riichi_shanten_counts`` takes
any number of 34-byte count blocks in one call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

Action = tuple[Any, ...]


class RiichiStrategy(Protocol):
    def decide(self, view: Mapping[str, Any], legal: list[Action]) -> int: ...


class ShantenGreedy:
    """Win whenever possible, riichi when allowed, never call; discard the tile that leaves the
    lowest shanten (the first such tile in hand order). A minimal Python agent, also the one the
    benchmark drives through RiichiEnv. It reads the order of ``legal`` (a win first at a turn,
    ``("pass",)`` then ``("ron",)`` at a response) and the engine's ``shanten_after``, so that
    a decision costs a few lookups rather than a shanten search in Python."""

    def decide(self, view: Mapping[str, Any], legal: list[Action]) -> int:
        first = legal[0][0]
        if first == "tsumo":
            return 0
        if first == "pass":
            return 1 if legal[1][0] == "ron" else 0
        after: bytes = view["shanten_after"]
        best = min(after)
        i = after.index(best)
        if best == 0:
            # A riichi discard follows the plain discard of its tile, and leaves shanten 0 too.
            j = after.find(0, i + 1)
            while j >= 0:
                if legal[j][2]:
                    return j
                j = after.find(0, j + 1)
        return i
