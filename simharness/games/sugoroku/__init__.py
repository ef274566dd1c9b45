"""Mahjong sugoroku (麻雀すごろく) in Python, beside ``engine/src/games/sugoroku/``.

- ``python``: the Python-strategy protocol and an example class (``Leader``).

A dice race has no hands to score, so sugoroku adds no commands (no ``cli``) and no metrics of its
own: the harness's summary (win rates, points, seat advantage, game length) covers it.
"""

# Fewest games in a default shard (simharness.games.registry): sugoroku plays about two hundred
# thousand games a second on one core.
MIN_SHARD = 1000
