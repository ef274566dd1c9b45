"""Hong Kong mahjong: scoring one hand.

``score_hand`` is the same engine code the games use (``engine/src/games/hongkong/hand.rs`` and
``scoring.rs``), so a hand scored here scores the same in a simulation.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from simharness import _engine
from simharness.engine import _call


def _numbers(v: Iterable[int] | str) -> str:
    return v if isinstance(v, str) else ",".join(str(n) for n in v)


def score_hand(
    hand: str,
    win: str,
    *,
    tsumo: bool = False,
    melds: Iterable[str] = (),
    seat_wind: str = "E",
    round_wind: str = "E",
    flowers: Iterable[int] | str = (),
    seasons: Iterable[int] | str = (),
    last_tile: bool = False,
    replacement: bool = False,
    robbing_kong: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
    kong_on_kong: bool = False,
    preset: str = "default",
    rules: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Scores a winning hand: ``hand`` is the concealed tiles in MPSZ notation (``1z``-``4z`` =
    E S W N, ``5z`` 白, ``6z`` 發, ``7z`` 中), with or without ``win``; ``melds`` as in
    ``score riichi`` (``pon:555z``, ``chi:324m``, ``kan:9999m``, ``ankan:1111z``); ``flowers`` and
    ``seasons`` are bonus tile numbers 1-4. The circumstances (``tsumo``, ``last_tile``,
    ``replacement``: after a kong when ``melds`` has one, else after a bonus tile;
    ``robbing_kong``, ``heavenly``, ``earthly``, ``kong_on_kong``: the replacement of a second kong
    in a row) must be possible together in play.

    Returns ``legal`` (bool), ``reason`` (why it does not win, else None), ``fan`` (total, bonus
    tiles included; None for a limit hand), ``counted_fan`` (toward the minimum), ``base`` (the
    table's base points), ``limit``, ``items`` (``name`` and ``fan`` of each), ``portion`` and
    ``payments`` (one entry per possible discarder, or one with ``discarder`` None for a
    self-draw, each with ``deltas`` by wind; East deals).

    Raises :class:`simharness.engine.OptionError` for a bad tile, a wrong count, more than four
    copies, a bad meld, wind or bonus number, a bad rule, or circumstances that cannot happen
    (e.g. ``earthly`` with ``tsumo``, or ``heavenly`` outside East's seat), naming them and why.
    """
    raw = _call(
        _engine.hongkong_score,
        hand,
        win,
        list(melds),
        tsumo,
        seat_wind,
        round_wind,
        _numbers(flowers),
        _numbers(seasons),
        last_tile,
        replacement,
        robbing_kong,
        heavenly,
        earthly,
        kong_on_kong,
        preset,
        json.dumps(rules or {}),
    )
    result: dict[str, Any] = json.loads(raw)
    return result
