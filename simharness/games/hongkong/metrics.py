"""Hong Kong mahjong's summary metrics: a run's ``hands``, ``players`` and ``games`` tables as
long-form estimates with confidence intervals."""

from __future__ import annotations

from typing import Any

import polars as pl

from simharness import engine
from simharness.games.estimates import Run, by_deal, dealer_rows, frame, row
from simharness.vocabulary import DEALER, Term

# `hands.outcome`: each way a hand ends → its code, named by the engine; the codes of a real win.
OUTCOME = engine.codes("hongkong", "hands", "outcome")
WINS = [OUTCOME[o] for o in ("self_draw", "discard_win", "robbed_kong")]
# Bit i of `hands.items` (see `simharness schema hongkong`), in the engine's `FanItem` order.
FAN_ITEMS = (
    "kong", "all_chows", "all_pungs", "self_draw", "last_tile", "replacement", "robbing_kong",
    "dragon_pung", "small_dragons", "seat_wind", "round_wind", "no_bonus", "own_bonus", "bonus_set",
    "full_flush", "seven_pairs", "half_flush", "mixed_terminals", "concealed", "seven_flowers",
)  # fmt: skip

# `hands.limit` codes, in the engine's `Limit` order.
LIMIT_HANDS = (
    "four_concealed_pungs", "big_three_dragons", "small_four_winds", "big_four_winds", "all_honours",
    "all_terminals", "nine_gates", "thirteen_orphans", "four_kongs", "jade_dragon", "ruby_dragon",
    "pearl_dragon", "heavenly_hand", "earthly_hand", "thirteen_unrelated", "fourteen_unrelated",
    "all_unrelated", "eight_flowers", "kong_on_kong",
)  # fmt: skip

# Fan values reported one by one in the distribution; more is pooled as `fan_10plus`.
_FAN_BINS = 10

# Each house rule whose effect is an event, and the metrics that count how often it applied
# (``simharness rules hongkong`` shows them).
RULE_COUNTERS = {
    "min_fan": ("refused_hand_rate",),
    "bao": ("bao_share",),
    "multi_win": ("multi_win_rate",),
    "mistake_rate": ("false_win_rate",),
    "false_win_penalty": ("false_win_rate",),
    "bust_ends_game": ("bust_rate",),
    "seven_pairs_fan": ("seven_pairs_share",),
    "seven_pairs_allow_four": ("seven_pairs_share",),
    "unrelated_hands": ("unrelated_share",),
    "jade_ruby_pearl": ("jade_ruby_pearl_share",),
    "kong_on_kong_limit": ("kong_on_kong_share",),
    "seven_flowers_fan": ("flowers_win_share",),
    "all_flowers_instant_win": ("flowers_win_share",),
    "dealer_double": ("dealer_win_rate",),
}
# Limit hands (``LIMIT_HANDS``) and fan items (``FAN_ITEMS``) behind a counter of wins.
_LIMITS = {
    "unrelated_share": ("thirteen_unrelated", "fourteen_unrelated", "all_unrelated"),
    "jade_ruby_pearl_share": ("jade_dragon", "ruby_dragon", "pearl_dragon"),
    "kong_on_kong_share": ("kong_on_kong",),
}
FAN_BINS = (*(f"fan_{f}" for f in range(_FAN_BINS)), f"fan_{_FAN_BINS}plus")
DISTRIBUTIONS = {"fan of a non-limit win": FAN_BINS}

METRICS = (
    Term("win_rate", "win rate", "% of hands", "Hands won over hands played"),
    Term(
        "deal_in_rate",
        "deal-in rate",
        "% of hands",
        "Hands whose win was on the player's discard or added kong",
    ),
    Term(
        "claims_per_hand",
        "claims",
        "count per hand",
        "Sets claimed (chow, pung, exposed kong) per hand played",
    ),
    Term("limit_hand_rate", "limit-hand rate", "% of hands", "Hands won with a limit hand"),
    Term(
        "refused_per_hand", "refused wins", "count per hand", "Complete hands the minimum fan did not let win"
    ),
    Term("self_draw_share", "self-draw share", "% of wins", "Wins by self-draw"),
    Term("mean_fan", "mean fan", "fan per win", "Fan of a win, bonus tiles included (limit hands left out)"),
    Term("draw_rate", "exhaustive draw rate", "% of hands", "Hands that ended in an exhaustive draw"),
    Term("limit_hand_share", "limit-hand share", "% of wins", "Wins that were limit hands"),
    Term("bonus_fan_share", "bonus-tile fan", "% of the winner's fan", "Fan from flowers and seasons"),
    *(
        Term(f"fan_{f}", f"wins of {f} fan", "% of wins", f"Non-limit wins of exactly {f} fan")
        for f in range(_FAN_BINS)
    ),
    Term(
        f"fan_{_FAN_BINS}plus",
        f"wins of {_FAN_BINS}+ fan",
        "% of wins",
        f"Non-limit wins of {_FAN_BINS} fan or more",
    ),
    *DEALER,
    Term(
        "refused_hand_rate",
        "hands with a refused win",
        "% of hands",
        "Hands in which the minimum fan refused a complete hand",
    ),
    Term("bao_share", "包 wins", "% of wins", "Wins paid by a liable player alone (包)"),
    Term(
        "multi_win_rate", "multiple-win rate", "% of hands", "Hands won by two or more players on one discard"
    ),
    Term("false_win_rate", "false wins", "% of hands", "Hands ended by a false win (mistake injection)"),
    Term("seven_pairs_share", "seven pairs", "% of wins", "Wins as seven pairs"),
    Term("unrelated_share", "unrelated hands", "% of wins", "Wins as thirteen, fourteen or all unrelated"),
    Term(
        "jade_ruby_pearl_share",
        "jade, ruby or pearl dragon",
        "% of wins",
        "Wins as one of the dragon limit hands",
    ),
    Term("kong_on_kong_share", "kong on kong", "% of wins", "Wins as the kong-on-kong limit hand"),
    Term(
        "flowers_win_share", "flower wins", "% of wins", "Wins with seven flowers (fan item) or eight flowers"
    ),
)


def _in_play(v: str, hands: pl.DataFrame, won: pl.DataFrame, games: pl.DataFrame) -> list[dict[str, Any]]:
    """The dealer's advantage per hand and how often each rule of :data:`RULE_COUNTERS` applied."""
    is_win = pl.col("outcome").is_in(WINS)
    rows = dealer_rows(v, hands, is_win & (pl.col("winner") == pl.col("dealer")), games=games)
    first = hands.filter(pl.col("claim") == 0)
    for key, flag in (
        ("refused_hand_rate", first["refused"] > 0),
        ("multi_win_rate", first["winners"] >= 2),
        ("false_win_rate", first["outcome"] == OUTCOME["false_win"]),
    ):
        rows.append(row(v, "all", key, by_deal(flag, first["deal"])))
    items = won["items"].cast(pl.Int64)
    rows.append(row(v, "all", "bao_share", by_deal(won["liable"] >= 0, won["deal"])))
    seven = (items // (1 << FAN_ITEMS.index("seven_pairs"))) % 2 == 1
    rows.append(row(v, "all", "seven_pairs_share", by_deal(seven, won["deal"])))
    for key, names in _LIMITS.items():
        flag = won["limit"].is_in([LIMIT_HANDS.index(n) for n in names])
        rows.append(row(v, "all", key, by_deal(flag, won["deal"])))
    flowers = ((items // (1 << FAN_ITEMS.index("seven_flowers"))) % 2 == 1) | (
        won["limit"] == LIMIT_HANDS.index("eight_flowers")
    )
    rows.append(row(v, "all", "flowers_win_share", by_deal(flowers, won["deal"])))
    return rows


def summary_metrics(run: Run) -> pl.DataFrame:
    """Long-form hand-level metrics (columns variant, strategy, metric, estimate, lo, hi, n).

    Per variant and strategy, per hand played: ``win_rate``, ``deal_in_rate`` (discards or
    added kongs won on), ``claims_per_hand`` (claimed sets: a count), ``limit_hand_rate`` and
    ``refused_per_hand`` (complete hands not allowed to win under the minimum fan: a count); per
    win: ``self_draw_share`` and ``mean_fan`` (limit hands excluded). Per variant (strategy
    ``all``): ``draw_rate`` (exhaustive draws per hand), ``limit_hand_share`` and
    ``bonus_fan_share`` (per win, the share of its fan from bonus tiles; limit hands excluded),
    and the fan distribution of wins ``fan_0`` ... ``fan_9``, ``fan_10plus`` (shares of non-limit
    wins).

    Intervals are 95% cluster-robust with the deal as cluster (the hands of one game and the
    duplicate tables of one deal are not independent); ``n`` is the number of deals.
    """
    players = run.table("players")
    hands = run.table("hands")
    games = run.table("games").select("variant", "game", pl.col("hands").alias("game_hands"))
    slots = players.select("variant", "player", "strategy").unique()
    wins = hands.filter(pl.col("winner") >= 0, pl.col("outcome") != OUTCOME["false_win"]).join(
        slots, left_on=["variant", "winner_player"], right_on=["variant", "player"], how="left"
    )
    players = players.join(games, on=["variant", "game"], how="left")
    rows: list[dict[str, Any]] = []
    per_hand = {
        "win_rate": "wins",
        "deal_in_rate": "deal_ins",
        "claims_per_hand": "claims",
        "limit_hand_rate": "limit_hands",
        "refused_per_hand": "refused",
    }
    for (v, s), mine in sorted(players.group_by("variant", "strategy"), key=lambda g: g[0]):
        for metric, col in per_hand.items():
            rate = mine[col].cast(pl.Float64) / mine["game_hands"]
            rows.append(row(v, s, metric, by_deal(rate, mine["deal"])))
        won = wins.filter((pl.col("variant") == v) & (pl.col("strategy") == s))
        rows.append(
            row(v, s, "self_draw_share", by_deal(won["outcome"] == OUTCOME["self_draw"], won["deal"]))
        )
        plain = won.filter(pl.col("limit") < 0)
        rows.append(row(v, s, "mean_fan", by_deal(plain["fan"], plain["deal"])))
    for (v,), first in sorted(hands.filter(pl.col("claim") == 0).group_by("variant"), key=lambda g: g[0]):
        rows.append(
            row(v, "all", "draw_rate", by_deal(first["outcome"] == OUTCOME["exhaustive_draw"], first["deal"]))
        )
        won = wins.filter(pl.col("variant") == v)
        rows.append(row(v, "all", "limit_hand_share", by_deal(won["limit"] >= 0, won["deal"])))
        plain = won.filter(pl.col("limit") < 0)
        share = plain["bonus_fan"].cast(pl.Float64) / plain["fan"].cast(pl.Float64).clip(lower_bound=1)
        rows.append(row(v, "all", "bonus_fan_share", by_deal(share, plain["deal"])))
        for f in range(_FAN_BINS):
            rows.append(row(v, "all", f"fan_{f}", by_deal(plain["fan"] == f, plain["deal"])))
        rows.append(row(v, "all", f"fan_{_FAN_BINS}plus", by_deal(plain["fan"] >= _FAN_BINS, plain["deal"])))
        mine = run.table("games").filter(pl.col("variant") == v)
        rows.extend(_in_play(v, hands.filter(pl.col("variant") == v), won, mine))
    return frame(rows)
