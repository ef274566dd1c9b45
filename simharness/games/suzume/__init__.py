"""Suzume-jong (すずめ雀) in Python, beside ``engine/src/games/suzume/``.

- ``scoring``: ``score_hand``, one hand's points and every part of them;
- ``metrics``: ``summary_metrics``, the hand-level statistics that ``simharness report`` adds, their
  names (``METRICS``), the strategy profile's axes (``PROFILE``) and ``notable_hand``;
- ``python``: the Python-strategy protocol and an example class (``Fastest``);
- ``cli``: ``simharness score suzume``.
"""

from simharness.games.suzume.metrics import (
    DISTRIBUTIONS,
    METRICS,
    PROFILE,
    RULE_COUNTERS,
    YAKUMAN,
    notable_hand,
    summary_metrics,
)
from simharness.games.suzume.scoring import score_hand

# Fewest games in a default shard (simharness.games.registry): Suzume-jong plays ten to twenty
# thousand games a second on one core.
MIN_SHARD = 200
# Games of every variant together that the report holds at once (simharness.games.registry): a
# five-player game's tables take about 2.0 KB in memory, with 20 hands.
REPORT_CHUNK = 25_000

__all__ = [
    "DISTRIBUTIONS",
    "METRICS",
    "MIN_SHARD",
    "PROFILE",
    "REPORT_CHUNK",
    "RULE_COUNTERS",
    "YAKUMAN",
    "notable_hand",
    "score_hand",
    "summary_metrics",
]
