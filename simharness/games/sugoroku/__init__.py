"""Mahjong sugoroku (麻雀すごろく) in Python, beside ``engine/src/games/sugoroku/``.

- ``python``: the Python-strategy protocol and an example class (``Leader``);
- ``metrics``: ``summary_metrics``, the source's winner (who reaches the goal) beside the top score.

A dice race has no hands to score, so sugoroku adds no commands (no ``cli``).
"""

from simharness.games.sugoroku.metrics import summary_metrics

# Fewest games in a default shard (simharness.games.registry): sugoroku plays about two hundred
# thousand games a second on one core.
MIN_SHARD = 1000

__all__ = ["MIN_SHARD", "summary_metrics"]
