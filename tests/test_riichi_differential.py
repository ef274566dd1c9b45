"""Differential test against the ``mahjong`` package (PyPI, 2.x) on seeded random winning hands,
closed and open, with random situational flags, under two equivalent rule settings.

Both must agree on whether the hand wins, and on han, fu and points (points only for yakuman and
kazoe hands, where fu is irrelevant), except for the deviations of the other package listed in
``KNOWN_DEVIATIONS`` with the rule of the spec that decides them. Settings left out because the
two packages model them differently: ``pinfu_tsumo=no_pinfu`` (the mahjong package keeps pinfu and
adds tsumo fu; spec §15.5 drops pinfu) and kazoe ``NO_LIMIT`` (no spec rule).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from riichi_hands import RandomWin, arrays, random_win

from simharness.games import riichi

mahjong = pytest.importorskip("mahjong")
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.hand_config import HandConstants, OptionalRules  # noqa: E402

HANDS = 4000

SETTINGS: dict[str, tuple[dict[str, Any], OptionalRules]] = {
    # Tenhou: kuitan, red fives, no single-hand double yakuman, kazoe yakuman, no kiriage.
    "tenhou": (
        {"rules": "tenhou"},
        OptionalRules(has_open_tanyao=True, has_aka_dora=True, has_double_yakuman=False,
                      kazoe_limit=HandConstants.KAZOE_LIMITED, kiriage=False),
    ),
    # No kuitan, kiriage mangan, every double yakuman, 13+ han capped at sanbaiman.
    "nashi_doubles": (
        {"rules": "default", "kuitan": False, "kiriage_mangan": True, "double_suuankou_tanki": True,
         "double_daisuushii": True, "double_junsei_chuuren": True, "kazoe_yakuman": False},
        OptionalRules(has_open_tanyao=False, has_aka_dora=True, has_double_yakuman=True,
                      kazoe_limit=HandConstants.KAZOE_SANBAIMAN, kiriage=True),
    ),
    # No red fives, an open hand without fu stays at 20 fu, every double yakuman.
    "no_aka_open20": (
        {"rules": "default", "aka_dora": 0, "open_no_fu_min": 20, "double_suuankou_tanki": True,
         "double_daisuushii": True, "double_junsei_chuuren": True},
        OptionalRules(has_open_tanyao=True, has_aka_dora=False, has_double_yakuman=True,
                      kazoe_limit=HandConstants.KAZOE_LIMITED, fu_for_open_pinfu=False),
    ),
}  # fmt: skip


def open_tsumo_without_fu(setting: str, h: RandomWin, ours: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    """With ``fu_for_open_pinfu=False`` the mahjong package also drops the tsumo fu of an open hand
    with no other fu (20 fu); spec §10.2 adds the +2 tsumo fu first and rounds 22 up to 30, and
    ``open_no_fu_min`` only applies to a hand still at 20 fu (an open ron)."""
    open_hand = any(kind != "ankan" for kind, _, _ in h.melds)
    return (setting == "no_aka_open20" and open_hand and h.flags.get("tsumo", False)
            and len(ours) == 3 and ours[0] == theirs[0] and (ours[1], theirs[1]) == (30, 20))  # fmt: skip


KNOWN_DEVIATIONS = (open_tsumo_without_fu,)


def theirs(h: RandomWin, options: OptionalRules) -> tuple[int, ...] | None:
    r = HandCalculator.estimate_hand_value(**h.mahjong_args(options))
    if r.error:
        return None
    return (r.han, r.fu, r.cost["total"]) if r.han < 13 else (r.cost["total"],)


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_agrees_with_the_mahjong_package(setting: str) -> None:
    ours_rules, options = SETTINGS[setting]
    rng = random.Random(f"riichi-differential-{setting}")
    hands = [random_win(rng) for _ in range(HANDS)]
    batch = riichi.score_batch([h.request() for h in hands], **ours_rules)
    disagreements = []
    wins = deviations = 0
    for i, h in enumerate(hands):
        if i in batch.errors:
            assert batch.errors[i][0] == "agari", batch.errors[i]
            ours = None
        elif batch.yakuman[i] or batch.han[i] >= 13:
            ours = (int(batch.points[i]),)
        else:
            ours = (int(batch.han[i]), int(batch.fu[i]), int(batch.points[i]))
        other = theirs(h, options)
        wins += ours is not None
        if ours != other:
            if ours and other and any(dev(setting, h, ours, other) for dev in KNOWN_DEVIATIONS):
                deviations += 1
            else:
                disagreements.append(f"{h.request()}: ours {ours}, mahjong {other}")
    assert wins > HANDS // 2, "the generator must produce mostly winning hands"
    # The array form (Tenhou meld codes) scores the same hands identically.
    fast = riichi.score_arrays(**arrays(hands, riichi.flag_bits()), **ours_rules)
    np.testing.assert_array_equal(fast.points, batch.points)
    assert fast.errors.keys() == batch.errors.keys()
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(disagreements[:20])
    assert deviations < HANDS // 50, "known deviations are rare cases, not a blanket excuse"


def test_generator_covers_open_closed_and_situational_hands() -> None:
    rng = random.Random(1)
    hands = [random_win(rng) for _ in range(1000)]
    assert sum(bool(h.melds) for h in hands) > 300
    assert sum(not h.melds for h in hands) > 300
    for flag in ("tsumo", "riichi", "ippatsu", "rinshan", "haitei", "houtei", "chankan", "double_riichi"):
        assert sum(h.flags.get(flag, False) for h in hands) > 3, flag
