"""Trump mahjong (トランプ麻雀) in Python, beside ``engine/src/games/trump/``.

- ``scoring``: ``score_hand``, one hand's han, yaku, points and payments;
- ``metrics``: ``summary_metrics``, the hand-level statistics that ``simharness report`` adds;
- ``python``: the Python-strategy protocol and an example class (``AlwaysRiichi``);
- ``cli``: ``simharness score trump``.
"""

from simharness.games.trump.metrics import YAKU, summary_metrics
from simharness.games.trump.scoring import score_hand

__all__ = ["YAKU", "score_hand", "summary_metrics"]
