"""Trump mahjong (トランプ麻雀) in Python, beside ``engine/src/games/trump/``.

- ``scoring``: ``score_hand``, one hand's han, yaku, points and payments;
- ``metrics``: ``summary_metrics``, the hand-level statistics that ``simharness report`` adds;
- ``python``: the Python-strategy protocol and an example class (``AlwaysRiichi``);
- ``cli``: ``simharness score trump``.
"""

from simharness.games.trump.metrics import YAKU, summary_metrics
from simharness.games.trump.scoring import score_hand

# Fewest games in a default shard (simharness.games.registry): the engine plays about 50,000 games a
# second on one core with the knob strategies, so 500 games are 10 ms of play.
MIN_SHARD = 500

__all__ = ["YAKU", "score_hand", "summary_metrics"]
