"""Competence under the rules: does a Trump mahjong strategy play to win by ron where the rules
allow it?

Trump mahjong has no calls, so tsumo is always a yaku and every ready hand may win by tsumo; what the
rules take away is ron: a ron needs a yaku or riichi (§5.3), under 完全先付け (``kanzen_sakizuke``)
every wait must give a hand yaku unless in riichi, and under standard furiten no wait may be among
one's own discards. One row per rule set that changes what a good player aims for (the defaults,
furiten, 完全先付け, the ``strict`` preset with both, no chinitsu, a 3-han cap) and per strategy,
each strategy playing all three seats: win rate (per seat and hand), exhaustive draw rate (per
hand), mean table value of a win (points, the dealer's multiplier included), and the share of its
ready hands that **cannot win by ron** — tenpai after one of its discards with no wait on which
``hand::ron`` allows a ron, with the riichi declared by that discard
(``engine/src/games/trump/competence.rs``). ``avoidable`` counts the hands that were so although
another card of that turn (with riichi where it was legal, or without) kept one that can: the target
of ``rule-aware`` is none. Intervals are Wilson 95% intervals over hands
(``simharness.games.competence``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import polars as pl

from simharness import engine
from simharness.games import competence
from simharness.games.competence import Row, markdown

GAME = "trump"
# The rule sets under which a good player aims for something else.
RULES: competence.RuleSets = {
    "default": ("default", {}),
    "furiten standard": ("default", {"furiten": "standard"}),
    "kanzen_sakizuke": ("default", {"kanzen_sakizuke": True}),
    "strict (both)": ("strict", {}),
}
STRATEGIES = ("always-riichi", "dama", "rule-aware")
PLAYERS = 3


# Per lineup slot, its ready hands and how many could not win legally; a built-in script's knobs.
audit = partial(competence.audit, GAME)
knobs = partial(competence.knobs, GAME)


def _counts(rules: dict[str, Any], tables: dict[str, pl.DataFrame]) -> competence.Counts:
    won = tables["hands"].filter(pl.col("winner") >= 0)
    dealer = pl.when(pl.col("winner") == pl.col("dealer")).then(rules["dealer_multiplier"]).otherwise(1)
    value = float(won.select((pl.col("points").cast(pl.Int64) * dealer).sum()).item())
    return competence.Counts(wins=int(tables["players"]["wins"].sum()), mean_value=value / max(won.height, 1))


def row(label: str, preset: str, overrides: dict[str, Any], name: str, games: int, seed: int) -> Row:
    """``name`` in all three seats of ``games`` games under ``preset`` plus ``overrides``."""
    rules = engine.resolve_rules(GAME, preset, overrides)
    return competence.row(GAME, PLAYERS, _counts, label, rules, name, games, seed)


def table(
    games: int, seed: int = 1, rules: competence.RuleSets = RULES, names: Sequence[str] = STRATEGIES
) -> list[Row]:
    """The competence table: every rule set of ``rules`` × ``names``."""
    return competence.table(row, rules, names, games, seed)


__all__ = ["RULES", "STRATEGIES", "Row", "audit", "knobs", "markdown", "row", "table"]
