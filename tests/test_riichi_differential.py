"""Differential test against the ``mahjong`` package (PyPI, 2.x) on seeded random winning hands,
closed and open, with random situational flags, under two equivalent rule settings.

Both must agree on whether the hand wins, and on han, fu and points (points only for yakuman and
kazoe hands, where fu is irrelevant). On these settings the two agree on every hand, so no
deviation of the other package needs excusing. Settings left out because the two packages model
them differently: ``pinfu_tsumo=no_pinfu`` (the mahjong package keeps pinfu and adds tsumo fu;
spec §15.5 drops pinfu) and kazoe ``NO_LIMIT`` (no spec rule).
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

HANDS = 2500

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
}  # fmt: skip


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
    wins = 0
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
            disagreements.append(f"{h.request()}: ours {ours}, mahjong {other}")
    assert wins > HANDS // 2, "the generator must produce mostly winning hands"
    # The array form (Tenhou meld codes) scores the same hands identically.
    fast = riichi.score_arrays(**arrays(hands, riichi.flag_bits()), **ours_rules)
    np.testing.assert_array_equal(fast.points, batch.points)
    assert fast.errors.keys() == batch.errors.keys()
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(disagreements[:20])


def test_generator_covers_open_closed_and_situational_hands() -> None:
    rng = random.Random(1)
    hands = [random_win(rng) for _ in range(1000)]
    assert sum(bool(h.melds) for h in hands) > 300
    assert sum(not h.melds for h in hands) > 300
    for flag in ("tsumo", "riichi", "ippatsu", "rinshan", "haitei", "houtei", "chankan", "double_riichi"):
        assert sum(h.flags.get(flag, False) for h in hands) > 3, flag
