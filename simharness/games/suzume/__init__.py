"""Suzume-jong (すずめ雀) in Python, beside ``engine/src/games/suzume/``.

- ``scoring``: ``score_hand``, one hand's points and every part of them;
- ``metrics``: ``summary_metrics``, the hand-level statistics that ``simharness report`` adds;
- ``python``: the Python-strategy protocol and an example class (``Fastest``);
- ``cli``: ``simharness score suzume``.
"""

from simharness.games.suzume.metrics import YAKUMAN, summary_metrics
from simharness.games.suzume.scoring import score_hand

__all__ = ["YAKUMAN", "score_hand", "summary_metrics"]
