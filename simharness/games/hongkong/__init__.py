"""Hong Kong mahjong (香港麻雀) in Python, beside ``engine/src/games/hongkong/``.

- ``scoring``: ``score_hand``, one hand's fan items, base points and payments;
- ``metrics``: ``summary_metrics``, the hand-level statistics that ``simharness report`` adds;
- ``cli``: ``simharness score hongkong``;
- ``python``: the Python strategy protocol and its example ``ChickenFast``.
"""

from simharness.games.hongkong.metrics import (
    DISTRIBUTIONS,
    FAN_ITEMS,
    LIMIT_HANDS,
    METRICS,
    RULE_COUNTERS,
    summary_metrics,
)
from simharness.games.hongkong.scoring import score_hand

# Fewest games in a default shard (simharness.games.registry): a Hong Kong game is 16+ hands.
MIN_SHARD = 50
# Games of every variant together that the report holds at once (simharness.games.registry): a
# game's tables take about 1.8 KB in memory, with 23 hands.
REPORT_CHUNK = 25_000

__all__ = [
    "DISTRIBUTIONS",
    "FAN_ITEMS",
    "LIMIT_HANDS",
    "METRICS",
    "MIN_SHARD",
    "REPORT_CHUNK",
    "RULE_COUNTERS",
    "score_hand",
    "summary_metrics",
]
