"""What the games' ``summary_metrics`` share: the long-form row of one estimate (and the typed frame
of rows, :func:`frame`), and the intervals a game's rates, means and paired differences use
(clustered by deal: the hands of a game and the duplicate tables of a deal are not independent).

Each interval carries its sufficient statistics (:class:`Estimate`), and :func:`row` hands them to
an active :func:`collecting` block, keyed by (variant, strategy, metric). The streaming report
runs a game's ``summary_metrics`` on every chunk of whole deals inside such a block and adds the
statistics up, so a game's metrics never need the whole run in memory.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import polars as pl

from simharness.stats import dist
from simharness.stats.balance import has_facts
from simharness.stats.intervals import Interval
from simharness.stats.keys import dense, shared_deals, variant_index
from simharness.stats.streaming import Moments, PairedSums, ratio_from_moments
from simharness.vocabulary import HAN_BINS

# The columns of a game's ``notable_hand`` frame (``simharness.games.registry``): the game holding
# each variant's biggest hand, how big (larger is bigger, comparable across chunks of a run) and why.
NOTABLE_HAND = {
    "variant": pl.String,
    "game": pl.UInt64,
    "hand": pl.UInt32,
    "score": pl.Float64,
    "why": pl.String,
}


class Run(Protocol):
    """What a game's summary metrics need of :class:`simharness.store.Run`."""

    def table(self, name: str) -> pl.DataFrame: ...


@dataclass
class RatioSums:
    """A deal-clustered ratio Σnum/Σden as sums that add up over chunks of whole deals.

    ``moments``: of the per-deal (Σnum, Σden); ``nonnegative`` / ``at_most_den``: whether every row
    had num, den ≥ 0 / num ≤ den (the interval is then truncated to [0, ∞) / [0, 1]);
    ``count_den``: ``n`` is Σden (e.g. hands) rather than the number of deals.
    """

    moments: Moments
    nonnegative: bool
    at_most_den: bool
    count_den: bool = False
    # The chunk's own (deal ids, Σnum, Σden per deal), for pairing a variant with the baseline on
    # the same deals (:class:`PairedRatioSums`); dropped once chunks are added up.
    per_deal: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(default=None, compare=False)

    def __iadd__(self, other: RatioSums) -> RatioSums:
        self.per_deal = None
        self.moments += other.moments
        self.nonnegative = self.nonnegative and other.nonnegative
        self.at_most_den = self.at_most_den and other.at_most_den
        return self

    def interval(self) -> Interval:
        bounded = self.nonnegative
        ci = ratio_from_moments(
            self.moments,
            lower=0.0 if bounded else -math.inf,
            upper=1.0 if bounded and self.at_most_den else math.inf,
        )
        if self.count_den:
            return Interval(ci.estimate, ci.lo, ci.hi, round(self.moments.total(1)) if self.moments.n else 0)
        return ci


@dataclass
class PairedEstimate:
    """A paired difference's sums (``stats.streaming.PairedSums``) as an :class:`Estimate`'s statistics."""

    sums: PairedSums

    def __iadd__(self, other: PairedEstimate) -> PairedEstimate:
        self.sums += other.sums
        return self

    def interval(self) -> Interval:
        return self.sums.result().difference


Sums = RatioSums | PairedEstimate


@dataclass
class PairedRatioSums:
    """A variant's ratio Σnum/Σden minus the baseline's, on the deals both played: the moments of
    the per-deal (num, den) of the variant and of the baseline (four columns), which add up over
    chunks of whole deals.

    The difference's CR1 interval linearises each ratio about its estimate (as
    ``stats.intervals.ratio_interval`` does for one): per deal e = (n_v − R_v·d_v)/Σd_v −
    (n_b − R_b·d_b)/Σd_b, var = g/(g−1)·Σe², a t interval on g − 1 degrees of freedom and its
    two-sided p-value. Under common random numbers the two ratios move together deal by deal, so
    this interval is narrower than one that takes them as independent.
    """

    moments: Moments = field(default_factory=lambda: Moments.empty(4))

    def __iadd__(self, other: PairedRatioSums) -> PairedRatioSums:
        self.moments += other.moments
        return self

    def add(self, variant: RatioSums, baseline: RatioSums) -> None:
        """The deals of one chunk that both sums hold (their ``per_deal``)."""
        if variant.per_deal is None or baseline.per_deal is None:
            return
        (dv, nv, wv), (db, nb, wb) = variant.per_deal, baseline.per_deal
        iv, ib = shared_deals(dv, db)
        if len(iv):
            self.moments += Moments.of(nv[iv], wv[iv], nb[ib], wb[ib])

    def result(self, confidence: float = 0.95) -> tuple[Interval, float | None]:
        """The difference (``n``: the paired deals) and its p-value; empty without two deals."""
        m, g = self.moments, self.moments.n
        sv, sb = (m.total(1), m.total(3)) if g else (0.0, 0.0)
        if g < 2 or sv == 0 or sb == 0:
            return Interval.empty(), None
        rv, rb = m.total(0) / sv, m.total(2) / sb
        c = np.array([1 / sv, -rv / sv, -1 / sb, rb / sb])
        se = math.sqrt(g / (g - 1) * max(float(c @ m.m2 @ c), 0.0))
        d = rv - rb
        half = dist.t_ppf(0.5 + confidence / 2, g - 1) * se
        p = 2 * dist.t_sf(abs(d) / se, g - 1) if se > 0 else 1.0 if d == 0 else 0.0
        return Interval(d, d - half, d + half, g), p


@dataclass(frozen=True)
class Estimate(Interval):
    """An interval with the sufficient statistics it was computed from."""

    sums: Sums | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, float | int | None]:
        return Interval(self.estimate, self.lo, self.hi, self.n).to_dict()

    @classmethod
    def of(cls, sums: Sums) -> Estimate:
        ci = sums.interval()
        return cls(ci.estimate, ci.lo, ci.hi, ci.n, sums)


_COLLECTOR: ContextVar[dict[tuple[str, str, str], Sums | None] | None] = ContextVar("collector", default=None)


@contextmanager
def collecting() -> Iterator[dict[tuple[str, str, str], Sums | None]]:
    """Inside the block, every :func:`row` records its estimate's statistics (None for an interval
    without them) under (variant, strategy, metric) in the yielded dict."""
    acc: dict[tuple[str, str, str], Sums | None] = {}
    token = _COLLECTOR.set(acc)
    try:
        yield acc
    finally:
        _COLLECTOR.reset(token)


def row(variant: str, strategy: str, metric: str, ci: Interval) -> dict[str, Any]:
    """One row of a ``summary_metrics`` frame (columns variant, strategy, metric, estimate, lo, hi, n)."""
    acc = _COLLECTOR.get()
    if acc is not None:
        acc[(variant, strategy, metric)] = ci.sums if isinstance(ci, Estimate) else None
    return {
        "variant": variant,
        "strategy": strategy,
        "metric": metric,
        "estimate": ci.estimate,
        "lo": ci.lo,
        "hi": ci.hi,
        "n": ci.n,
    }


@dataclass(frozen=True)
class Deals:
    """Rows' deals, counted once for the many estimates a game's metrics take over the same rows:
    the distinct deals (sorted), each row's index among them and the rows of each."""

    ids: np.ndarray
    index: np.ndarray
    rows: np.ndarray

    @classmethod
    def of(cls, deals: np.ndarray | pl.Series) -> Deals:
        deals = (deals.to_numpy() if isinstance(deals, pl.Series) else np.asarray(deals)).astype(np.int64)
        lowest = int(deals.min()) if len(deals) else 0
        ids, index, rows = dense(deals - lowest)
        return cls(ids + lowest, index, rows)


def ratio_by_deal(
    num: np.ndarray, den: np.ndarray, deals: np.ndarray | Deals, *, count_den: bool = False
) -> Estimate:
    """Σnum/Σden with its 95% interval clustered by deal (``stats.intervals.cluster_ratio_ci``);
    ``n`` counts deals, or is Σden with ``count_den``."""
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    return _by_deal(num, den, deals, bool((den >= 0).all()), bool((num <= den).all()), count_den)


def _by_deal(
    num: np.ndarray,
    den: np.ndarray | None,
    deals: np.ndarray | Deals,
    den_nonnegative: bool,
    at_most_den: bool,
    count_den: bool = False,
) -> Estimate:
    """:func:`ratio_by_deal` with the checks of ``den`` made (``den`` None: one per row)."""
    nonnegative = bool((num >= 0).all()) and den_nonnegative
    if not len(num):
        return Estimate.of(RatioSums(Moments.empty(2), nonnegative, at_most_den, count_den))
    # One count of the deals for both the moments and the pairing (a report calls this hundreds
    # of times on hand rows).
    d = deals if isinstance(deals, Deals) else Deals.of(deals)
    size = len(d.ids)
    dens = d.rows.astype(float) if den is None else np.bincount(d.index, den, size)
    return _of_deal_sums(d.ids, np.bincount(d.index, num, size), dens, nonnegative, at_most_den, count_den)


def _of_deal_sums(
    ids: np.ndarray,
    num: np.ndarray,
    den: np.ndarray,
    nonnegative: bool,
    at_most_den: bool,
    count_den: bool = False,
) -> Estimate:
    """The estimate of the per-deal sums ``num``, ``den`` of the deals ``ids``."""
    return Estimate.of(RatioSums(Moments.of(num, den), nonnegative, at_most_den, count_den, (ids, num, den)))


def by_deal(values: pl.Series | np.ndarray, deals: pl.Series | np.ndarray | Deals) -> Estimate:
    """The mean of ``values`` with its 95% interval clustered by deal (``n`` counts deals)."""
    x = values.cast(pl.Float64).to_numpy() if isinstance(values, pl.Series) else values.astype(float)
    d = deals.to_numpy() if isinstance(deals, pl.Series) else deals
    return _by_deal(x, None, d, True, bool((x <= 1).all()))


SCHEMA = {
    "variant": pl.String,
    "strategy": pl.String,
    "metric": pl.String,
    "estimate": pl.Float64,
    "lo": pl.Float64,
    "hi": pl.Float64,
    "n": pl.Int64,
}


def frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    """The ``summary_metrics`` frame of ``rows`` (made by :func:`row`), typed even when empty."""
    return pl.DataFrame(rows, schema=SCHEMA, orient="row")


def paired_by_deal(a: pl.DataFrame, b: pl.DataFrame) -> Estimate:
    """``stats.paired.paired_difference(a, b).difference`` of two per-deal frames (``deal``, ``y``)."""
    joined = a.join(b, on="deal", suffix="_b")
    sums = PairedSums()
    sums.add(joined["y"].to_numpy(), joined["y_b"].to_numpy(), a["y"].to_numpy(), b["y"].to_numpy())
    return Estimate.of(PairedEstimate(sums))


def han_rows(variant: str, han: pl.Series, deals: pl.Series | Deals) -> list[dict[str, Any]]:
    """Each ``vocabulary.HAN_BINS`` bin's share of the wins whose han are ``han`` (strategy ``all``),
    clustered by ``deals``."""
    d = deals if isinstance(deals, Deals) else Deals.of(deals)
    if not len(han):
        return [row(variant, "all", key, by_deal(han, d)) for key in HAN_BINS]
    # Wins per deal and han (1 … 12, and 13 for 13 or more), counted at once for every bin.
    h = np.minimum(han.to_numpy().astype(np.int64), len(HAN_BINS))
    binned = h >= 1
    wins = np.bincount(
        d.index[binned] * (len(HAN_BINS) + 1) + h[binned], minlength=len(d.ids) * (len(HAN_BINS) + 1)
    ).reshape(len(d.ids), -1)
    return [
        row(
            variant,
            "all",
            key,
            _of_deal_sums(d.ids, wins[:, i].astype(float), d.rows.astype(float), True, True),
        )
        for i, key in enumerate(HAN_BINS, 1)
    ]


def dealer_rows(
    variant: str,
    hands: pl.DataFrame,
    won: pl.Expr,
    *,
    keep: bool = True,
    games: pl.DataFrame | None = None,
) -> list[dict[str, Any]]:
    """The dealer's advantage per hand (strategy ``all``; terms in ``vocabulary.DEALER``) of one
    variant: ``dealer_win_rate`` (hands the dealer won), ``dealer_mean_result`` (the dealer's point
    change per hand) and, with ``keep``, ``dealer_keep_rate`` (hands after which the same seat deals
    the next hand of the game; a game's last hand has no next and is left out).

    From the variant's ``games`` rows when they hold the engine's per-game counts (``dealer_wins``,
    ``dealer_result``, ``dealer_kept``: ``stats.balance.FACTS``), which add up by deal to the same
    sums as the hands; else (a run written before them) from its ``hands`` table (``deal``, ``game``,
    ``hand``, ``dealer``, ``delta_<seat>``; a hand on several rows, one per winner, counts once),
    ``won`` being true on a row of the dealer's win."""
    if games is not None and has_facts(games.columns):
        return _dealer_rows_of_games(variant, games, keep)
    deltas = sorted((c for c in hands.columns if c.startswith("delta_")), key=lambda c: int(c[6:]))
    per_hand = (
        hands.with_columns(won.alias("won"))
        .group_by("deal", "game", "hand")
        .agg(pl.col("dealer").first(), pl.col("won").any(), *(pl.col(c).sum() for c in deltas))
        .sort("game", "hand")
        .with_columns(
            result=pl.concat_list(deltas).list.get(pl.col("dealer").cast(pl.Int64)),
            kept=pl.col("dealer").shift(-1).over("game") == pl.col("dealer"),
        )
    )
    rows = [
        row(variant, "all", "dealer_win_rate", by_deal(per_hand["won"], per_hand["deal"])),
        row(variant, "all", "dealer_mean_result", by_deal(per_hand["result"], per_hand["deal"])),
    ]
    if keep:
        nxt = per_hand.filter(pl.col("kept").is_not_null())
        rows.append(row(variant, "all", "dealer_keep_rate", by_deal(nxt["kept"], nxt["deal"])))
    return rows


def _dealer_rows_of_games(variant: str, games: pl.DataFrame, keep: bool) -> list[dict[str, Any]]:
    """:func:`dealer_rows` from the games' counts: each a ratio over the hands (of the games that
    have the hands the hand path counts), clustered by deal."""
    hands = games["hands"].cast(pl.Float64)
    played = games.filter(hands > 0)
    n = played["hands"].cast(pl.Float64).to_numpy()
    deals = played["deal"].to_numpy()
    rows = [
        row(variant, "all", "dealer_win_rate", ratio_by_deal(played["dealer_wins"].to_numpy(), n, deals)),
        row(
            variant, "all", "dealer_mean_result", ratio_by_deal(played["dealer_result"].to_numpy(), n, deals)
        ),
    ]
    if keep:
        nxt = games.filter(hands > 1)
        rows.append(
            row(
                variant,
                "all",
                "dealer_keep_rate",
                ratio_by_deal(
                    nxt["dealer_kept"].to_numpy(),
                    nxt["hands"].cast(pl.Float64).to_numpy() - 1,
                    nxt["deal"].to_numpy(),
                ),
            )
        )
    return rows


def winner_groups(
    players: pl.DataFrame,
    group: np.ndarray,
    hands: pl.DataFrame,
    hand_variant: np.ndarray,
    variants: list[str],
) -> np.ndarray:
    """Each ``hands`` row's winner (``winner_player``, the lineup slot, on a row with ``claims``)
    as the group of that slot's ``players`` rows in the row's variant (``group``: each players row's
    group, e.g. of (variant, strategy); ``hand_variant``: each hands row's index in ``variants``);
    −1 where no slot of the lineup won."""
    player = players["player"].to_numpy().astype(np.int64)
    slots = int(player.max(initial=0)) + 1
    slot_group = np.full(len(variants) * slots + 1, -1)  # the last: no winner
    slot_group[variant_index(players, variants) * slots + player] = group
    winner = hands["winner_player"].to_numpy().astype(np.int64)
    won = (hands["claims"].to_numpy() > 0) & (winner >= 0) & (winner < slots) & (hand_variant >= 0)
    return slot_group[np.where(won, hand_variant * slots + winner, len(slot_group) - 1)]


def combined_rows(acc: dict[tuple[str, str, str], Sums]) -> list[dict[str, Any]]:
    """The rows of the statistics added up over chunks, in the order first seen."""
    return [row(v, s, m, Estimate.of(sums)) for (v, s, m), sums in acc.items()]
