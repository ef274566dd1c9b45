"""Riichi mahjong (立直麻雀) in Python, beside ``engine/src/games/riichi/``.

- ``scoring``: shanten, ukeire and hand value under named house rules (single hands and batches);
- ``metrics``: ``summary_metrics``, the analyst's statistics that ``simharness report`` adds, their
  names (``METRICS``), the strategy profile's axes (``PROFILE``) and ``notable_hand``;
- ``python``: the Python-strategy protocol and an example class (``ShantenGreedy``);
- ``cli``: ``simharness score riichi``, ``shanten`` and ``replay riichi``;
- ``replay`` and ``mjlog``: real Tenhou games parsed and replayed through the engine.
"""

from simharness.games.riichi.metrics import (
    DISTRIBUTIONS,
    METRICS,
    PROFILE,
    RULE_COUNTERS,
    notable_hand,
    summary_metrics,
)
from simharness.games.riichi.scoring import (
    HandNotWinning,
    HandScore,
    Payments,
    ScoreBatch,
    flag_bits,
    format_score,
    presets,
    resolve_rules,
    rule_options,
    score_arrays,
    score_batch,
    score_hand,
    shanten,
    shanten_batch,
    shanten_forms,
    split_tiles,
    ukeire,
    waits,
    yaku_names,
)

# Fewest games in a default shard (simharness.games.registry): Riichi plays a few thousand games
# a second on one core with knob strategies, far fewer with Python seats.
MIN_SHARD = 40
# Games of every variant together that the report holds at once (simharness.games.registry): a
# hanchan's tables take about 1.2 KB in memory, with 10 hands.
REPORT_CHUNK = 40_000
# Rank points by player count (simharness.games.registry.rank_points): Tenhou's ranked-lobby spacing
# for four players (+90/+45/0/−135 at 鳳凰卓, the last place paying for the others); sanma takes the
# harness's linear default.
RANK_POINTS = {4: (90, 45, 0, -135)}

__all__ = [
    "DISTRIBUTIONS",
    "METRICS",
    "MIN_SHARD",
    "PROFILE",
    "RANK_POINTS",
    "REPORT_CHUNK",
    "RULE_COUNTERS",
    "HandNotWinning",
    "HandScore",
    "Payments",
    "ScoreBatch",
    "flag_bits",
    "format_score",
    "notable_hand",
    "presets",
    "resolve_rules",
    "rule_options",
    "score_arrays",
    "score_batch",
    "score_hand",
    "shanten",
    "shanten_batch",
    "shanten_forms",
    "split_tiles",
    "summary_metrics",
    "ukeire",
    "waits",
    "yaku_names",
]
