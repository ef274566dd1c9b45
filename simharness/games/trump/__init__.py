"""Trump mahjong (トランプ麻雀) in Python, beside ``engine/src/games/trump/``.

- ``scoring``: ``score_hand``, one hand's han, yaku, points and payments;
- ``metrics``: ``summary_metrics``, the hand-level statistics that ``simharness report`` adds;
- ``python``: the Python-strategy protocol and an example class (``AlwaysRiichi``);
- ``cli``: ``simharness score trump``.
"""

from simharness.games.trump.metrics import DISTRIBUTIONS, METRICS, RULE_COUNTERS, YAKU, summary_metrics
from simharness.games.trump.scoring import score_hand

# Fewest games in a default shard (simharness.games.registry). The engine plays about 50,000 games a
# second on one core, and a shard's three Parquet files take about 20 ms to write (fsync and rename
# included), as long as 1,000 games take to play: benchmarks/trump.py's pipeline runs at 18,000
# games/s/core with 500-game shards, 28,000 with 1,000 and 39,000 with 2,000. A multiple of 3, so that
# the three games of a duplicate deal share a shard (the report reads a run shard by shard).
MIN_SHARD = 2100
# Games of every variant together that the report holds at once (simharness.games.registry): a
# game's tables take about 0.8 KB in memory, with 6 hands.
REPORT_CHUNK = 60_000

__all__ = [
    "DISTRIBUTIONS",
    "METRICS",
    "MIN_SHARD",
    "REPORT_CHUNK",
    "RULE_COUNTERS",
    "YAKU",
    "score_hand",
    "summary_metrics",
]
