"""The house-rule balance scorecard: how fair, decisive, dramatic and skill-rewarding a rule variant is.

Every metric is a function of per-deal sums of per-game quantities, so one deal-level bootstrap
gives all CIs (clustered by deal: duplicate tables and CRN variants share luck within a deal) and,
with the same resampling weights for every variant, paired CIs of the differences between variants.

Hand-level metrics (lead changes, drama, decisiveness, comeback) are functions of each game's running
standings. The engine logs what they need per game in the ``games`` table (:data:`FACTS`, computed
while it plays: ``engine/src/standings.rs``), which the scorecard reads (:func:`fact_metrics`). A run
whose games table lacks those columns (written before they were logged) takes the slow path: running
standings from a ``hands`` table in one of these forms (see :func:`standings`): wide ``points_<seat>``
running totals, long ``seat`` + ``points`` running totals, or wide ``delta_<seat>`` per-hand changes
(:func:`hand_metrics`, the reference the engine's columns are tested against). Without either those
metrics are absent (null) and the scorecard says so; every other metric uses only the final
standings of the ``players`` table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, cast

import numpy as np
import polars as pl
from threadpoolctl import threadpool_limits

from simharness.stats.hypotheses import (
    ClusterCounts,
    benjamini_hochberg,
    contingency_test,
    holm,
    resolved_pvalue,
    seat_advantage_test,
)
from simharness.stats.intervals import Interval, resample_counts
from simharness.stats.keys import GameKeys, dense, variant_index
from simharness.stats.scorecard import METRICS
from simharness.stats.streaming import add_into, linear_quantile, poisson_weights

# The games table's standings facts (``simharness schema GAME``: the engine's ``hand_game_rows!``),
# with ``hands``, the number of hands of the game.
FACTS = (
    "lead_changes",
    "winner_led_hands",
    "winner_deficit_sum",
    "winner_max_deficit",
    "winner_max_deficit_hand",
    "winner_leads_from",
    "last_at_half",
    "winner_last_at_half",
    "largest_loss",
    "largest_loss_hand",
    "largest_loss_seat",
    "dealer_wins",
    "dealer_result",
    "dealer_kept",
)

SLOW_PATH_NOTE = (
    "This run's games table has no standings facts (written before the engine logged them): lead "
    "changes, drama, decisiveness, comeback and the extreme games were computed from the hands table "
    "(the slow path)."
)


def has_facts(games_columns: list[str]) -> bool:
    """Whether a games table holds the standings facts the fast path reads."""
    return "hands" in games_columns and all(c in games_columns for c in FACTS)


def fact_metrics(games: pl.DataFrame) -> pl.DataFrame:
    """The per-game hand-level quantities of :func:`hand_metrics`, from the games table's
    :data:`FACTS` (a game of no hands counts for none of them, as it has no standings)."""
    k = pl.col("hands").cast(pl.Float64)
    played = k > 0

    def per_hand(c: str) -> pl.Expr:
        return pl.when(played).then(pl.col(c).cast(pl.Float64) / k).otherwise(0.0)

    return games.select(
        "variant",
        "game",
        hand_games=played.cast(pl.Float64),
        hand_transitions=pl.when(played).then(k - 1).otherwise(0.0),
        lead_changes=pl.col("lead_changes").cast(pl.Float64),
        winner_led=per_hand("winner_led_hands"),
        drama=per_hand("winner_deficit_sum"),
        max_drama=pl.col("winner_max_deficit").cast(pl.Float64),
        decided=per_hand("winner_leads_from"),
        comeback_eligible=pl.col("last_at_half").cast(pl.Float64),
        comeback_wins=pl.col("winner_last_at_half").cast(pl.Float64),
    )


def standings(hands: pl.DataFrame, players_per_game: int) -> pl.DataFrame | None:
    """Running standings per hand in long form (``variant, game, hand, seat, points``) or None.

    Recognises ``points_<seat>`` (running totals), ``seat`` + ``points`` (long running totals) and
    ``delta_<seat>`` (per-hand changes, accumulated here from zero). Hands are ordered by ``hand``
    if present, else by row order within a game. A hand logged on several rows (one per winning
    claim) counts once, with the standings after its last row.
    """
    h = (
        hands
        if "hand" in hands.columns
        else hands.with_columns(pl.int_range(pl.len()).over("variant", "game").alias("hand"))
    )
    wide_points = [f"points_{s}" for s in range(players_per_game)]
    wide_delta = [f"delta_{s}" for s in range(players_per_game)]
    keys = ["variant", "game", "hand"]
    if all(c in h.columns for c in wide_points):
        long = h.select(*keys, *wide_points).unpivot(index=keys, variable_name="seat", value_name="points")
    elif {"seat", "points"} <= set(h.columns):
        return h.select(*keys, pl.col("seat").cast(pl.Int64), pl.col("points").cast(pl.Float64))
    elif all(c in h.columns for c in wide_delta):
        long = (
            h.sort(keys)
            .select(
                *keys,
                *(
                    pl.col(c).cum_sum().over("variant", "game").alias(f"points_{i}")
                    for i, c in enumerate(wide_delta)
                ),
            )
            .unpivot(index=keys, variable_name="seat", value_name="points")
            .unique(subset=[*keys, "seat"], keep="last", maintain_order=True)
        )
    else:
        return None
    return long.with_columns(
        pl.col("seat").str.extract(r"_(\d+)$").cast(pl.Int64), pl.col("points").cast(pl.Float64)
    )


BUST_NOTE = {
    "lowest_points": "a player's lowest points during the game (players.lowest_points) below zero",
    "games.bust": "the games table's bust column",
    "final_points": "a final score below zero (the game plays from a positive starting stack)",
}
TIMEOUT_COLUMNS = ("timeout", "early_end")


def bust_source(
    players_columns: list[str], games_columns: list[str] | None, median: float | None
) -> str | None:
    """Where bust (飛び) comes from: the game's own bust flag, else a player's lowest points below
    zero, else negative finals, else nothing.

    The flag comes first because the game knows its rule (Trump mahjong ends at 0 points, not below).
    Negative final scores only mean a bust in games played from a positive stack (mahjong's 25,000);
    in zero-based games such as sugoroku they are ordinary, so the fallback is used only when the
    ``median`` final score (of the baseline variant) is positive.
    """
    if games_columns is not None and "bust" in games_columns:
        return "games.bust"
    if "lowest_points" in players_columns:
        return "lowest_points"
    return "final_points" if median is not None and float(median) > 0 else None


@dataclass(frozen=True)
class PerGame:
    """One entry per game of a chunk, in (variant, game) order: the game's variant (its index in
    the scorecard's variants), its deal and every per-game quantity the metrics sum."""

    variant: np.ndarray
    deal: np.ndarray
    columns: dict[str, np.ndarray]


def _per_game(
    players: pl.DataFrame,
    games_table: pl.DataFrame | None,
    lengths: pl.DataFrame | None,
    hand_level: pl.DataFrame | None,
    st: Setup,
) -> PerGame:
    """Every per-game quantity the metrics sum, per game of ``players`` (of ``st.variants``);
    ``hand_level``: the hand-level ones (:func:`fact_metrics` or :func:`hand_metrics`)."""
    known = variant_index(players, st.variants) >= 0
    p = players if known.all() else players.filter(pl.Series(known))
    games = GameKeys(p, st.variants)
    n = int(games.sizes.max(initial=0))
    if (games.sizes != n).any():
        raise ValueError("players: expected the same number of players in every game")
    seat = p["seat"].to_numpy().astype(np.int64)
    # Rows by game, then seat (a run's chunk is already in this order).
    place = games.row * (int(seat.max(initial=0)) + 1) + seat
    order = None if bool(np.all(place[1:] > place[:-1])) else np.argsort(place, kind="stable")

    def grid(column: str | pl.Series) -> np.ndarray:
        values = (p[column] if isinstance(column, str) else column).to_numpy()
        return (values if order is None else values[order]).reshape(-1, n)

    x = grid("final_points").astype(float)
    rank = grid("rank")
    top = x.max(axis=1, keepdims=True)
    shifted = x - np.minimum(0, x.min(axis=1, keepdims=True))
    pair = np.abs(x[:, :, None] - x[:, None, :]).sum(axis=(1, 2))
    mean = shifted.mean(axis=1)
    # A first place shared by k tied players (ties = shared) counts 1/k to each.
    first = rank == 1
    win = first / first.sum(axis=1, keepdims=True)
    turn = grid(st.seat_axis)
    cols: dict[str, np.ndarray] = {
        "games": np.ones(len(x)),
        "draw": ((x == top).sum(axis=1) > 1).astype(float),
        "extreme": ((x < st.extreme[0]) | (x > st.extreme[1])).any(axis=1).astype(float),
        "spread": x.max(axis=1) - x.min(axis=1),
        "mad": pair / (n * (n - 1)),
        "gini": np.where(mean > 0, pair / (2 * n * n * np.where(mean > 0, mean, 1)), 0.0),
    }
    for k in range(n):
        cols[f"win_seat_{k}"] = (win * (turn == k)).sum(axis=1)
    if st.bust == "lowest_points":
        cols["bust"] = (grid("lowest_points") < 0).any(axis=1).astype(float)
    elif st.bust == "final_points":
        cols["bust"] = (x < 0).any(axis=1).astype(float)
    if "bust" in cols:
        cols["bust_games"] = np.ones(len(x))
    for role, name in (("strong", st.strong), ("weak", st.weak)):
        mine = (p["strategy"] == name).fill_null(False) if name is not None else None
        mask = grid(mine) if mine is not None else np.zeros(x.shape, dtype=bool)
        cols[f"wins_{role}"] = (win * mask).sum(axis=1)
        cols[f"rows_{role}"] = mask.sum(axis=1).astype(float)
    flags = [c for c in TIMEOUT_COLUMNS if games_table is not None and c in games_table.columns][:1]
    if st.bust == "games.bust":
        flags.append("bust")
    if games_table is not None and flags:
        counted = games_table.select(
            "variant",
            "game",
            *(
                (pl.col(c).cast(pl.Int64) > 0)
                .cast(pl.Float64)
                .alias("timeout" if c in TIMEOUT_COLUMNS else c)
                for c in flags
            ),
        )
        has = games.columns(counted, counted.columns[2:])
        cols.update({c: value for c, (value, _has) in has.items()})
        cols.update({f"{c}_games": flag for c, (_value, flag) in has.items()})
    if lengths is not None:
        cols["length"], cols["length_games"] = games.columns(lengths, ["length"])["length"]
    if hand_level is not None:
        cols.update(
            {c: value for c, (value, _has) in games.columns(hand_level, hand_level.columns[2:]).items()}
        )
    return PerGame(games.variant, grid("deal")[:, 0].astype(np.int64), cols)


def hand_metrics(stand: pl.DataFrame, players: pl.DataFrame, n: int) -> pl.DataFrame:
    """Lead changes, drama, decisiveness and comeback per game from running standings (the slow path:
    the reference of the engine's :data:`FACTS`); ``players`` sorted by variant, game and seat."""
    # The game's winner for drama and comebacks; of players sharing first place, the lowest seat.
    winners = (
        players.filter(pl.col("rank") == 1)
        .select("variant", "game", pl.col("seat").cast(pl.Int64).alias("w"))
        .sort("w")
        .unique(["variant", "game"], keep="first")
    )
    s = stand.sort("variant", "game", "hand", "seat")
    g = s.select("variant", "game", "hand").unique(maintain_order=True)
    counts = g.group_by("variant", "game", maintain_order=True).len()
    games = counts.select("variant", "game").join(winners, on=["variant", "game"], how="left")
    hmax = cast(int, counts["len"].max())
    k = counts["len"].to_numpy()
    offsets = np.repeat(np.arange(len(k)), k)
    pos = np.concatenate([np.arange(m) for m in k])
    pts = np.full((len(k), hmax, n), np.nan)
    pts[offsets, pos] = s["points"].to_numpy().reshape(-1, n)
    valid = ~np.isnan(pts[:, :, 0])
    w = games["w"].fill_null(0).to_numpy()
    leader = pts == np.nanmax(np.where(valid[:, :, None], pts, -np.inf), axis=2, keepdims=True)
    changed = (leader[:, 1:] != leader[:, :-1]).any(axis=2) & valid[:, 1:]
    rows = np.arange(len(k))
    w_led = leader[rows, :, w] & valid
    best = np.where(valid, np.nanmax(np.where(valid[:, :, None], pts, -np.inf), axis=2), 0.0)
    deficit = np.where(valid, best - np.where(valid, pts[rows, :, w], 0.0), 0.0)
    not_led = valid & ~w_led
    last_not = np.where(not_led.any(axis=1), hmax - 1 - np.argmax(not_led[:, ::-1], axis=1), -1)
    half = np.maximum(0, (k + 1) // 2 - 1)
    at_half = pts[rows, half]
    last = at_half == at_half.min(axis=1, keepdims=True)
    enough = k >= 2
    return games.select("variant", "game").with_columns(
        hand_games=pl.Series(np.ones(len(k))),
        hand_transitions=pl.Series(np.maximum(k - 1, 0).astype(float)),
        lead_changes=pl.Series(changed.sum(axis=1).astype(float)),
        winner_led=pl.Series(w_led.sum(axis=1) / k),
        drama=pl.Series(deficit.sum(axis=1) / k),
        max_drama=pl.Series(deficit.max(axis=1)),
        decided=pl.Series((last_not + 1) / k),
        comeback_eligible=pl.Series(np.where(enough, last.sum(axis=1), 0).astype(float)),
        comeback_wins=pl.Series(np.where(enough, last[rows, w], False).astype(float)),
    )


def seat_rank_cells(
    players: pl.DataFrame, seat_axis: str, size: int | None = None
) -> tuple[list[int], list[int], np.ndarray]:
    """Seats, ranks and the rows of each (deal, seat, rank): shape (deals, seats, ranks).

    The per-deal counts are what the clustered seat tests need (and all they need). Without
    ``size`` the seats and ranks are those present; with it, seats 0..size−1 and ranks 1..size, so
    that chunks of a run share their categories.
    """
    deal = players["deal"].to_numpy().astype(np.int64)
    seat = players[seat_axis].to_numpy().astype(np.int64)
    rank = players["rank"].to_numpy().astype(np.int64)
    deals, di, _counts = dense(deal - int(deal.min(initial=0)))
    if size is None:
        seats, si = np.unique(seat, return_inverse=True)
        ranks, ri = np.unique(rank, return_inverse=True)
    else:
        if len(seat) and (seat.max() >= size or rank.max() > size or rank.min() < 1):
            raise ValueError(f"players: seats and ranks beyond the {size} players of a game")
        seats, si, ranks, ri = np.arange(size), seat, np.arange(1, size + 1), rank - 1
    shape = (len(deals), len(seats), len(ranks))
    cells = np.bincount((di * len(seats) + si) * len(ranks) + ri, minlength=int(np.prod(shape)))
    return [int(x) for x in seats], [int(x) for x in ranks], cells.reshape(shape)


def seat_tests(counts: ClusterCounts) -> dict[str, Any]:
    """The seat × rank counts and both seat tests of one variant, from its (seat, rank) counts per deal.

    Seats and ranks that no row has are left out, as :func:`seat_rank_cells` without ``size`` does.
    """
    total = np.asarray(counts.total)
    seats = np.flatnonzero(total.sum(axis=1) > 0)
    ranks = np.flatnonzero(total.sum(axis=0) > 0)
    index = np.arange(total.size).reshape(total.shape)
    present = counts.select(index[np.ix_(seats, ranks)].reshape(-1), (len(seats), len(ranks)))
    rank_list = [int(r) + 1 for r in ranks]
    wins = (
        present.select(np.arange(len(seats)) * len(ranks) + rank_list.index(1), (len(seats),))
        if 1 in rank_list
        else ClusterCounts(counts.clusters, np.zeros(len(seats)), np.zeros((len(seats), len(seats))))
    )
    return {
        "seat_rank_counts": {
            "seats": [int(x) for x in seats],
            "ranks": rank_list,
            "counts": present.total.tolist(),
        },
        "wins_vs_uniform": seat_advantage_test(wins).to_dict(),
        "seat_by_rank": contingency_test(present).to_dict(),
    }


def pick_strategies(win_rates: pl.DataFrame) -> tuple[str | None, str | None]:
    """Strong and weak strategy for the skill gradient: highest and lowest win rate in the baseline.

    ``win_rates``: ``strategy`` and ``r``, the baseline variant's win rate of each strategy.
    """
    rates = win_rates.sort("r", "strategy", descending=[True, False])
    if rates.height < 2:
        return None, None
    return rates["strategy"][0], rates["strategy"][-1]


class Bootstrap(str, Enum):
    """How the scorecard's deals are resampled.

    ``poisson``: independent Poisson(1) weights per (deal, replicate), keyed by deal
    (``stats.streaming.poisson_weights``), so replicate sums add up chunk by chunk and the report
    streams; ``multinomial``: the ordinary bootstrap (exactly as many deals drawn as there are),
    which needs every deal at once. Both estimate the same sampling distribution.
    """

    POISSON = "poisson"
    MULTINOMIAL = "multinomial"


@dataclass(frozen=True)
class Setup:
    """What the scorecard fixes from the baseline variant before it reads any game."""

    variants: list[str]
    players: int
    strong: str | None
    weak: str | None
    extreme: tuple[float, float]
    bust: str | None
    seat_axis: str
    unit: int = 1  # deals per bootstrap unit (see bootstrap_unit)


MAX_UNITS = 65536


def bootstrap_unit(deals: int) -> int:
    """Deals per bootstrap unit: 1 up to :data:`MAX_UNITS` deals, then blocks of consecutive deals.

    Deals are independent and identically distributed, so blocks of a fixed number of consecutive
    deals are too, and a bootstrap over blocks estimates the same sampling distribution as one over
    deals. Blocks bound the bootstrap's cost (replicates × units) at any number of games; with
    65,536 units the bootstrap variance itself has a relative error of about 0.6%
    (√(2/units)), far below the Monte Carlo error of 1000 replicates.
    """
    return max(1, -(-deals // MAX_UNITS))


def setup(
    variants: list[str],
    players: int,
    base_points: tuple[np.ndarray, np.ndarray],
    base_win_rates: pl.DataFrame,
    columns: dict[str, list[str]],
    *,
    strong: str | None = None,
    weak: str | None = None,
    seat_axis: str = "seat",
    deals: int = 0,
) -> Setup:
    """The scorecard's setup from the baseline's final-score histogram (values, counts), its win rate
    per strategy, the columns of the ``players`` and ``games`` tables (``columns[table]``) and the
    number of deals (which sets the bootstrap unit)."""
    if strong is None or weak is None:
        auto_strong, auto_weak = pick_strategies(base_win_rates)
        strong, weak = strong or auto_strong, weak or auto_weak
    values, counts = base_points
    extreme = (linear_quantile(values, counts, 0.01), linear_quantile(values, counts, 0.99))
    median = linear_quantile(values, counts, 0.5) if len(values) else None
    bust = bust_source(columns.get("players", []), columns.get("games"), median)
    return Setup(list(variants), players, strong, weak, extreme, bust, seat_axis, bootstrap_unit(deals))


@dataclass
class ScorecardSums:
    """The scorecard's sums over the deals read so far: totals and bootstrap replicate sums per variant
    (one column per per-game quantity) and the (seat, rank) counts per deal of each variant."""

    setup: Setup
    resamples: int
    seed: int
    columns: list[str] | None = None
    hand_level: bool = False
    slow_path: bool = False
    totals: dict[str, np.ndarray] = field(default_factory=dict)
    replicates: dict[str, np.ndarray] = field(default_factory=dict)
    seats: dict[str, ClusterCounts] = field(default_factory=dict)

    def add(
        self,
        players: pl.DataFrame,
        games: pl.DataFrame | None,
        lengths: pl.DataFrame | None,
        hands: pl.DataFrame | None,
        bootstrap: Bootstrap = Bootstrap.POISSON,
    ) -> None:
        """Adds a chunk of whole deals (every variant's rows of those deals). The hand-level metrics
        come from the games table's :data:`FACTS`, else (an older run) from ``hands``, which is
        not read when the facts are there."""
        st = self.setup
        hand_level: pl.DataFrame | None = None
        if games is not None and has_facts(games.columns):
            hand_level = fact_metrics(games)
        elif hands is not None:
            stand = standings(hands, st.players)
            if stand is not None:
                hand_level = hand_metrics(stand, players.sort("variant", "game", "seat"), st.players)
                self.slow_path = True
        self.hand_level = hand_level is not None
        per_game = _per_game(players, games, lengths, hand_level, st)
        cols = self._same_columns(list(per_game.columns))
        lowest = int(per_game.deal.min(initial=0))
        deals, di, _counts = dense(per_game.deal - lowest)
        deals = deals + lowest
        cell = per_game.variant * len(deals) + di
        size = len(st.variants) * len(deals)
        m = np.zeros((len(deals), len(st.variants) * len(cols)))
        for j, c in enumerate(cols):
            sums = np.bincount(cell, weights=per_game.columns[c], minlength=size).reshape(
                len(st.variants), -1
            )
            m[:, j :: len(cols)] = sums.T
        turns = players.select("variant", "deal", st.seat_axis, "rank")
        index = variant_index(turns, st.variants)
        for i, v in enumerate(st.variants):
            _s, _r, cells = seat_rank_cells(turns.filter(pl.Series(index == i)), st.seat_axis, st.players)
            counts = ClusterCounts.of(cells)
            self.seats[v] = self.seats[v] + counts if v in self.seats else counts
        # Sums per bootstrap unit (deals are sorted, so a unit's deals are adjacent); the replicate
        # sums are linear in them, so a unit split between chunks adds up exactly.
        units = deals // st.unit
        starts = np.flatnonzero(np.r_[True, units[1:] != units[:-1]])
        per_unit = np.add.reduceat(m, starts, axis=0) if len(m) else m
        reps = _replicate_sums(per_unit, units[starts], self.resamples, self.seed, bootstrap)
        for i, v in enumerate(st.variants):
            block = slice(i * len(cols), (i + 1) * len(cols))
            self.totals[v] = self.totals.get(v, 0) + m[:, block].sum(axis=0)
            self.replicates[v] = self.replicates.get(v, 0) + reps[:, block]

    def __iadd__(self, other: ScorecardSums) -> ScorecardSums:
        """A later chunk's sums (``add`` on fresh sums of the same setup), added as ``add`` adds a
        chunk's (``stats.streaming.add_into``)."""
        if other.columns is not None:
            self._same_columns(other.columns)
        self.hand_level = other.hand_level
        self.slow_path = self.slow_path or other.slow_path
        add_into(self.totals, other.totals)
        add_into(self.replicates, other.replicates)
        add_into(self.seats, other.seats)
        return self

    def _same_columns(self, cols: list[str]) -> list[str]:
        """``cols``, the per-game quantities of a chunk, which every chunk of a run must share."""
        if self.columns is None:
            self.columns = cols
        elif cols != self.columns:
            raise ValueError(f"scorecard: a chunk of the run has columns {cols}, expected {self.columns}")
        return cols


def _replicate_sums(
    m: np.ndarray, units: np.ndarray, resamples: int, seed: int, bootstrap: Bootstrap
) -> np.ndarray:
    """Σ_u w_ru·m_u for every replicate r: shape (resamples, columns)."""
    out = np.zeros((resamples, m.shape[1]))
    if bootstrap is Bootstrap.MULTINOMIAL:
        rng = np.random.default_rng(seed)
        step = max(1, min(resamples, 4_000_000 // max(len(units), 1)))
        for start in range(0, resamples, step):
            b = min(step, resamples - start)
            out[start : start + b] = resample_counts(rng, np.ones(len(units), dtype=np.int64), b) @ m
        return out
    step = max(1, 4_000_000 // resamples)  # units per block of weights: a few million at a time
    # One BLAS thread: OpenBLAS's products round differently with its number of threads, which is
    # the cores here but cores/jobs in a report's worker processes (joblib's limit), and the report
    # must be the same, to the byte, for any number of jobs.
    with threadpool_limits(limits=1, user_api="blas"):
        for start in range(0, len(units), step):
            out += poisson_weights(seed, units[start : start + step], resamples) @ m[start : start + step]
    return out


def finish(sums: ScorecardSums, confidence: float = 0.95) -> dict[str, Any]:
    """The JSON-ready scorecard from the sums over every deal (see :func:`scorecard`)."""
    st = sums.setup
    variants, base = st.variants, st.variants[0]
    cols = sums.columns or []
    # Metrics whose inputs this run does not have are left out rather than reported as zero.
    needs = {
        "length": "length_games",
        "skill_gradient": "rows_strong",
        "bust_rate": "bust_games",
        "timeout_rate": "timeout_games",
    }
    metrics = [
        m
        for m in METRICS
        if (sums.hand_level or not m.hand_level) and (m.name not in needs or needs[m.name] in cols)
    ]
    totals = {v: {c: sums.totals[v][i : i + 1] for i, c in enumerate(cols)} for v in variants}
    rep_sums = {v: {c: sums.replicates[v][:, i] for i, c in enumerate(cols)} for v in variants}
    a = (1 - confidence) / 2

    def interval(est: float, draws: np.ndarray, count: int) -> Interval:
        draws = draws[np.isfinite(draws)]
        if not math.isfinite(est) or len(draws) == 0:
            return Interval(est, math.nan, math.nan, count)
        lo, hi = np.quantile(draws, [a, 1 - a])
        return Interval(est, float(lo), float(hi), count)

    per_variant: dict[str, dict[str, Any]] = {}
    for v in variants:
        games_v = int(totals[v]["games"][0])
        per_variant[v] = {
            m.name: interval(float(m.fn(totals[v])[0]), m.fn(rep_sums[v]), games_v).to_dict() for m in metrics
        }
    diffs: list[dict[str, Any]] = []
    for v in variants[1:]:
        for m in metrics:
            est = float(m.fn(totals[v])[0] - m.fn(totals[base])[0])
            d = m.fn(rep_sums[v]) - m.fn(rep_sums[base])
            d = d[np.isfinite(d)]
            p = math.nan
            if len(d) and math.isfinite(est):
                sd = float(d.std(ddof=1)) if len(d) > 1 else 0.0
                z = est / sd if sd > 0 else (0.0 if est == 0 else math.copysign(math.inf, est))
                beyond = int(min(np.count_nonzero(d <= 0), np.count_nonzero(d >= 0)))
                p = resolved_pvalue(beyond, len(d), z)
            count = int(totals[v]["games"][0])
            diffs.append(
                {
                    "variant": v,
                    "baseline": base,
                    "metric": m.name,
                    "difference": interval(est, d, count).to_dict(),
                    "pvalue": p,
                }
            )
    ps = np.array([r["pvalue"] for r in diffs], dtype=float)
    for r, h, bh in zip(diffs, holm(ps), benjamini_hochberg(ps), strict=True):
        r["p_holm"] = None if math.isnan(h) else float(h)
        r["p_bh"] = None if math.isnan(bh) else float(bh)
        if isinstance(r["pvalue"], float) and math.isnan(r["pvalue"]):
            r["pvalue"] = None
    notes = [SLOW_PATH_NOTE] if sums.slow_path else []
    if not sums.hand_level:
        notes.append(
            "No hand-level standings (hands table with points_<seat>, seat+points or delta_<seat>): "
            "lead changes, drama, decisiveness and comeback are not computed; the other metrics use "
            "final standings only."
        )
    if st.bust is None:
        notes.append(
            "No bust rate: the run logs no lowest points or bust flag, and its scores are zero-based."
        )
    if "length_games" not in cols:
        notes.append("No game length: the games table has no turns column and there is no hands table.")
    return {
        "metrics": [{"name": m.name, "doc": m.doc} for m in metrics],
        "variants": per_variant,
        "differences": diffs,
        "seat_tests": {v: seat_tests(sums.seats[v]) for v in variants},
        "seat_axis": st.seat_axis,
        "bust_source": BUST_NOTE.get(st.bust or ""),
        "strong": st.strong,
        "weak": st.weak,
        "extreme_thresholds": list(st.extreme),
        "hand_level": sums.hand_level,
        "resamples": sums.resamples,
        "notes": notes,
    }


def win_rates(players: pl.DataFrame) -> pl.DataFrame:
    """``strategy`` and ``r``: the win rate (rank 1) of each strategy in ``players``."""
    return players.group_by("strategy").agg((pl.col("rank") == 1).mean().alias("r"))


def scorecard(
    players: pl.DataFrame,
    lengths: pl.DataFrame | None = None,
    hands: pl.DataFrame | None = None,
    variants: list[str] | None = None,
    *,
    games: pl.DataFrame | None = None,
    strong: str | None = None,
    weak: str | None = None,
    seat_axis: str = "seat",
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    bootstrap: Bootstrap = Bootstrap.POISSON,
) -> dict[str, Any]:
    """The balance scorecard of every variant, and every variant minus the first, JSON-ready.

    ``players`` needs ``variant, game, deal, seat, final_points, rank, strategy``; ``lengths``
    ``variant, game, length``; ``hands`` running standings (see :func:`standings`); ``games`` the
    games table, for a ``timeout``/``early_end`` or ``bust`` column. Seat fairness is measured along
    ``seat_axis`` (values 0..players−1 in turn order). CIs are percentile intervals of a deal
    bootstrap (``resamples`` replicates, fixed ``seed``; :class:`Bootstrap`); differences use the
    same weights for both variants, so deals shared by CRN variants are paired, and their two-sided
    p-values are the bootstrap tail areas, or beyond the bootstrap's resolution the normal tail of
    the estimate over the replicates' standard deviation (``stats.hypotheses.resolved_pvalue``),
    adjusted by Holm and Benjamini-Hochberg over the whole table. Assumes deals are independent. The
    report computes the same from the run chunk by chunk (``ScorecardSums.add`` per chunk, then
    :func:`finish`).
    """
    variants = variants or sorted(players["variant"].unique().to_list())
    n = cast(int, players.group_by("variant", "game").len()["len"].max())
    base = players.filter(pl.col("variant") == variants[0])
    points = base["final_points"].cast(pl.Float64).value_counts().sort("final_points")
    columns = {"players": players.columns, **({"games": games.columns} if games is not None else {})}
    st = setup(
        variants,
        n,
        (points["final_points"].to_numpy(), points["count"].to_numpy()),
        win_rates(base),
        columns,
        strong=strong,
        weak=weak,
        seat_axis=seat_axis,
        deals=players["deal"].n_unique(),
    )
    sums = ScorecardSums(st, resamples, seed)
    sums.add(players, games, lengths, hands, bootstrap)
    return finish(sums, confidence)
