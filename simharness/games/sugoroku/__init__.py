"""Mahjong sugoroku (麻雀すごろく) in Python, beside ``engine/src/games/sugoroku/``.

- ``metrics``: ``summary_metrics``, the source's winner (who reaches the goal) beside the top score
  and the choices the strategies' knobs make, their names (``METRICS``) and the strategy
  profile's axes (``PROFILE``: last-place rate against goal-winner rate, the race's analogue of
  mahjong's deal-in rate against win rate per hand);
- ``python``: the Python-strategy protocol and an example class (``Leader``).

A dice race has no hands to score, so sugoroku adds no commands (no ``cli``) and no ``notable_hand``.
"""

from simharness.games.sugoroku.metrics import METRICS, PROFILE, RULE_COUNTERS, summary_metrics

# Fewest games in a default shard (simharness.games.registry): sugoroku plays about 150,000 games a
# second on one core, and a shard's two Parquet files take about as long to write as 1,000 games
# take to play (6.6 ms), against 14 ms for 5,000 games (34 ms of play): the pipeline with one worker
# went from 0.41 to 0.63 of the engine's rate (benchmarks/sugoroku.py). A killed run loses at most a
# shard, a fraction of a second.
MIN_SHARD = 5000

__all__ = ["METRICS", "MIN_SHARD", "PROFILE", "RULE_COUNTERS", "summary_metrics"]
