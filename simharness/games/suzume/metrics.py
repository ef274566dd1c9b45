"""Suzume-jong's summary metrics: a run's ``hands`` and ``players`` tables as long-form estimates
with confidence intervals."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from simharness import engine
from simharness.games import estimates
from simharness.games.estimates import Deals, Run, by_deal, dealer_rows, frame, row, winner_groups
from simharness.stats.balance import has_facts
from simharness.stats.keys import GameKeys, dense, group_codes, members, variant_index
from simharness.vocabulary import DEALER, Term

# `hands.yakuman` codes (see `simharness schema suzume`).
YAKUMAN = {code: name for code, name in enumerate(engine.labels("suzume", "hands", "yakuman")) if code}
OUTCOME = engine.codes("suzume", "hands", "outcome")

# The names players use; the harness's rank-1 share is the 1st-place rate, a hand win is per hand.
# Each house rule whose effect is an event, and the metrics that count how often it applied
# (``simharness rules suzume`` shows them).
RULE_COUNTERS = {
    "multi_ron": ("multi_ron_rate",),
    "red_tiles": ("red_share",),
    "red_includes_chun": ("red_share",),
    "red_value": ("red_share",),
    "dora": ("dora_share",),
    "dora_value": ("dora_share",),
    "tanyao_value": ("tanyao_share",),
    "chanta_value": ("chanta_share",),
    "dealer_bonus": ("dealer_win_rate",),
    "all_green_value": ("all_green_rate",),
    "chinyao_value": ("chinyao_rate",),
    "super_red_value": ("super_red_rate",),
}
# The points of a win, in bins (Suzume-jong's hands score from a few points to dozens).
POINT_BINS = ("points_1_4", "points_5_9", "points_10_14", "points_15_19", "points_20_29", "points_30plus")
_POINT_EDGES = ((1, 4), (5, 9), (10, 14), (15, 19), (20, 29), (30, None))
DISTRIBUTIONS = {"points of a win": POINT_BINS}
# Per hand played: each metric's column of the players table.
PER_HAND = {"win_rate": "wins", "deal_in_rate": "deal_ins", "yakuman_rate": "yakuman"}

METRICS = (
    Term("win_rate", "win rate", "% of hands", "Hands won over hands played"),
    Term("deal_in_rate", "deal-in rate", "% of hands", "Hands whose discard was ronned by anyone"),
    Term("yakuman_rate", "yakuman rate", "% of hands", "Hands won with a yakuman"),
    Term("tsumo_share", "tsumo share", "% of wins", "Wins by tsumo"),
    Term(
        "mean_win_points",
        "average win",
        "points per win",
        "Points of a win, dealer bonus included, before the floor",
    ),
    Term("draw_rate", "exhaustive draw rate", "% of hands", "Hands that ended in an exhaustive draw"),
    Term(
        "multi_ron_rate", "multiple-ron rate", "% of hands", "Hands won by two or more players on one discard"
    ),
    *(
        Term(
            f"{name}_rate",
            f"{name.replace('_', ' ')} rate",
            "% of hands",
            f"Hands won with {name.replace('_', ' ')}",
        )
        for name in YAKUMAN.values()
    ),
    *DEALER[::2],
    Term("red_share", "red tiles", "% of wins", "Wins whose hand held a red tile (rule red_tiles)"),
    Term("dora_share", "dora", "% of wins", "Wins whose hand held dora"),
    Term("tanyao_share", "tanyao", "% of wins", "Wins scored with tanyao"),
    Term("chanta_share", "chanta", "% of wins", "Wins scored with chanta"),
    *(
        Term(
            k,
            f"wins of {lo}{f'–{hi}' if hi else '+'} points",
            "% of wins",
            f"Wins worth {lo}{f' to {hi}' if hi else ' or more'} points",
        )
        for k, (lo, hi) in zip(POINT_BINS, _POINT_EDGES, strict=True)
    ),
)
# As in Riichi: deal-in rate (risk) against win rate per hand (reward).
PROFILE = ("deal_in_rate", "win_rate")


def summary_metrics(run: Run) -> pl.DataFrame:
    """Long-form hand-level metrics (columns variant, strategy, metric, estimate, lo, hi, n).

    Per variant and strategy: ``win_rate`` and ``deal_in_rate`` (per hand played; a deal-in
    is a discard ronned by anyone), ``tsumo_share`` (of wins; ron share = 1 − it),
    ``mean_win_points`` (points of a win, dealer bonus included, before the 0-floor) and
    ``yakuman_rate`` (yakuman wins per hand played). Per variant (strategy ``all``):
    ``draw_rate`` (exhaustive draws), ``multi_ron_rate`` and ``<yakuman>_rate`` for each yakuman of
    :data:`YAKUMAN` (per hand). Game wins, final point distributions and seat advantage (by
    ``dealer_order``) are in the harness's own summary.

    Intervals are 95% cluster-robust (``simharness.stats.intervals.cluster_mean_ci``) with the
    deal as cluster, since the hands of one game, and the duplicate tables of one deal, are not
    independent; ``n`` is the number of deals.
    """
    players = run.table("players")
    hands = run.table("hands")
    games = run.table("games")
    variants = GameKeys(games).variants
    groups, group = group_codes(players, ["variant", "strategy"])
    hand_variant = variant_index(hands, variants)
    won_group = winner_groups(players, group, hands, hand_variant, variants)
    rows_of, wins_of = members(group, len(groups)), members(won_group, len(groups))
    outcome = hands["outcome"].to_numpy()
    deal = players["deal"].to_numpy()
    played = players["hands"].cast(pl.Float64).to_numpy()
    hand_deal = hands["deal"].to_numpy()
    points = hands["points"].to_numpy()
    per_hand = {m: players[c].to_numpy() for m, c in PER_HAND.items()}
    rows: list[dict[str, Any]] = []
    for i in sorted(range(len(groups)), key=lambda i: groups[i]):
        (v, s), mine = groups[i], rows_of[i]
        deals = Deals.of(deal[mine])
        for metric, count in per_hand.items():
            rows.append(row(v, s, metric, by_deal(count[mine] / played[mine], deals)))
        won = wins_of[i]
        deals = Deals.of(hand_deal[won])
        tsumo = outcome[won] == OUTCOME["tsumo"]
        rows.append(row(v, s, "tsumo_share", by_deal(tsumo, deals)))
        rows.append(row(v, s, "mean_win_points", by_deal(points[won], deals)))
    claims = hands["claims"].to_numpy()
    first_claim = hands["claim"].to_numpy() == 0
    yakuman = hands["yakuman"].to_numpy()
    fast = has_facts(games.columns)
    # Variants with hands (an unknown variant's hands, −1, in none).
    logged = np.bincount(hand_variant[first_claim] + 1, minlength=len(variants) + 1)[1:] > 0
    for j in sorted(np.flatnonzero(logged).tolist(), key=lambda j: variants[j]):
        v = variants[j]
        first = np.flatnonzero(first_claim & (hand_variant == j))
        deals = Deals.of(hand_deal[first])
        rows.append(row(v, "all", "draw_rate", by_deal(claims[first] == 0, deals)))
        rows.append(row(v, "all", "multi_ron_rate", by_deal(claims[first] > 1, deals)))
        # Per hand (a hand is one row per claim): how many of its wins were each yakuman.
        mine = np.flatnonzero(hand_variant == j)
        game = hands["game"].to_numpy()[mine].astype(np.int64)
        hand = hands["hand"].to_numpy()[mine].astype(np.int64)
        _keys, hand_index, _rows = dense((game - game.min()) * (int(hand.max()) + 1) + hand)
        hand_deals = np.empty(len(_keys), dtype=np.int64)
        hand_deals[hand_index] = hand_deal[mine]
        hand_deals_of = Deals.of(hand_deals)
        for code, name in YAKUMAN.items():
            count = np.bincount(hand_index, weights=yakuman[mine] == code, minlength=len(_keys))
            rows.append(row(v, "all", f"{name}_rate", by_deal(count, hand_deals_of)))
        # The dealer rotates every hand here: no dealer's keep rate.
        rows.extend(
            dealer_rows(
                v,
                # The games' counts need no hands (an older run's come from them).
                hands.clear() if fast else hands.filter(pl.col("variant") == v),
                (pl.col("claims") > 0) & (pl.col("winner") == pl.col("dealer")),
                keep=False,
                games=games.filter(pl.col("variant") == v),
            )
        )
        won = np.flatnonzero((claims > 0) & (hand_variant == j))
        deals = Deals.of(hand_deal[won])
        for key, col in (
            ("red_share", "red"),
            ("dora_share", "dora"),
            ("tanyao_share", "tanyao"),
            ("chanta_share", "chanta"),
        ):
            rows.append(row(v, "all", key, by_deal(hands[col].to_numpy()[won] > 0, deals)))
        top = int(points[won].max(initial=0))
        for key, (lo, hi) in zip(POINT_BINS, _POINT_EDGES, strict=True):
            flag = (points[won] >= lo) & (points[won] <= (hi if hi is not None else top))
            rows.append(row(v, "all", key, by_deal(flag, deals)))
    return frame(rows)


def notable_hand(hands: pl.DataFrame) -> pl.DataFrame:
    """Per variant the game holding the biggest win: a yakuman if there is one, else the most points
    (Suzume-jong has no limit hands); columns variant, game, hand, score (yakuman first, then points:
    larger is bigger) and why. Ties: the earliest game."""
    best = (
        hands.filter(pl.col("claims") > 0)
        .with_columns((pl.col("yakuman") > 0).alias("is_yakuman"))
        # Only a variant's biggest wins can come first: sort those alone.
        .filter(pl.col("is_yakuman") == pl.col("is_yakuman").max().over("variant"))
        .filter(pl.col("points") == pl.col("points").max().over("variant"))
        .sort("is_yakuman", "points", "game", "hand", descending=[True, True, False, False])
        .unique("variant", keep="first", maintain_order=True)
    )
    rows = [
        {
            "variant": r["variant"],
            "game": r["game"],
            "hand": r["hand"],
            "score": r["is_yakuman"] * 1e6 + r["points"],
            "why": (
                f"{YAKUMAN.get(r['yakuman'], 'yakuman').replace('_', ' ')} (yakuman"
                if r["is_yakuman"]
                else "no yakuman: the highest-scoring win (Suzume-jong has no limit hands"
            )
            + f", {r['points']} points) won by seat {r['winner']} in hand {r['hand'] + 1}",
        }
        for r in best.iter_rows(named=True)
    ]
    return pl.DataFrame(rows, schema=estimates.NOTABLE_HAND)
