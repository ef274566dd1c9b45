"""Writing a Trump mahjong strategy in Python.

A strategy script names a class with ``python = "module:Class"``; the engine creates one instance
per lineup slot and batch and calls its ``decide(view, legal)`` at each decision point of spec §10,
for the seat that slot plays. ``decide`` returns the index of the chosen action in ``legal``; an
exception, a non-int or an index out of range stops the batch with an error of the same type naming
the game index, the lineup slot, the seat and the decision point (or the game and ``__init__`` when
making the instance raises; the original is its ``__cause__``). The cards are keyed exactly as in
native play, so a Python strategy meets the same luck as the knobs it is compared with. It costs
more than the native knobs (``benchmarks/trump.py`` reports it: ``AlwaysRiichi`` plays about 0.4 as
fast as the native lineup): prototype in Python, then express a strategy in knobs when it should
run at scale.

Decision points (``view["point"]``) and their ``legal`` actions, which also tell the points
apart by their first action:

- ``"joker"`` (D1/D6, a Joker in hand, not in riichi, keeping allowed): ``[("keep",), ("set_aside",)]``;
- ``"tsumo"`` (D2, the hand after one's draw is complete): ``[("tsumo",), ("pass",)]``;
- ``"discard"`` (D3/D4, not in riichi): ``[("discard", card), ...]`` one per card of
  ``view["hand"]`` in the same order, then ``("riichi", card)`` for each card whose discard leaves
  a tenpai hand when riichi is legal;
- ``"ron"`` (D5, an opponent's discard completes a legal win): ``[("ron",), ("pass",)]``.

Cards are ids ``0..53``: kind ``id // 4`` for ids below 52 (0-8 are the ranks 1-9, 9-12 are
T J Q K), 52 and 53 are the Jokers (kind 13).

``view`` keys: ``point``; ``seat`` and ``dealer`` (seats in turn order); ``hand`` (the card ids;
at ``"ron"`` the 7 held plus the discard, last); ``card`` (the last card of ``hand``); ``seen``
(per kind, copies visible: discards, the indicator, Jokers out of play); ``discarded`` and
``discarded_after_riichi`` (per seat, the kinds in its discards); ``riichi`` and ``jokers_aside``
(per seat); ``dora``, ``seat_wind`` and ``round_wind`` (kinds); ``live`` (cards left to draw);
``points`` (per seat) and ``pool`` (riichi sticks on the table); ``shanten_after`` (bytes, one
per action of ``legal``: at ``"discard"`` the §12 standard and four-pairs shanten of the 7 cards
that discard leaves, from the engine's table of every 7-card hand, for a riichi discard as for the
plain one; 255 for any other action); at ``"tsumo"`` and ``"ron"`` ``win`` (``han``, ``points``,
``yaku``, ``dora``, ``jokers``).

Speed (see ``docs/python-api.md``): ``view`` is a read-only mapping whose values are built when
first read, so read only the keys a decision needs. Cheap: ``legal`` (its tuples are made once per
batch), the numbers, ``hand`` and ``shanten_after`` (``min``, ``index`` and ``count`` of the bytes
run in C). Costly: the per-seat lists (``discarded``, ``discarded_after_riichi``) and ``win``.
``AlwaysRiichi`` below reads ``legal[0]``, ``hand`` and ``shanten_after`` and nothing else;
:func:`shanten` values any other 7 cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol

from simharness import _engine

Action = tuple[Any, ...]

RANKS = 13
JOKER = 52  # the first Joker's id


class TrumpStrategy(Protocol):
    def decide(self, view: Mapping[str, Any], legal: list[Action]) -> int: ...


@cache
def shanten(counts: tuple[int, ...]) -> int:
    """Spec §12's standard and four-pairs shanten of 7 cards given as 13 rank counts (Jokers left
    out): ``4 − 2M − T − P`` over splits with ``M + T ≤ 2``, and ``3 − pairs`` plus the ranks still
    missing for four different pairs. The standard part is read from the engine's Riichi tables
    (ranks 1-9 as one suit, T J Q K as honours), which agree with the formula on every hand holding
    no rank four times (the tables count a fourth copy as no wait); those hands take the formula."""
    if max(counts) == 4:
        return shanten_formula(counts)
    part = bytearray(34)
    part[0:9] = bytes(counts[:9])
    part[27:31] = bytes(counts[9:])
    standard = memoryview(_engine.riichi_shanten_counts(bytes(part))).cast("b")[0]
    pairs = sum(x >= 2 for x in counts)
    kinds = sum(x > 0 for x in counts)
    return min(standard, 3 - pairs + max(0, 4 - kinds))


def shanten_formula(counts: tuple[int, ...]) -> int:
    """:func:`shanten` by spec §12's formula alone."""

    def blocks(c: list[int], k: int, left: int) -> int:
        while k < RANKS and c[k] == 0:
            k += 1
        if k == RANKS or left == 0:
            return 0
        saved, c[k] = c[k], 0
        best = blocks(c, k + 1, left)
        c[k] = saved
        for offsets, gain in (((0, 0, 0), 2), ((0, 0), 1), ((0, 1, 2), 2), ((0, 1), 1), ((0, 2), 1)):
            ks = [k + o for o in offsets]
            if max(ks) > 8 and len(set(ks)) > 1:
                continue
            if all(c[j] >= ks.count(j) for j in ks):
                for j in ks:
                    c[j] -= 1
                best = max(best, gain + blocks(c, k, left - 1))
                for j in ks:
                    c[j] += 1
        return best

    c = list(counts)
    best = 4 - blocks(c, 0, 2)
    for p in range(RANKS):
        if c[p] >= 2:
            c[p] -= 2
            best = min(best, 3 - blocks(c, 0, 2))
            c[p] += 2
    pairs = sum(x >= 2 for x in counts)
    kinds = sum(x > 0 for x in counts)
    return min(best, 3 - pairs + max(0, 4 - kinds))


class AlwaysRiichi:
    """A simple T1 in Python: set Jokers aside, take every win, discard the card that leaves the
    lowest shanten (the lowest kind on a tie, its first card in the hand; a Joker first), and
    declare riichi whenever it is offered with that discard. It tells the points apart by the
    first legal action and reads the engine's ``shanten_after``, so that a decision builds no more
    than the hand's list."""

    def decide(self, view: Mapping[str, Any], legal: list[Action]) -> int:
        first = legal[0][0]
        if first == "keep":
            return 1
        if first != "discard":
            return 0
        hand: list[int] = view["hand"]
        if JOKER in hand or JOKER + 1 in hand:
            for i, c in enumerate(hand):
                if c >= JOKER:
                    return i
        after: bytes = view["shanten_after"]
        best = min(after)
        i = after.index(best)
        if after.count(best) > 1:
            # A tie: the first card of the lowest kind among the cards that leave the least.
            low = hand[i] >> 2
            for j in range(i + 1, len(hand)):
                if after[j] == best and hand[j] >> 2 < low:
                    i, low = j, hand[j] >> 2
        if best == 0 and len(legal) > len(hand):
            # Riichi is offered with every discard that leaves a hand waiting on something.
            try:
                return legal.index(("riichi", hand[i]), len(hand))
            except ValueError:
                pass
        return i
