"""Trump mahjong's summary metrics: a run's ``hands`` and ``players`` tables as long-form estimates
with confidence intervals."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from simharness import _engine, engine
from simharness.games.estimates import Deals, Run, by_deal, dealer_rows, frame, han_rows, row, winner_groups
from simharness.stats.balance import has_facts
from simharness.stats.keys import GameKeys, group_codes, members, variant_index
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
    keys = GameKeys(games)
    variants = keys.variants
    game_hands = np.empty(games.height)
    game_hands[keys.row] = games["hands"].cast(pl.Float64).to_numpy()
    found, at = keys.find(players)
    played = np.full(players.height, np.nan)  # hands of each player's game
    played[found] = game_hands[at]
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
    groups, group = group_codes(players, ["variant", "strategy"])
    # Each (variant, seat slot)'s group, for the winner of a hand.
    hand_variant = variant_index(hands, variants)
    won_group = winner_groups(players, group, hands, hand_variant, variants)
    rows_of, wins_of = members(group, len(groups)), members(won_group, len(groups))
    counts = {c: players[c].to_numpy() for _metric, c in per_hand_rates}
    riichi, riichi_wins = players["riichi"].to_numpy(), players["riichi_wins"].to_numpy()
    han, points = hands["han"].to_numpy(), hands["points"].to_numpy()
    claims = hands["claims"].to_numpy()
    deal = players["deal"].to_numpy()
    hand_deal = hands["deal"].to_numpy()
    outcome = hands["outcome"].to_numpy()
    rows: list[dict[str, Any]] = []
    for i in sorted(range(len(groups)), key=lambda i: groups[i]):
        (v, s), mine = groups[i], rows_of[i]
        deals = Deals.of(deal[mine])
        for metric, col in per_hand_rates:
            rate = counts[col][mine].astype(float) / played[mine]
            rows.append(row(v, s, metric, by_deal(rate, deals)))
        declared = mine[riichi[mine] > 0]
        if len(declared):  # a strategy that never declares has no success rate
            success = riichi_wins[declared].astype(float) / riichi[declared]
            rows.append(row(v, s, "riichi_success", by_deal(success, deal[declared])))
        won = wins_of[i]
        deals = Deals.of(hand_deal[won])
        rows.append(row(v, s, "tsumo_share", by_deal(outcome[won] == OUTCOME["tsumo"], deals)))
        rows.append(row(v, s, "mean_han", by_deal(han[won], deals)))
        rows.append(row(v, s, "mean_win_points", by_deal(points[won], deals)))
    first_claim = hands["claim"].to_numpy() == 0
    is_win = (outcome == OUTCOME["tsumo"]) | (outcome == OUTCOME["ron"])
    fast = has_facts(games.columns)
    # Variants with hands (an unknown variant's hands, −1, in none).
    logged = np.bincount(hand_variant[first_claim] + 1, minlength=len(variants) + 1)[1:] > 0
    for j in sorted(np.flatnonzero(logged).tolist(), key=lambda j: variants[j]):
        v = variants[j]
        first = np.flatnonzero(first_claim & (hand_variant == j))
        deals = Deals.of(hand_deal[first])
        drawn = outcome[first] == OUTCOME["exhaustive_draw"]
        rows.append(row(v, "all", "draw_rate", by_deal(drawn, deals)))
        # The dealer's keep comes from the log (a chombo's replay is the same dealer's, not a keep).
        rows.extend(
            dealer_rows(
                v,
                # The games' counts need no hands (an older run's come from them).
                hands.clear() if fast else hands.filter(pl.col("variant") == v),
                pl.col("outcome").is_in([OUTCOME["tsumo"], OUTCOME["ron"]])
                & (pl.col("winner") == pl.col("dealer")),
                keep=False,
                games=games.filter(pl.col("variant") == v),
            )
        )
        keeps = hands["dealer_keeps"].to_numpy()[first]
        rows.append(row(v, "all", "dealer_keep_rate", by_deal(keeps, deals)))
        rows.append(row(v, "all", "multi_ron_rate", by_deal(claims[first] >= 2, deals)))
        won = np.flatnonzero(is_win & (hand_variant == j))
        yaku = hands["yaku"].cast(pl.Int64).to_numpy()[won]
        deals = Deals.of(hand_deal[won])
        rows.append(row(v, "all", "held_joker_share", by_deal(hands["jokers"].to_numpy()[won] > 0, deals)))
        for key, name in (("chinitsu_share", "chinitsu"), ("double_riichi_share", "double_riichi")):
            flag = (yaku // (1 << YAKU.index(name))) % 2 == 1
            rows.append(row(v, "all", key, by_deal(flag, deals)))
        rows.extend(han_rows(v, hands["han"][won].cast(pl.Int64), deals))
    return frame(rows)
