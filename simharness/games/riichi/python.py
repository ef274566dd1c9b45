"""Writing a Riichi strategy in Python.

A strategy script names a class with ``python = "module:Class"``; the engine creates one instance
per lineup slot and batch and calls its ``decide(view, legal)`` only at decision points that offer a
choice (a lone "pass" is never asked). It returns the index of the chosen action in ``legal``; an
exception, a non-int or an index out of range stops the batch with an error of the same type naming
the game index, the lineup slot, the seat and the decision point (or the game and ``__init__`` when
making the instance raises; the original is its ``__cause__``). Every other decision of the slot's
knobs (yame, noten_declaration, open_riichi) still comes from the script's ``[knobs]``.

This is much slower than the native knobs: each decision builds a Python view and calls Python
(``benchmarks/riichi_game.py`` reports the cost); use it to prototype, then express a strategy in
knobs when it should run at scale.

``legal`` holds tuples with Tenhou tile ids (kind = id // 4; ids 16, 52, 88 are the red fives):
``("discard", tile, riichi)``, ``("tsumo",)``, ``("ankan", kind)``, ``("kakan", tile)``,
``("kyuushu",)``, ``("pass",)``, ``("ron",)``, ``("pon", (t1, t2))``, ``("chi", (t1, t2))``,
``("kan",)``, ``("nuki", tile)`` (flowers are ids 136–143). ``view`` is a dict: ``seat``,
``point`` ("turn" or "response"), ``after_call``,
``from``/``tile``/``kan`` (responses), ``hand`` (own tile ids), ``melds`` (per seat, lists of
``(type, tiles)``), ``rivers``, ``riichi``, ``points``, ``nuki`` (extracted tiles per seat),
``dora_indicators``, ``round``, ``honba``, ``sticks``, ``dealer``, ``live_remaining``, ``shanten``
(of the own hand) and ``open_hands`` (per seat, the concealed tile ids of an open riichi, else None).

Speed: ``view`` is a read-only mapping whose values are built when first read (see
``docs/python-api.md``): ``shanten`` runs the engine's tables and ``melds``/``rivers``/``open_hands``
build nested lists, so read them only when a decision needs them (most ``"response"`` points need only
``legal``). Ask the engine for many hands' shanten in one ``riichi_shanten_counts`` call, as
``ShantenGreedy`` does.
"""

from __future__ import annotations

from typing import Any, Protocol

from simharness import _engine

Action = tuple[Any, ...]


class RiichiStrategy(Protocol):
    def decide(self, view: dict[str, Any], legal: list[Action]) -> int: ...


def _counts(tiles: list[int]) -> bytes:
    c = bytearray(34)
    for t in tiles:
        c[t // 4] += 1
    return bytes(c)


def shanten_of(tiles: list[int]) -> int:
    """Shanten of a concealed part given as tile ids (through the engine's tables)."""
    return shanten_of_counts(_counts(tiles))[0]


def shanten_of_counts(counts: bytes) -> list[int]:
    """Shanten of concealed parts given as 34 kind counts each, concatenated: one call to the
    engine for all of them."""
    return memoryview(_engine.riichi_shanten_counts(counts)).cast("b").tolist()


class ShantenGreedy:
    """Win whenever possible, riichi when allowed, never call; discard the tile that leaves the
    lowest shanten (the first such tile in hand order). A minimal Python agent, also the one the
    benchmark drives through RiichiEnv."""

    def decide(self, view: dict[str, Any], legal: list[Action]) -> int:
        for want in ("tsumo", "ron"):
            for i, a in enumerate(legal):
                if a[0] == want:
                    return i
        if view["point"] == "response":
            return next(i for i, a in enumerate(legal) if a[0] == "pass")
        counts = bytearray(_counts(view["hand"]))
        discards = [(i, a) for i, a in enumerate(legal) if a[0] == "discard"]
        # Every discard's rest in one call to the engine.
        rests = bytearray()
        for _, a in discards:
            counts[a[1] // 4] -= 1
            rests += counts
            counts[a[1] // 4] += 1
        best, best_i = 99, 0
        for (i, a), s in zip(discards, shanten_of_counts(bytes(rests)), strict=True):
            s -= 1 if a[2] else 0
            if s < best:
                best, best_i = s, i
        return best_i
