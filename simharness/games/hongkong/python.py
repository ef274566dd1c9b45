"""Writing a Hong Kong mahjong strategy in Python.

A strategy script names a class with ``python = "module:Class"``; the engine creates one instance
per lineup slot and batch and calls its ``decide(view, legal)`` at every decision point of spec §10
that offers a choice, for the seat that slot plays. ``decide`` returns the index of the chosen
action in ``legal``; an exception, a non-int or an index out of range stops the batch with an error
of the same type naming the game index, the lineup slot, the seat and the decision point (or the
game and ``__init__`` when making the instance raises; the original is its ``__cause__``). Walls,
dice and mistake injection are keyed exactly as in native play, so a Python strategy meets the same
luck as the knobs it is compared with.

Each decision builds a Python view and calls Python, which costs more than the native knobs
(``benchmarks/hongkong.py`` reports the cost: ``ChickenFast`` plays about half as fast as the
native lineup): prototype in Python, then express a strategy in knobs when it should run at scale.

Tiles are kinds ``0..33``: 0-8 characters 1-9 (``1m``-``9m``), 9-17 dots, 18-26 bamboo, 27-30 the
winds E S W N, 31-33 the dragons 白 發 中 (Riichi's kind numbers; ``id // 4`` of a Riichi tile id).
Seats are in turn order (the next player is ``seat + 1``); winds are 0-3 (E S W N).

Decision points (``view["point"]``) and their ``legal`` actions:

- ``"tsumo"`` (H-D2, one's own draw, or the dealer's first 14 tiles, completes a legal win):
  ``[("tsumo",), ("pass",)]``; passing goes on to kongs and the discard;
- ``"kong"`` (H-D3/H-D4, one's own turn with four of a kind in hand or the fourth tile of an
  exposed pung): ``[("kong", kind), ..., ("pass",)]``; an added kong can be robbed;
- ``"discard"`` (H-D5/H-D8, every turn): ``[("discard", kind), ...]``, one per kind held,
  lowest first;
- ``"ron"`` (H-D6/H-D7, another player's discard, or the tile added to its pung, completes a
  legal win): ``[("ron",), ("pass",)]``;
- ``"claim"`` (H-D6, another player's discard can be claimed): ``("kong",)``, ``("pung",)`` and
  ``("chow", base)`` (the chow of kinds ``base .. base + 2``, next player only) as legal, then
  ``("pass",)``. A pung or kong beats a chow whatever the seats (§4).

A win below the rules' minimum is never offered: the engine counts it as refused.

``view`` keys:

- ``point``: as above; ``seat``, ``dealer``, ``seat_wind``, ``round_wind``;
- ``from``: the seat whose draw, discard or kong is being answered (one's own seat on one's turn);
- ``tile``: the winning tile (``tsumo``, ``ron``) or the discard to claim (``claim``), else None;
- ``hand``: one's concealed kinds, sorted (14 - 3 × melds on one's turn, one fewer otherwise);
- ``melds``: per seat, ``(type, kinds)`` with type ``"chow"``, ``"pung"``, ``"kong"`` or
  ``"concealed_kong"`` (declared face up);
- ``rivers``: per seat, its discards of this hand in order, claimed ones included;
- ``visible``: 34 counts, every tile seen besides one's own concealed hand (discards left on the
  table and every meld, one's own included);
- ``flowers``, ``seasons``: per seat, the numbers (1-4) of its exposed bonus tiles;
- ``points``: per seat, the game's points before this hand; ``live``: tiles left in the live wall;
- ``win`` (``tsumo`` and ``ron`` only): the value on offer: ``fan`` (bonus tiles included; the
  rules' ``max_fan`` for a limit hand), ``counted_fan`` (what the minimum counts), ``base`` (the
  table's multiplier), ``limit`` (the limit hand's name, or None) and ``items`` (``(name, fan)``
  per fan item, as ``simharness score hongkong`` names them);
- ``shanten_after``: bytes, one per action of ``legal``: the shanten the concealed hand is left
  with (seven pairs and thirteen orphans count without melds): after a discard; after a claim (a
  pung's or chow's with its best discard, a kong's before the replacement draw); after one's own
  kong; after passing a claim, the hand's own, and after passing a kong, with its best discard;
  255 at a win point;
- ``ukeire_after``: bytes, one per action of ``legal``: for a discard, the unseen copies (four
  less those in the hand left and those ``visible``) of the kinds whose draw lowers the shanten
  that discard leaves; 255 for any other action.

Speed (see ``docs/python-api.md``): ``view`` is a read-only mapping whose values are built when
first read, so read only what a decision needs. Cheap: ``legal`` (its tuples are made once per
batch; its first action tells a win and a discard from the rest), the numbers, ``hand``,
``visible``, ``shanten_after`` and ``ukeire_after`` (the engine's tables; ``min``, ``index`` and
``count`` of the bytes run in C). Costly: ``melds``, ``rivers`` and ``win`` (nested lists and
dicts). ``ChickenFast`` reads ``legal``, ``shanten_after`` and, on a tie, ``ukeire_after`` (at a
win, ``win`` and ``live``); :func:`shanten` values any other parts in one call to the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from simharness import _engine

Action = tuple[Any, ...]

KINDS = 34
HONORS = 27


class HongKongStrategy(Protocol):
    def decide(self, view: Mapping[str, Any], legal: list[Action]) -> int: ...


def shanten(hands: list[list[int]]) -> list[int]:
    """Shanten of concealed parts given as 34 kind counts each (seven pairs and thirteen orphans
    count for a 13/14-tile part), in one call to the engine's tables."""
    return shanten_bytes(b"".join(bytes(h) for h in hands))


def shanten_bytes(parts: bytes) -> list[int]:
    """:func:`shanten` of parts given as 34 kind counts each, concatenated."""
    return memoryview(_engine.riichi_shanten_counts(parts)).cast("b").tolist()


def counts(kinds: list[int]) -> list[int]:
    c = [0] * KINDS
    for k in kinds:
        c[k] += 1
    return c


def _minus(c: list[int], k: int, n: int = 1) -> list[int]:
    out = list(c)
    out[k] -= n
    return out


def best_after_discard(c: list[int]) -> int:
    """The least shanten of a 3n+2 part after one discard."""
    return min(shanten([_minus(c, k) for k in range(KINDS) if c[k]]))


class ChickenFast:
    """Spec §12's H1 ChickenFast, the native ``chicken-fast`` knobs written against the protocol:
    take every legal win worth at least ``min_win_fan`` (bonus tiles excluded; limit hands always,
    any win once the live wall holds at most ``relax_live`` tiles: the knobs of the same names);
    claim the first legal kong that does not raise the shanten, or pung or
    chow that lowers it; declare the first kong that does not slow the hand; discard the tile that
    leaves the least shanten, then the most unseen tiles that lower it, then honours before
    terminals before middle tiles, then the lowest kind. It makes the same decisions as the knobs
    of ``strategies/hongkong/chicken-fast.toml``, with the same ``min_win_fan`` and ``relax_live``,
    reading the engine's ``shanten_after`` and ``ukeire_after`` rather than computing them."""

    min_win_fan = 0
    relax_live = 8

    def decide(self, view: Mapping[str, Any], legal: list[Action]) -> int:
        first = legal[0][0]
        if first in ("tsumo", "ron"):
            win = view["win"]
            take = win["limit"] is not None or win["counted_fan"] >= self.min_win_fan
            return 0 if take or view["live"] <= self.relax_live else 1
        after: bytes = view["shanten_after"]
        if first == "discard":
            return self._discard(after, view, legal)
        # A claim or a kong, then the pass, which leaves the hand's shanten as it is.
        now = after[-1]
        for i, action in enumerate(legal[:-1]):
            if after[i] < now or (after[i] == now and action[0] == "kong"):
                return i
        return len(legal) - 1

    @staticmethod
    def _discard(after: bytes, view: Mapping[str, Any], legal: list[Action]) -> int:
        top = min(after)
        choice = after.index(top)
        if after.count(top) == 1:
            return choice
        ukeire: bytes = view["ukeire_after"]
        # Discards are listed lowest kind first: a later one wins only by more ukeire or an earlier
        # order (honours, terminals, middle tiles).
        best = (ukeire[choice], _order(legal[choice][1]))
        for i in range(choice + 1, len(after)):
            if after[i] == top:
                key = (ukeire[i], _order(legal[i][1]))
                if key[0] > best[0] or (key[0] == best[0] and key[1] < best[1]):
                    best, choice = key, i
        return choice


def _order(kind: int) -> int:
    """Honours before terminals before middle tiles."""
    return 0 if kind >= HONORS else 1 if kind % 9 in (0, 8) else 2
