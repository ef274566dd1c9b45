"""Suzume-jong (すずめ雀): scoring one hand.

``score_hand`` is the same engine code the games use (``engine/src/games/suzume/hand.rs``, reported by
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
    dealer: bool = False,
    dora: str | None = None,
    players: int = 4,
    rules: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Scores 6 tiles written in the spec's notation (``1r2r3rCCC``: digits 1-9, ``r`` after a
    digit for its red copy, ``F`` = 發, ``C`` = 中) won on ``win`` (one of them).

    Returns ``legal`` (bool), ``reason`` (why it does not win, else None), ``points`` (the score,
    dealer bonus included), ``base``, ``sets`` and every part (``set_points``, ``red``,
    ``dora_points``, ``tanyao``, ``chanta``, ``yakuman``, ``yakuman_points``, ``dealer_bonus``) and,
    for a legal win, ``payments``. ``rules`` are rule overrides (``simharness rules suzume``).

    Raises :class:`simharness.engine.OptionError` for a bad tile, a wrong count, more copies than
    exist, a winning tile not in the hand or a bad rule.
    """
    raw = _call(_engine.suzume_score, hand, win, ron, dealer, dora, players, json.dumps(rules or {}))
    result: dict[str, Any] = json.loads(raw)
    return result
