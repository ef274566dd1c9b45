"""Writing a Trump mahjong strategy in Python.

A strategy script names a class with ``python = "module:Class"``; the engine creates one instance
per lineup slot and batch and calls its ``decide(view, legal)`` at each decision point of spec §10,
for the seat that slot plays. ``decide`` returns the index of the chosen action in ``legal``; an
exception, a non-int or an index out of range stops the batch with an error of the same type naming
the game index, the lineup slot, the seat and the decision point (or the game and ``__init__`` when
making the instance raises; the original is its ``__cause__``). The cards are keyed exactly as in
native play, so a Python strategy meets the same luck as the knobs it is compared with. It is much
slower than the native knobs: prototype in Python, then express a strategy in knobs when it should
run at scale.

Decision points (``view["point"]``) and their ``legal`` actions:

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
``points`` (per seat) and ``pool`` (riichi sticks on the table); at ``"tsumo"`` and ``"ron"``
``win`` (``han``, ``points``, ``yaku``, ``dora``, ``jokers``).

Speed: ``view`` is a read-only mapping whose values are built when first read (see
``docs/python-api.md``), so read only the keys a decision needs, ``view["point"]`` first; the per-seat
lists (``discarded``, ``discarded_after_riichi``) cost the most to build. Cache what depends only on
the hand (``discard_kind`` below): a Python seat's cost is mostly its own ``decide``.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Protocol

from simharness import _engine

Action = tuple[Any, ...]

RANKS = 13


class TrumpStrategy(Protocol):
    def decide(self, view: dict[str, Any], legal: list[Action]) -> int: ...


def kind(card: int) -> int:
    return 13 if card >= 52 else card // 4


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


@cache
def discard_kind(kinds: tuple[int, ...]) -> int:
    """The kind (of 8 cards' sorted kinds, no Joker) whose discard leaves the lowest shanten, the
    lowest kind on a tie: cached, as the same hands recur."""
    counts = [0] * RANKS
    for k in kinds:
        counts[k] += 1

    def after(k: int) -> int:
        rest = list(counts)
        rest[k] -= 1
        return shanten(tuple(rest))

    return min(sorted(set(kinds)), key=after)


class AlwaysRiichi:
    """A simple T1 in Python: set Jokers aside, take every win, discard the card that leaves the
    lowest shanten (the lowest kind on a tie; a Joker first), and declare riichi whenever it is
    offered with that discard."""

    def decide(self, view: dict[str, Any], legal: list[Action]) -> int:
        point = view["point"]
        if point == "joker":
            return 1
        if point != "discard":
            return 0
        hand: list[int] = view["hand"]
        kinds = tuple(sorted(kind(c) for c in hand))
        # The first Joker, else the first card of the best kind.
        want = RANKS if kinds[-1] == RANKS else discard_kind(kinds)
        best = next(i for i, c in enumerate(hand) if kind(c) == want)
        card = hand[best]
        for i, a in enumerate(legal):
            if a[0] == "riichi" and a[1] == card:
                return i
        return best
