"""Trump mahjong: scoring one hand.

``score_hand`` is the same engine code the games use (``engine/src/games/trump/hand.rs``, reported by
``scoring.rs``), so a hand scored here scores the same in a simulation.
"""

from __future__ import annotations

import json
from typing import Any

from simharness import _engine
from simharness.engine import _call


def score_hand(
    hand: str,
    win: str,
    *,
    ron: bool = False,
    riichi: bool = False,
    double_riichi: bool = False,
    ippatsu: bool = False,
    first_turn: bool = False,
    dealer: bool = False,
    seat_wind: str | None = None,
    round_wind: str | None = None,
    indicator: str | None = None,
    ura_indicator: str | None = None,
    jokers: int = 0,
    discards: str = "",
    rules: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Scores 7 held cards in the spec's notation run together (``1``-``9``, ``T`` ``J`` ``Q`` ``K``,
    ``X`` for a Joker kept in hand) won on ``win`` by ron or tsumo.

    ``jokers`` counts Jokers set aside; ``indicator`` is the dora indicator (the dora is the next
    rank in its group), ``ura_indicator`` the ura-dora one (riichi only). The winner sits South
    (``J``), or East as the dealer, in the East round unless ``seat_wind``/``round_wind`` say
    otherwise. ``first_turn`` is a tsumo on the first draw (tenhou/chiihou) or a ron before it
    (renhou); ``discards`` the player's own discards (for ``furiten = "standard"``).

    Returns ``legal`` (bool), ``reason`` (why not, for an illegal hand), ``han``, ``points`` (the
    §6.5 table value P, before the dealer's doubling), ``yaku`` (list of ``{name, han}``),
    ``yaku_han``, ``dora``, ``ura``, ``jokers``, ``reading`` and ``payments`` (``discarder`` on ron;
    ``each_child``, or ``dealer`` and ``other_child``, on tsumo; and the winner's ``total``).

    Raises :class:`simharness.engine.OptionError` for a bad card, a wrong count, five copies of a
    rank, three Jokers, a bad wind or indicator, or a bad rule.
    """
    raw = _call(
        _engine.trump_score,
        hand,
        win,
        ron,
        riichi,
        double_riichi,
        ippatsu,
        first_turn,
        dealer,
        seat_wind,
        round_wind,
        indicator,
        ura_indicator,
        jokers,
        discards,
        json.dumps(rules or {}),
    )
    result: dict[str, Any] = json.loads(raw)
    return result
