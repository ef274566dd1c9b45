"""Trump mahjong's summary metrics: a run's ``hands`` and ``players`` tables as long-form estimates
with confidence intervals."""

from __future__ import annotations

from typing import Any

import polars as pl

from simharness import _engine, engine
from simharness.games.estimates import Run, by_deal, dealer_rows, frame, han_rows, row
from simharness.vocabulary import DEALER, HAN, HAN_BINS, Term

# `hands.yaku` bit i is yaku YAKU[i] (see `simharness schema trump`), named by the engine.
YAKU = list(_engine.trump_yaku_names())
# `hands.outcome`: each way a hand ends → its code, named by the engine.
OUTCOME = engine.codes("trump", "hands", "outcome")

# Each house rule whose effect is an event, and the metrics that count how often it applied
# (``simharness rules trump`` shows them).
RULE_COUNTERS = {
    "multi_ron": ("multi_ron_rate",),
    "end_on_zero": ("bust_rate",),
    "joker_keep_allowed": ("held_joker_share",),
    "held_joker_han": ("held_joker_share",),
    "chinitsu": ("chinitsu_share",),
    "double_riichi_stacks": ("double_riichi_share",),
    "mistake_rate": ("chombo_rate",),
    "chombo_penalty": ("chombo_rate",),
    "dealer_multiplier": ("dealer_win_rate",),
}
# The han of a win, one bin per han up to 12 and 13 or more.
DISTRIBUTIONS = {"han of a win": HAN_BINS}

METRICS = (
    Term("win_rate", "win rate", "% of hands", "Hands won over hands played"),
    Term("deal_in_rate", "deal-in rate", "% of hands", "Hands whose ron was on the player's discard"),
    Term("riichi_rate", "riichi rate", "% of hands", "Hands with a riichi declaration"),
    Term(
        "jokers_per_hand", "Jokers set aside", "count per hand", "Jokers the player set aside per hand played"
    ),
    Term("kokushi_rate", "kokushi rate", "% of hands", "Hands won with kokushi"),
    Term("chombo_rate", "chombo rate", "% of hands", "Hands with a false tsumo (mistake injection)"),
    Term(
        "riichi_success",
        "riichi success",
        "% of riichi declarations",
        "Riichi declarations that won the hand",
    ),
    Term("tsumo_share", "tsumo share", "% of wins", "Wins by tsumo"),
    Term("mean_han", "mean han", "han per win", "Han of a win"),
    Term("mean_win_points", "average win", "points per win", "The table value P of a win"),
    Term("draw_rate", "exhaustive draw rate", "% of hands", "Hands that ended in an exhaustive draw"),
    *DEALER,
    Term(
        "multi_ron_rate", "multiple-ron rate", "% of hands", "Hands won by two or more players on one discard"
    ),
    Term("held_joker_share", "held Joker wins", "% of wins", "Wins whose hand held a Joker"),
    Term("chinitsu_share", "chinitsu", "% of wins", "Wins with chinitsu"),
    Term("double_riichi_share", "double riichi", "% of wins", "Wins with double riichi"),
    *HAN,
)

__all__ = ["METRICS", "YAKU", "Run", "summary_metrics"]


def summary_metrics(run: Run) -> pl.DataFrame:
    """Long-form metrics (columns variant, strategy, metric, estimate, lo, hi, n).

    Per variant and strategy, per hand played: ``win_rate``, ``deal_in_rate``, ``riichi_rate``,
    ``jokers_per_hand`` (Jokers set aside: a count) and ``kokushi_rate``; ``riichi_success`` (wins with
    riichi per riichi, over the games with a declaration; absent for a strategy that never
    declares); per win: ``tsumo_share`` (ron share = 1 − it),
    ``mean_han`` and ``mean_win_points`` (the table value P); ``chombo_rate`` (false tsumo per hand)
    when the run has chombos (``mistake_rate`` > 0). Per variant (strategy ``all``), per hand:
    ``draw_rate`` (exhaustive draws) and ``dealer_keep_rate``. (Games ended by a bust are the
    balance scorecard's ``bust_rate``.)

    Intervals are 95% cluster-robust with the deal as cluster (the hands of one game, and the
    duplicate tables of one deal, are not independent); ``n`` is the number of deals.
    """
    players = run.table("players")
    hands = run.table("hands")
    games = run.table("games")
    slots = players.select("variant", "player", "strategy").unique()
    wins = hands.filter(pl.col("claims") > 0).join(
        slots, left_on=["variant", "winner_player"], right_on=["variant", "player"], how="left"
    )
    played = players.join(games.select("variant", "game", "hands"), on=["variant", "game"], how="left")
    per_hand_rates = [
        ("win_rate", "wins"),
        ("deal_in_rate", "deal_ins"),
        ("riichi_rate", "riichi"),
        ("jokers_per_hand", "jokers"),
        ("kokushi_rate", "kokushi"),
    ]
    # Only mistake injection makes chombos: no column of zeros otherwise (nor for runs written
    # before the column existed).
    if "chombo" in players.columns and players["chombo"].sum():
        per_hand_rates.append(("chombo_rate", "chombo"))
    rows: list[dict[str, Any]] = []
    for (v, s), mine in sorted(played.group_by("variant", "strategy"), key=lambda g: g[0]):
        per_hand = mine.select(
            "deal", *(pl.col(c).cast(pl.Float64) / pl.col("hands") for _, c in per_hand_rates)
        )
        for metric, col in per_hand_rates:
            rows.append(row(v, s, metric, by_deal(per_hand[col], per_hand["deal"])))
        declared = mine.filter(pl.col("riichi") > 0)
        if declared.height:  # a strategy that never declares has no success rate
            rows.append(
                row(
                    v,
                    s,
                    "riichi_success",
                    by_deal(declared["riichi_wins"].cast(pl.Float64) / declared["riichi"], declared["deal"]),
                )
            )
        won = wins.filter((pl.col("variant") == v) & (pl.col("strategy") == s))
        rows.append(row(v, s, "tsumo_share", by_deal(won["outcome"] == OUTCOME["tsumo"], won["deal"])))
        rows.append(row(v, s, "mean_han", by_deal(won["han"], won["deal"])))
        rows.append(row(v, s, "mean_win_points", by_deal(won["points"], won["deal"])))
    for (v,), first in sorted(hands.filter(pl.col("claim") == 0).group_by("variant"), key=lambda g: g[0]):
        rows.append(
            row(v, "all", "draw_rate", by_deal(first["outcome"] == OUTCOME["exhaustive_draw"], first["deal"]))
        )
        mine = hands.filter(pl.col("variant") == v)
        is_win = pl.col("outcome").is_in([OUTCOME["tsumo"], OUTCOME["ron"]])
        # The dealer's keep comes from the log (a chombo's replay is the same dealer's, not a keep).
        rows.extend(
            dealer_rows(
                v,
                mine,
                is_win & (pl.col("winner") == pl.col("dealer")),
                keep=False,
                games=games.filter(pl.col("variant") == v),
            )
        )
        rows.append(row(v, "all", "dealer_keep_rate", by_deal(first["dealer_keeps"], first["deal"])))
        rows.append(row(v, "all", "multi_ron_rate", by_deal(first["claims"] >= 2, first["deal"])))
        won = mine.filter(is_win)
        yaku = won["yaku"].cast(pl.Int64)
        rows.append(row(v, "all", "held_joker_share", by_deal(won["jokers"] > 0, won["deal"])))
        for key, name in (("chinitsu_share", "chinitsu"), ("double_riichi_share", "double_riichi")):
            flag = (yaku // (1 << YAKU.index(name))) % 2 == 1
            rows.append(row(v, "all", key, by_deal(flag, won["deal"])))
        rows.extend(han_rows(v, won["han"].cast(pl.Int64), won["deal"]))
    return frame(rows)
