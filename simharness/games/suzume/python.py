"""Writing a Suzume-jong strategy in Python.

A strategy script names a class with ``python = "module:Class"``; the engine creates one instance
per lineup slot and batch and calls its ``decide(view, legal)`` at each decision point of spec §10,
for the seat that slot plays. ``decide`` returns the index of the chosen action in ``legal``; an
exception, a non-int or an index out of range stops the batch with an error of the same type naming
the game index, the lineup slot, the seat and the decision point (or the game and ``__init__`` when
making the instance raises; the original is its ``__cause__``). The tiles a hand deals are keyed
exactly as in native play, so a Python strategy meets the same luck as the knobs it is compared
with.

A native decision costs a fraction of a microsecond, a call to Python about as much as several
(``benchmarks/suzume.py`` reports the cost: ``Fastest`` plays about a fifth as fast as the native
lineup): prototype in Python, then express a strategy in knobs when it should run at scale.

Decision points (``view["point"]``) and their ``legal`` actions (the first action tells them
apart):

- ``"tsumo"`` (D1, after one's own draw completes a legal win): ``[("tsumo",), ("pass",)]``;
  passing goes on to the discard;
- ``"discard"`` (D2, every turn): ``[("discard", tile), ...]``, one per tile of ``view["hand"]``
  in the same order (a kind held twice appears twice);
- ``"ron"`` (D3, an opponent's discard completes a legal win): ``[("ron",), ("pass",)]``.

Tiles are ids ``0..43``: kind ``id // 4`` (0-8 are the numbers 1-9, 9 is 發, 10 is 中); copy 0 of
a number (``id % 4 == 0`` and ``id < 36``) is its red copy when the rules have red tiles.

``view`` keys:

- ``point``: ``"tsumo"``, ``"discard"`` or ``"ron"``;
- ``seat``, ``players``, ``dealer``: seats in turn order (the next player is ``seat + 1``);
- ``hand``: one's tile ids, 6 of them: the 5 held plus the drawn tile (D1, D2) or the opponent's
  discard (D3), which is always last;
- ``tile``: that last tile (the draw, or the discard that can be ronned);
- ``from``: at D3 only, the discarder's seat;
- ``rivers``: per seat, its discards of this hand in order;
- ``streak``: per seat, how many of its latest discards in a row were the tile it had just drawn
  (ツモ切り, visible at the table);
- ``dora``: the dora kind (the flipped tile's kind), or None when the rules flip none;
- ``red_seen``: number kinds whose red copy is visible (in a river or as the dora tile);
- ``red_tiles``: whether the rule set has red copies at all;
- ``stock``: tiles left in the stock;
- ``points``: per seat, the point totals before this hand's settlement;
- ``win``: at D1 and D3 only, the value of the win on offer: ``score`` (what the winner is owed,
  dealer bonus included), ``base`` (checked against the minimum), ``set_points``, ``red``,
  ``dora``, ``tanyao``, ``chanta``, ``yakuman`` (``"none"``, ``"all_green"``, ``"chinyao"``,
  ``"super_red"``), ``yakuman_points`` and ``dealer_bonus``;
- ``need_after``, ``ukeire_after``, ``safe``: bytes, one per action of ``legal``, from the
  engine's tables: for a discard, the distance to a win of the 5 tiles it leaves (:func:`need`),
  the unseen copies (four less those held and those seen: rivers and dora) of the kinds whose draw
  lowers that distance (:func:`improving`), and how many opponents have the tile's kind in their
  river (so cannot ron it); 255 for a win or a pass.

Speed (see ``docs/python-api.md``): ``view`` is a read-only mapping whose values are built when
first read, so read only what a decision needs. Cheap: ``legal`` (its tuples are made once per
batch), the numbers, ``hand``, and the per-action bytes (``min``, ``index``, ``count`` and
``translate`` of bytes, and ``zip`` and ``min`` of their tuples, run in C; ``Fastest`` orders its
discards so). Costly: ``rivers`` and ``win`` (nested lists and dicts).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol

Action = tuple[Any, ...]

KINDS = 11
CHUN = 10


class SuzumeStrategy(Protocol):
    def decide(self, view: Mapping[str, Any], legal: list[Action]) -> int: ...


def _targets() -> list[tuple[int, ...]]:
    """Every complete 6-tile shape (two sets) as kind counts."""
    sets = [tuple(1 if s <= k < s + 3 else 0 for k in range(KINDS)) for s in range(7)]
    sets += [tuple(3 if j == k else 0 for j in range(KINDS)) for k in range(KINDS)]
    out = set()
    for i, a in enumerate(sets):
        for b in sets[i:]:
            c = tuple(x + y for x, y in zip(a, b, strict=True))
            if max(c) <= 4:
                out.add(c)
    return sorted(out)


TARGETS = _targets()
_COMPLETE = frozenset(TARGETS)


@cache
def need(counts: tuple[int, ...]) -> int:
    """Distance to a win of 5 tiles (kind counts): tiles missing from the nearest complete shape."""
    return 6 - max(sum(min(c, t) for c, t in zip(counts, target, strict=True)) for target in TARGETS)


@cache
def improving(counts: tuple[int, ...]) -> frozenset[int]:
    """Kinds whose draw (followed by the best discard) lowers the distance of 5 tiles."""
    here = need(counts)
    out = set()
    for k in range(KINDS):
        if counts[k] == 4:
            continue
        six = list(counts)
        six[k] += 1
        if tuple(six) in _COMPLETE:
            out.add(k)
            continue
        after = min(need(tuple(x - (j == d) for j, x in enumerate(six))) for d in range(KINDS) if six[d] > 0)
        if after < here:
            out.add(k)
    return frozenset(out)


class Fastest:
    """Spec §13's S1 FastestWin, the native ``fastest`` knobs written against the protocol: declare
    every win worth at least ``min_win_score`` (any win once the stock holds at most one tile per
    player); discard the tile that leaves the least distance to a win, then the most unseen
    winning/improving tiles, then the tile the most opponents cannot ron, then the tile of least
    value kept (red, dora, 中), then the lowest kind. It makes the same decisions as the knobs
    ``discard = "fastest"`` with the same ``min_win_score``, reading the engine's ``need_after``,
    ``ukeire_after`` and ``safe`` rather than computing them (:func:`need` and :func:`improving`
    compute the first two in Python)."""

    min_win_score = 0

    def decide(self, view: Mapping[str, Any], legal: list[Action]) -> int:
        if legal[0][0] != "discard":
            win = view["win"]["score"] >= self.min_win_score or view["stock"] <= view["players"]
            return 0 if win else 1
        need: bytes = view["need_after"]
        top = min(need)
        if need.count(top) == 1:
            return need.index(top)
        # Then the most ukeire, then the most opponents who cannot ron the tile: tuples zipped
        # from the bytes (inverted where more is better) compare in C.
        more, safe = view["ukeire_after"].translate(_MORE_FIRST), view["safe"].translate(_MORE_FIRST)
        keys = list(zip(need, more, safe, strict=True))
        best = min(keys)
        choice = keys.index(best)
        if keys.count(best) == 1:
            return choice
        # Still tied: the least value kept (red, dora, 中), then the lowest kind; a later tile of
        # the same kind and colour ties with the first, which stays the choice.
        hand: list[int] = view["hand"]
        dora, red_tiles = view["dora"], view["red_tiles"]
        low: tuple[int, int] | None = None
        for i in range(choice, len(keys)):
            if keys[i] == best:
                t = hand[i]
                kind = t // 4
                key = ((red_tiles and t < 36 and t % 4 == 0) + (kind == dora) + (kind == CHUN), kind)
                if low is None or key < low:
                    low, choice = key, i
        return choice


# A byte's complement (255 - b), for ordering bytes where more is better.
_MORE_FIRST = bytes(range(255, -1, -1))
