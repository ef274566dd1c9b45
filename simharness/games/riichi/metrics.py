"""The analyst's Riichi statistics per variant and strategy, each with a 95% CI.

Rates are ratios of sums over the `players` table (wins over hands played, deal-ins over hands,
…). Their CIs are cluster-robust: the unit is the deal (the four tables of a duplicate deal, or one
game), whose rows are correlated; the ratio's variance is the linearised sandwich over deals with a
t interval (:func:`simharness.stats.intervals.cluster_ratio_ci`). Paired differences between
strategies (duplicate play) compare each strategy's mean per deal with the first strategy's,
through ``simharness.stats.paired``.

Metrics (``metric`` column): ``avg_rank``, ``rank_1`` … ``rank_4`` (share of games; up to
``rank_3`` in three-player runs), ``win_rate``
(和了率, wins per hand), ``deal_in_rate`` (放銃率), ``riichi_rate``, ``call_rate`` (副露率, hands with
an open call), ``tsumo_share`` (tsumo wins / wins), ``mean_win_points`` (平均打点, hand value before
honba and deposits), ``mean_deal_in_cost``, ``draw_rate`` (exhaustive draws per hand),
``tenpai_at_draw`` (tenpai share at exhaustive draws), ``busted_rate`` (the player's games ending
below zero),
``yakuman_rate`` (per hand), ``chombo_rate`` (fouls shown per hand, rules ``furiten_riichi`` and
``kara_riichi_chombo``), ``final_points``, ``score`` (uma- and oka-adjusted, thousands); the
strategy ``all`` pools every player of a variant (without the zero-sum metrics); and in
duplicate runs ``paired_score`` / ``paired_points`` / ``paired_rank``: the strategy minus the
lineup's first strategy, paired by deal.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import polars as pl

from simharness import engine
from simharness.games import estimates
from simharness.games.estimates import by_deal, dealer_rows, han_rows, paired_by_deal, ratio_by_deal, row
from simharness.games.riichi.scoring import yaku_names
from simharness.report.frames import RunLike, players_frame, variant_names
from simharness.stats.paired import per_deal
from simharness.vocabulary import DEALER, HAN, HAN_BINS, Term

COLUMNS = ("variant", "strategy", "metric", "estimate", "lo", "hi", "n")

# metric → (numerator, denominator); a denominator of None means per game (one row each).
RATIOS: dict[str, tuple[str | pl.Expr, str | None]] = {
    "avg_rank": ("rank", None),
    "win_rate": ("wins", "hands"),
    "deal_in_rate": ("deal_ins", "hands"),
    "riichi_rate": ("riichi", "hands"),
    "call_rate": ("call_hands", "hands"),
    "tsumo_share": ("tsumo_wins", "wins"),
    "mean_win_points": ("win_points", "wins"),
    "mean_deal_in_cost": ("deal_in_points", "deal_ins"),
    "draw_rate": ("draws", "hands"),
    "tenpai_at_draw": ("tenpai_draws", "draws"),
    "busted_rate": ("busted", None),
    "yakuman_rate": ("yakuman", "hands"),
    "chombo_rate": ("chombo", "hands"),
    "final_points": ("final_points", None),
    "score": ("score", None),
    **{f"rank_{r}": (pl.col("rank") == r, None) for r in range(1, 5)},
}


# The names players use (和了率 is per hand; the summary's rank-1 share is the 1st-place rate).
# The han of a win, one bin per han up to 12 and 13 or more (yakuman and counted yakuman).
DISTRIBUTIONS = {"han of a win": HAN_BINS}

METRICS = (
    Term("avg_rank", "average rank", "rank", "Mean final place (1 = first; ties broken by seat)"),
    *(
        Term(f"rank_{r}", f"{o} place", "% of games", f"Games finished in {o} place (ties broken by seat)")
        for r, o in ((1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"))
    ),
    Term("win_rate", "win rate", "% of hands", "Hands won (ron or tsumo) over hands played (和了率)"),
    Term(
        "deal_in_rate", "deal-in rate", "% of hands", "Hands whose ron was on the player's discard (放銃率)"
    ),
    Term("riichi_rate", "riichi rate", "% of hands", "Hands with an accepted riichi declaration"),
    Term("call_rate", "call rate", "% of hands", "Hands in which the player made an open call (副露率)"),
    Term("tsumo_share", "tsumo share", "% of wins", "Wins by tsumo"),
    Term(
        "mean_win_points", "average win", "points per win", "Hand value of a win, before honba and deposits"
    ),
    Term(
        "mean_deal_in_cost",
        "average deal-in",
        "points per deal-in",
        "Points paid on a deal-in, honba included",
    ),
    Term("draw_rate", "exhaustive draw rate", "% of hands", "Hands that ended in an exhaustive draw"),
    Term(
        "tenpai_at_draw",
        "tenpai at draw",
        "% of exhaustive draws",
        "Exhaustive draws the player was tenpai at",
    ),
    Term("busted_rate", "busted", "% of games", "Games the player ended out of points (the tobi rule)"),
    Term("yakuman_rate", "yakuman rate", "% of hands", "Hands won with a yakuman"),
    Term(
        "chombo_rate", "chombo rate", "% of hands", "Hands with a foul shown (furiten or empty-wait riichi)"
    ),
    Term("score", "score", "thousands of points", "(final points − return points)/1000 + uma + oka"),
    Term(
        "paired_score",
        "paired score difference",
        "thousands of points",
        "Score minus the first strategy's, per deal",
    ),
    Term(
        "paired_points",
        "paired points difference",
        "points",
        "Final points minus the first strategy's, per deal",
    ),
    Term("paired_rank", "paired rank difference", "rank", "Final place minus the first strategy's, per deal"),
    *DEALER,
    Term(
        "open_tanyao_share",
        "open tanyao",
        "% of wins",
        "Wins with tanyao whose (first) winner had called (kuitan)",
    ),
    Term("ippatsu_share", "ippatsu", "% of wins", "Wins with ippatsu"),
    Term("double_riichi_share", "double riichi", "% of wins", "Wins with double riichi"),
    Term("renhou_share", "renhou", "% of wins", "Wins with renhou (as a yaku or a yakuman)"),
    Term("local_yaku_share", "local yaku", "% of wins", "Wins with a local yaku (rule local_yaku)"),
    Term(
        "multi_ron_rate", "multiple-ron rate", "% of hands", "Hands won by two or more players on one discard"
    ),
    Term("sanchahou_rate", "triple-ron draw", "% of hands", "Hands aborted by three rons on one discard"),
    Term("nagashi_rate", "nagashi mangan", "% of hands", "Hands ended by nagashi mangan"),
    Term("kyuushu_rate", "nine-terminal draw", "% of hands", "Hands aborted by kyuushu kyuuhai"),
    Term("suucha_riichi_rate", "four-riichi draw", "% of hands", "Hands aborted by four riichi"),
    Term("suufon_renda_rate", "four-wind draw", "% of hands", "Hands aborted by four same wind discards"),
    Term("suukaikan_rate", "four-kan draw", "% of hands", "Hands aborted by four kans of several players"),
    Term(
        "chombo_hand_rate",
        "chombo hands",
        "% of hands",
        "Hands with a foul shown (furiten or empty-wait riichi)",
    ),
    Term(
        "noten_declared_rate",
        "noten declared",
        "% of exhaustive draws",
        "Draws at which a tenpai player claimed noten",
    ),
    Term("tobi_end_rate", "ended by tobi", "% of games", "Games a player's running out of points ended"),
    Term("extension_rate", "extended", "% of games", "Games played beyond the scheduled rounds (West round)"),
    *HAN,
)
# The strategy profile every Riichi analyst draws: deal-in rate (risk) against win rate (reward).
PROFILE = ("deal_in_rate", "win_rate")

# Limit names by han of the first winner (13 per yakuman), highest first.
LIMITS = (
    (26, "double yakuman"),
    (13, "yakuman"),
    (11, "sanbaiman"),
    (8, "baiman"),
    (6, "haneman"),
    (5, "mangan"),
)

# Over all players of a variant these are fixed by construction (ranks 1-4, points sum to the start).
ZERO_SUM = frozenset({"avg_rank", "final_points", "score", "rank_1", "rank_2", "rank_3", "rank_4"})


def _rows(frame: pl.DataFrame, variant: str, strategy: str, seats: int) -> list[dict[str, Any]]:
    out = []
    deals = frame["deal"].to_numpy()
    for metric, (num, den) in RATIOS.items():
        if strategy == "all" and metric in ZERO_SUM:
            continue
        if metric.startswith("rank_") and int(metric[5:]) > seats:
            continue
        if isinstance(num, str) and num not in frame.columns:  # a run written before the column existed
            continue
        n = (
            frame.select((pl.col(num) if isinstance(num, str) else num).cast(pl.Float64))
            .to_series()
            .to_numpy()
        )
        d = frame[den].cast(pl.Float64).to_numpy() if den else np.ones(len(n))
        out.append(row(variant, strategy, metric, ratio_by_deal(n, d, deals, count_den=True)))
    return out


# Each house rule whose effect is an event, and the metrics that count how often it applied
# (``simharness rules riichi`` shows them): a designer tells "no effect" from "never happened".
RULE_COUNTERS = {
    "kuitan": ("open_tanyao_share",),
    "ippatsu": ("ippatsu_share",),
    "double_riichi": ("double_riichi_share",),
    "renhou": ("renhou_share",),
    "local_yaku": ("local_yaku_share",),
    "multi_ron": ("multi_ron_rate", "sanchahou_rate"),
    "nagashi_mangan": ("nagashi_rate",),
    "abort_kyuushu": ("kyuushu_rate",),
    "abort_suucha_riichi": ("suucha_riichi_rate",),
    "abort_suufon_renda": ("suufon_renda_rate",),
    "abort_suukaikan": ("suukaikan_rate",),
    "furiten_riichi": ("chombo_hand_rate",),
    "kara_riichi_chombo": ("chombo_hand_rate",),
    "allow_noten_declaration": ("noten_declared_rate",),
    "tobi": ("tobi_end_rate",),
    "extension": ("extension_rate",),
    "renchan_on_draw": ("dealer_keep_rate",),
}
# Every local yaku the rule option can switch on, as the engine names them.
_LOCAL_YAKU = next(o.choices or () for o in engine.rule_options("riichi") if o.name == "local_yaku")
# Yaku bits (``hands.yaku``, :func:`yaku_names`) whose rule option a win shows.
_YAKU_BITS = {
    "ippatsu_share": ("ippatsu",),
    "double_riichi_share": ("double_riichi",),
    "renhou_share": ("renhou", "renhou_yakuman"),
    # Every local yaku the rule option can switch on, as the engine names them.
    "local_yaku_share": next(
        o.choices or () for o in engine.rule_options("riichi") if o.name == "local_yaku"
    ),
}
# Hands that ended thus (``hands.outcome``, by the engine's name), per hand.
_OUTCOME = engine.codes("riichi", "hands", "outcome")
_WON = [_OUTCOME["tsumo"], _OUTCOME["ron"]]
_OUTCOMES = {
    metric: _OUTCOME[outcome]
    for metric, outcome in (
        ("nagashi_rate", "nagashi_mangan"),
        ("kyuushu_rate", "kyuushu_kyuuhai"),
        ("suucha_riichi_rate", "suucha_riichi"),
        ("suufon_renda_rate", "suufon_renda"),
        ("suukaikan_rate", "suukaikan"),
        ("sanchahou_rate", "sanchahou"),
    )
}


def first_winner(hands: pl.DataFrame, seats: int) -> np.ndarray:
    """The seat of each hand's first winner (the one whose han, yaku and points the row logs): the
    tsumo winner, or for a ron the first winner in turn order after the discarder; -1 without."""
    winners = hands["winners"].cast(pl.Int64).to_numpy()
    discarder = hands["discarder"].cast(pl.Int64).to_numpy()
    first = np.full(len(winners), -1)
    for k in range(seats - 1, 0, -1):  # the nearest seat after the discarder is written last
        seat = (discarder + k) % seats
        first = np.where((discarder >= 0) & ((winners >> seat) & 1 == 1), seat, first)
    for seat in range(seats - 1, -1, -1):
        first = np.where((discarder < 0) & ((winners >> seat) & 1 == 1), seat, first)
    return first


def rules_in_play(variant: str, hands: pl.DataFrame, games: pl.DataFrame, seats: int) -> list[dict[str, Any]]:
    """How often each event-like rule applied (:data:`RULE_COUNTERS`), the dealer's advantage per
    hand and the han of wins, per variant (strategy ``all``)."""
    # Whether the dealer is among the winners (bit `dealer` of `winners`).
    dealer_won = (hands["winners"].cast(pl.Int64).to_numpy() >> hands["dealer"].cast(pl.Int64).to_numpy()) & 1
    rows = dealer_rows(
        variant, hands.with_columns(won=pl.Series(dealer_won == 1)), pl.col("won"), games=games
    )
    won = hands.filter(pl.col("outcome").is_in(_WON))
    yaku = won["yaku"].cast(pl.UInt64).to_numpy()
    names = yaku_names()
    first = first_winner(won, seats)
    opened = (won["open"].cast(pl.Int64).to_numpy() >> np.maximum(first, 0)) & 1 == 1
    tanyao = (yaku >> np.uint64(names.index("tanyao"))) & np.uint64(1) == 1
    deals = won["deal"]
    rows.append(row(variant, "all", "open_tanyao_share", by_deal(pl.Series(tanyao & opened), deals)))
    for key, bits in _YAKU_BITS.items():
        mask = np.uint64(sum(1 << names.index(b) for b in bits))
        rows.append(row(variant, "all", key, by_deal(pl.Series((yaku & mask) != 0), deals)))
    rows.extend(han_rows(variant, won["han"].cast(pl.Int64), deals))
    two = (
        hands["winners"]
        .cast(pl.Int64)
        .map_elements(lambda w: bin(w).count("1") >= 2, return_dtype=pl.Boolean)
    )
    rows.append(row(variant, "all", "multi_ron_rate", by_deal(two, hands["deal"])))
    for key, code in _OUTCOMES.items():
        rows.append(row(variant, "all", key, by_deal(hands["outcome"] == code, hands["deal"])))
    rows.append(row(variant, "all", "chombo_hand_rate", by_deal(hands["chombo"] != 0, hands["deal"])))
    drawn = hands.filter(pl.col("outcome") == _OUTCOME["exhaustive_draw"])
    rows.append(
        row(variant, "all", "noten_declared_rate", by_deal(drawn["noten_declared"] != 0, drawn["deal"]))
    )
    rows.append(row(variant, "all", "tobi_end_rate", by_deal(games["busted"], games["deal"])))
    rows.append(row(variant, "all", "extension_rate", by_deal(games["extended"], games["deal"])))
    return rows


def summary_metrics(run: RunLike) -> pl.DataFrame:
    """Long-form metrics: variant, strategy, metric, estimate, lo, hi, n."""
    players = players_frame(run)
    hands, games = run.table("hands"), run.table("games")
    rows: list[dict[str, Any]] = []
    duplicate = run.manifest.duplicate
    for v in variant_names(run, players):
        pv = players.filter(pl.col("variant") == v)
        lineup = [s.strategy for s in run.manifest.lineup_of(v)]
        # Seats per game (3 for sanma): the ranks that exist.
        seats = cast(int, pv.group_by("game").len()["len"].max() or 4)
        strategies = [s for s in dict.fromkeys(lineup) if s in set(pv["strategy"])] or sorted(
            set(pv["strategy"])
        )
        for s in strategies:
            rows.extend(_rows(pv.filter(pl.col("strategy") == s), v, s, seats))
        rows.extend(_rows(pv, v, "all", seats))
        hv, gv = hands.filter(pl.col("variant") == v), games.filter(pl.col("variant") == v)
        rows.extend(rules_in_play(v, hv, gv, seats))
        if duplicate and len(strategies) > 1:
            base = strategies[0]
            for s in strategies[1:]:
                for metric, col in (
                    ("paired_score", "score"),
                    ("paired_points", "final_points"),
                    ("paired_rank", "rank"),
                ):
                    a = per_deal(pv.filter(pl.col("strategy") == s), col)
                    b = per_deal(pv.filter(pl.col("strategy") == base), col)
                    rows.append(row(v, f"{s} - {base}", metric, paired_by_deal(a, b)))
    return pl.DataFrame(
        rows, schema={c: (pl.String if c in COLUMNS[:3] else pl.Float64) for c in COLUMNS}
    ).with_columns(pl.col("n").cast(pl.Int64))


def notable_hand(hands: pl.DataFrame) -> pl.DataFrame:
    """Per variant the biggest winning hand of 5 han or more (mangan and above, yakuman counting 13
    per yakuman): columns variant, game, hand, score (han, then points: larger is bigger) and why.
    The highest han, then points, then the earliest game."""
    wins = hands.filter(pl.col("outcome").is_in(_WON) & (pl.col("han") >= LIMITS[-1][0]))
    best = wins.sort("han", "points", "game", "hand", descending=[True, True, False, False]).unique(
        "variant", keep="first", maintain_order=True
    )
    names = yaku_names()
    rows = []
    for r in best.iter_rows(named=True):
        limit = next(name for han, name in LIMITS if r["han"] >= han)
        yaku = [n for i, n in enumerate(names) if r["yaku"] >> i & 1]
        seats = [s for s in range(8) if r["winners"] >> s & 1]
        why = (
            f"{limit} ({r['han']} han, {r['points']} points: {', '.join(yaku) or 'no yaku logged'}) "
            f"won by seat {', '.join(map(str, seats))} in hand {r['hand'] + 1}"
        )
        score = r["han"] * 1e6 + r["points"]
        rows.append(
            {"variant": r["variant"], "game": r["game"], "hand": r["hand"], "score": score, "why": why}
        )
    return pl.DataFrame(rows, schema=estimates.NOTABLE_HAND)
