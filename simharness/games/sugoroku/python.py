"""Writing a Mahjong sugoroku strategy in Python.

A strategy script names a class with ``python = "module:Class"``; the engine creates one instance
per lineup slot and batch and calls its ``decide(view)`` only where the rules leave the player a
choice. It returns ``True`` to take the option and ``False`` to decline (the rules' default); any
other value (even a truthy int) or an exception stops the batch with an error of the same type
naming the game index, the lineup slot, the seat and the decision point (or the game and
``__init__`` when making the instance raises; the original is its ``__cause__``). The script's
``[knobs]`` are validated but decide nothing for a Python slot.

Dice are keyed exactly as for the native knobs (by deal, seat, the seat's rolling-turn number and
the roll number within the turn), so a Python strategy meets the same luck as the knob set it
replaces: compare the two on the same seed, with duplicate play if first-mover luck matters.

Decision points (``view["decision"]``; see ``docs/rules/sugoroku.md`` §12):

- ``"pinzoro_reroll"`` (G-D1): after a pinzoro (1-1) moved the piece back 2 squares, or after a
  1-1 on the back re-roll under ``pinzoro_reroll_doubles = "again"``, roll again and move back by
  the sum? Asked only under ``pinzoro_reroll = "optional"`` and when the piece is not at the start.
- ``"extra_roll"`` (G-D2): after a 6-zoro (6-6) moved the piece 12 squares, roll again? Asked
  only under ``sixzoro_reroll = "optional"``; under ``sixzoro_extra_roll = "full"`` a 6-6 on the
  extra roll asks again (with a higher ``roll``).
- ``"pinzoro_offset"`` / ``"sixzoro_offset"`` (G-D3): the pinzoro or 6-zoro move ended on a wind
  while the player has rests to serve; cancel one rest (相殺) instead of the re-roll? Asked before
  the roll question (taking the offset forgoes that roll) and only under ``offset_allowed``.
- ``"agree_end"`` (G-D4): at the start of a round every piece is within ``agreement_distance`` of
  the goal; agree to end the game now without settlement? Every seat is asked in seat order and
  the game ends only if all agree (under ``agreement_end``).

``view`` is a dict of what every player can see; lists marked *per seat* are indexed by seat
(seat 0 moves first in every round):

- ``seat``: the deciding seat; ``decision``: one of the names above;
- ``turn``, ``roll``: the seat's rolling-turn number (0-based, rest turns not counted) and the roll
  number within that turn (0 = the turn's first roll); for ``agree_end``, the round number and 0;
- ``positions`` *per seat*: 0 = start, 1 .. goal - 1 course squares, ``goal`` = the goal;
- ``goal``: the goal's position (course length + 1);
- ``points`` *per seat*: points so far, before the end settlement;
- ``rests`` *per seat*: rests still to serve; ``multipliers`` *per seat*: the pending multiplier of
  the next landing (1 = none; dragons double it, a pochi sets 10);
- ``course``: one entry per position 0 .. ``goal``: the tile id of a face-up course square, else
  None (face-down squares, the start and the goal);
- ``dora``: 34 counts, how many flipped dora make each tile kind dora (a landing's effect doubles
  once per count);
- ``unseen``: 40 counts per tile id, the course tiles still face down;
- ``round``: rounds begun; ``turns``: player-turns played, rest turns included (``max_turns``
  counts these);
- ``settlement``: what this seat would receive (negative: pay) from the distance settlement if the
  race were decided now;
- ``rules``: the batch's complete rule set (one dict shared by every call: read it, don't change it).

Tile ids: 0–8 manzu 1–9, 9–17 pinzu 1–9, 18–26 souzu 1–9, 27–30 East South West North, 31 white,
32 green, 33 red dragon, 34 red 5m, 35 red 5p, 36 gold 5p, 37 red 5s, 38 gold 5s, 39 白ポッチ. A
tile's kind (for ``dora``) is its id, except 34 → 4, 35 and 36 → 13, 37 and 38 → 22, 39 → 31.

Each decision builds a view and calls Python, which makes a Python seat much slower than native
knobs (``benchmarks/sugoroku.py`` reports the cost): prototype here, then express a strategy in
knobs when it should run at scale.

Speed: ``view`` is a read-only mapping whose values are built when first read (see
``docs/python-api.md``): ``course`` and ``settlement`` cost the most to build, so read only the keys a
decision needs, ``view["decision"]`` first.
"""

from __future__ import annotations

from typing import Any, Protocol

View = dict[str, Any]


class SugorokuStrategy(Protocol):
    def decide(self, view: View) -> bool: ...


class Leader:
    """An example that uses the view: always take the 6-zoro extra roll; take the pinzoro back
    re-roll only while the own piece leads (moving back costs a leader least, and a trailing piece
    wants its turns forward); offset whenever possible (a rest costs a whole turn); agree to end
    early exactly when the distance settlement would cost this seat points."""

    def decide(self, view: View) -> bool:
        decision = view["decision"]
        if decision == "extra_roll":
            return True
        if decision == "pinzoro_reroll":
            me = view["positions"][view["seat"]]
            return me >= max(view["positions"])
        if decision in ("pinzoro_offset", "sixzoro_offset"):
            return True
        return bool(view["settlement"] < 0)
