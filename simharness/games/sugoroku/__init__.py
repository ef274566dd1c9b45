"""Mahjong sugoroku (麻雀すごろく) in Python, beside ``engine/src/games/sugoroku/``.

- ``python``: the Python-strategy protocol and an example class (``Leader``);
- ``metrics``: ``summary_metrics``, the source's winner (who reaches the goal) beside the top score.

A dice race has no hands to score, so sugoroku adds no commands (no ``cli``).
"""

from simharness.games.sugoroku.metrics import summary_metrics

__all__ = ["summary_metrics"]
