"""The report's data path: the run read chunk by chunk of whole shards, reduced to sufficient statistics.

A chunk is about the game's ``REPORT_CHUNK`` games (``games.registry.report_chunk``) over all variants,
of whole shards (``store.Run.chunks``); it holds
every row of its deals in every variant, so per-deal quantities are complete inside it. Each chunk
is read and reduced to its sums (:func:`chunk_sums`: a fresh
:class:`~simharness.report.sums.SummarySums`, the scorecard's
:class:`~simharness.stats.balance.ScorecardSums`, ... that read that chunk alone), in this process
or in worker processes (``--jobs``, :func:`summed`), and the chunks' sums are added up in chunk
order: memory is a chunk per worker plus sums whose size depends on groups, distinct scores and
bootstrap replicates, never on the number of games, time is linear in the games, and the result
does not depend on the number of jobs. Before the chunks, what they are counted against
(:class:`Basis`) is read from the first shard of each variant and lazy scans of one column (the
tails' quantiles, the scorecard's baseline score distribution and strategy win rates).

A game package's ``summary_metrics`` runs on every chunk and its estimates are added up
(:class:`GameMetrics`). What is not bounded: the sequential test keeps one paired score per deal
of its variant (it needs them for the stopping-aware estimate).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import polars as pl
from rich.progress import Progress

from simharness import backends
from simharness.games import estimates, registry
from simharness.report.challengers import ChallengerSums
from simharness.report.extremes import ExtremeGames
from simharness.report.frames import (
    CachedRun,
    RunLike,
    game_lengths,
    game_metrics,
    json_rows,
    optional_table,
    players_frame,
    players_per_game,
    provenance,
    seat_axis,
    variant_names,
)
from simharness.report.glance import rank_shares, share_rows
from simharness.report.sums import SummarySums
from simharness.report.tails import TailPart, TailSums, tail_part
from simharness.stats import balance
from simharness.stats.looks import UntilRecord
from simharness.stats.sequential import look_scores, until_result
from simharness.stats.streaming import add_into

RESAMPLES = 1000  # scorecard bootstrap replicates

T = TypeVar("T")


@dataclass
class Collected:
    """What one pass over the run gives: the summary dict, its sums (for figures) and the scorecard."""

    summary: dict[str, Any]
    sums: SummarySums
    scorecard: dict[str, Any] | None
    # Set when the run's games table lacked the standings facts (``stats.balance.SLOW_PATH_NOTE``).
    note: str | None = None


class GameMetrics:
    """A game package's ``summary_metrics``, run on every chunk and added up (``games.estimates``).

    A game whose rows carry no sufficient statistics (a row not made by ``games.estimates.row`` of
    an interval from ``games.estimates``) cannot be added up: its metrics are then computed once on
    the whole run, in memory.
    """

    def __init__(self, fn: Callable[[Any], pl.DataFrame] | None) -> None:
        self.fn = fn
        self.sums: dict[tuple[str, str, str], estimates.Sums] = {}
        self.pairs: dict[tuple[str, str, str], estimates.PairedRatioSums] = {}
        self.whole = False

    def add(self, chunk: RunLike, baseline: str | None = None) -> None:
        """Add a chunk's estimates, and each variant's paired with ``baseline``'s on the chunk's deals."""
        if self.fn is None or self.whole:
            return
        with estimates.collecting() as acc:
            frame = self.fn(chunk)
        if len(acc) != frame.height or any(s is None for s in acc.values()):
            self.whole = True
            return
        for (v, s, m), sums in acc.items():
            base = acc.get((baseline, s, m)) if baseline is not None and v != baseline else None
            if isinstance(sums, estimates.RatioSums) and isinstance(base, estimates.RatioSums):
                self.pairs.setdefault((v, s, m), estimates.PairedRatioSums()).add(sums, base)
        for sums in acc.values():
            # The chunk's per-deal sums serve the pairs above only: a chunk's sums sent back by a
            # worker process are then of the size of the metrics, not of the chunk's deals.
            if isinstance(sums, estimates.RatioSums):
                sums.per_deal = None
        add_into(self.sums, acc)

    def __iadd__(self, other: GameMetrics) -> GameMetrics:
        """A later chunk's metrics (``add`` on a fresh one); once a chunk could not be added up, the
        metrics are computed whole and the later chunks' are not needed."""
        if not self.whole:
            self.whole = other.whole
        if not self.whole:
            add_into(self.pairs, other.pairs)
            add_into(self.sums, other.sums)
        return self

    def differences(self, baseline: str) -> list[dict[str, Any]]:
        """Every variant's metric minus the baseline's, paired by deal (``games.estimates.PairedRatioSums``):
        ``{variant, baseline, strategy, metric, difference, pvalue}``; none for a game computed whole."""
        out = []
        for (v, s, m), sums in self.pairs.items():
            iv, p = sums.result()
            out.append(
                {
                    "variant": v,
                    "baseline": baseline,
                    "strategy": s,
                    "metric": m,
                    "difference": iv.to_dict(),
                    "pvalue": p,
                }
            )
        return json_rows(out)

    def rows(self, run: RunLike) -> list[dict[str, Any]]:
        if self.fn is None:
            return []
        if self.whole:
            return game_metrics(run)
        return json_rows(estimates.combined_rows(self.sums))


def chunks(run: RunLike) -> Iterator[tuple[RunLike, int]]:
    """The run's chunks and the shards (over every variant) of each; a run without shards is one chunk."""
    split = getattr(run, "chunks", None)
    parts = [(run, 1)] if split is None else split(chunk_games(run))
    for sub, shards in parts:
        yield CachedRun(sub), shards


def opening(run: RunLike) -> RunLike | None:
    """The run's first shard of every variant (a run held in memory: the run itself; None: a run of
    no shards): what the report fixes before the chunks is read from it, since every variant and
    strategy plays in it and every shard has the same columns. One shard, not a chunk, so that a
    pool's workers read the chunks while this process holds little."""
    split = getattr(run, "chunks", None)
    if split is None:
        return run
    first = next(split(1), None)
    return None if first is None else first[0]


def chunk_games(run: RunLike) -> int:
    """Games per variant in a chunk: the game's ``REPORT_CHUNK`` shared by the run's variants, since
    a chunk holds every variant's games of its deals."""
    variants = max(1, len(run.manifest.variants))
    return registry.report_chunk(run.manifest.game) // variants


def shard_count(run: RunLike) -> int:
    """Shards the run reads over every variant (1 for a run held in memory)."""
    shards = getattr(run, "shards", None)
    return shards() if shards is not None else 1


def _variant_scan(run: RunLike, variant: str) -> pl.LazyFrame:
    scan = getattr(run, "scan", None)
    if scan is not None:
        return players_frame_lazy(run, scan("players", variant))
    return players_frame(run).lazy().filter(pl.col("variant") == variant)


def players_frame_lazy(run: RunLike, players: pl.LazyFrame) -> pl.LazyFrame:
    """:func:`report.frames.players_frame` of a lazy scan: ``strategy`` from the lineup if not stored."""
    if "strategy" in players.collect_schema().names():
        return players
    slots = {s.slot: s.strategy for s in run.manifest.lineup}
    return players.with_columns(
        pl.col("player").replace_strict(slots, return_dtype=pl.String, default="?").alias("strategy")
    )


def scorecard_setup(
    run: RunLike, variants: list[str], players: pl.DataFrame, games: pl.DataFrame | None, axis: str
) -> balance.Setup:
    """The scorecard's setup from a lazy scan of the baseline variant and the columns of ``players``
    and ``games`` (those of every shard)."""
    base = _variant_scan(run, variants[0])
    points = (
        base.group_by("final_points").agg(count=pl.len()).sort("final_points").collect(engine="streaming")
    )
    rates = base.group_by("strategy").agg((pl.col("rank") == 1).mean().alias("r")).collect(engine="streaming")
    columns = {"players": players.columns, **({"games": games.columns} if games is not None else {})}
    return balance.setup(
        variants,
        players_per_game(players),
        (points["final_points"].cast(pl.Float64).to_numpy(), points["count"].to_numpy()),
        rates,
        columns,
        seat_axis=axis,
        deals=run.manifest.planned_deals,
    )


def tail_setup(run: RunLike, variants: list[str]) -> TailSums:
    """The tails' quantiles, from one lazy scan of each variant's final points (``report.tails``)."""
    return TailSums(
        {
            v: _variant_scan(run, v)
            .group_by("final_points")
            .agg(count=pl.len())
            .sort("final_points")
            .collect(engine="streaming")
            for v in variants
        }
    )


@dataclass(frozen=True)
class Basis:
    """What every chunk's sums are counted against, fixed before the chunks are summed (from the first
    shards and lazy scans of the run, :func:`basis`): the variants in order (the baseline first), the
    turn-order column, the players per game, the tails' quantiles (``report.tails.TailSums.cuts``)
    and the scorecard's setup (None: no scorecard)."""

    variants: list[str]
    seat_axis: str
    players: int
    cuts: dict[tuple[str, float], float]
    card: balance.Setup | None


def basis(run: RunLike, first: RunLike, scorecard: bool) -> tuple[Basis, TailSums]:
    """The :class:`Basis` of ``run`` from its ``first`` shards (:func:`opening`), and the tails'
    sums to add the chunks' to."""
    players = players_frame(first)
    variants = variant_names(run, players)
    axis = seat_axis(players)
    tails = tail_setup(run, variants)
    card = scorecard_setup(run, variants, players, first.table("games"), axis) if scorecard else None
    return Basis(variants, axis, players_per_game(players), tails.cuts, card), tails


@dataclass
class ChunkSums:
    """One chunk's part of each of the report's sums: the sums as they are after reading that chunk
    alone (:func:`chunk_sums`), which :func:`collect` adds up in chunk order."""

    sums: SummarySums
    tails: TailPart
    metrics: GameMetrics
    ranks: GameMetrics
    extremes: ExtremeGames
    challengers: ChallengerSums | None
    card: balance.ScorecardSums | None
    # The sequential test's paired scores, one per deal of its variant (None: the run had no looks).
    scores: np.ndarray | None


def rank_share_rows(chunk: RunLike) -> pl.DataFrame:
    """The rank shares of a chunk (``report.glance.share_rows``), as a game's metrics are computed."""
    return share_rows(players_frame(chunk))


def _looks(run: RunLike) -> UntilRecord | None:
    """The run's sequential test, if it took looks."""
    seq = run.manifest.sequential
    return seq if seq is not None and seq.looks else None


def chunk_sums(basis: Basis, chunk: RunLike) -> ChunkSums:
    """The sums of one chunk of whole deals: a function of the chunk and ``basis`` alone, so that any
    process can compute it (see :func:`collect`)."""
    players = players_frame(chunk)
    gl = game_lengths(chunk)
    lengths, unit = gl if gl is not None else (None, None)
    sums = SummarySums(basis.seat_axis, basis.players)
    sums.unit = unit
    sums.add(players, lengths, basis.variants)
    design = chunk.manifest.challengers
    challengers = ChallengerSums(design) if design else None
    if challengers is not None:
        challengers.add(players)
    card = None
    if basis.card is not None:
        games = chunk.table("games")
        # A run whose games table holds the standings facts needs no hands for the scorecard.
        hands = None if balance.has_facts(games.columns) else optional_table(chunk, "hands")
        card = balance.ScorecardSums(basis.card, RESAMPLES, seed=0)
        card.add(players, games, lengths, hands)
    seq = _looks(chunk)
    metrics = GameMetrics(registry.summary_metrics(chunk.manifest.game))
    metrics.add(chunk, basis.variants[0])
    ranks = GameMetrics(rank_share_rows)
    ranks.add(chunk)
    extremes = ExtremeGames()
    extremes.add(chunk)
    return ChunkSums(
        sums,
        tail_part(basis.cuts, basis.variants[0], players),
        metrics,
        ranks,
        extremes,
        challengers,
        card,
        look_scores(players, seq, seq.games) if seq is not None else None,
    )


def _following(ahead: list[T], rest: Iterator[T]) -> Iterator[T]:
    """The items of ``ahead``, then those of ``rest``; ``ahead``'s are taken out of it as they are
    yielded, so that nothing here keeps a chunk (and the tables it read) once it is handed on."""
    while ahead:
        yield ahead.pop(0)
    yield from rest


def _numbered(fn: Callable[[RunLike], T], i: int, shards: int, chunk: RunLike) -> tuple[int, int, T]:
    """``fn(chunk)`` in a worker process, with the chunk's place and shards."""
    return i, shards, fn(chunk)


def summed(
    fn: Callable[[RunLike], T], parts: Iterator[tuple[RunLike, int]], jobs: int, done: Callable[[int], None]
) -> Iterator[T]:
    """``fn`` of every chunk of ``parts`` (chunks and their shards), in chunk order: here for one job
    (or one chunk), else in ``jobs`` worker processes (-1: every core; ``backends.pool``), which read
    their chunks themselves. ``done(shards)`` is told of each chunk as it is summed, in any order.

    ``fn`` must be a pure function of the chunk (its sums), picklable for a pool (a module's
    function, or a ``functools.partial`` of one). The pool keeps a bounded number of chunks in
    flight (``backends.pool``); a chunk summed before an earlier one waits here for it, so the sums
    come in the order a single process gives them, and what is added up from them is the same, to
    the byte, for any number of jobs.
    """
    ahead = list(itertools.islice(parts, 2))
    if backends.workers(jobs) == 1 or len(ahead) < 2:
        for chunk, shards in _following(ahead, parts):
            yield fn(chunk)
            done(shards)
        return
    numbered = ((fn, i, shards, chunk) for i, (chunk, shards) in enumerate(_following(ahead, parts)))
    waiting: dict[int, T] = {}
    next_up = 0
    with backends.pool(backends.Backend.LOKY, jobs) as pool:
        for i, shards, sums in pool.imap_unordered(_numbered, numbered):
            done(shards)
            waiting[i] = sums
            while next_up in waiting:
                yield waiting.pop(next_up)
                next_up += 1


def shards_read(progress: Progress | None, name: str, run: RunLike) -> Callable[[int], None]:
    """What counts the shards read on a new task ``name`` of ``progress`` (nothing without one)."""
    if progress is None:
        return lambda _shards: None
    task = progress.add_task(name, total=shard_count(run))
    return lambda shards: progress.advance(task, shards)


def collect(run: RunLike, *, scorecard: bool, progress: Progress | None = None, jobs: int = 1) -> Collected:
    """One pass over ``run``: the summary (and the balance scorecard when ``scorecard``), its chunks
    summed in ``jobs`` processes (-1: every core; see :func:`summed`).

    ``progress`` (a rich Progress) gets a task counting the shards read, over all variants.
    """
    done = shards_read(progress, run.manifest.name, run)
    first = opening(run)
    if first is None:
        raise ValueError("the run has no games to report")
    base, tails = basis(run, first, scorecard)
    variants = base.variants
    sums = SummarySums(base.seat_axis, base.players)
    seq = _looks(run)
    scores: list[np.ndarray] = []
    metrics = GameMetrics(registry.summary_metrics(run.manifest.game))
    ranks = GameMetrics(rank_share_rows)
    extremes = ExtremeGames()
    design = run.manifest.challengers
    challengers = ChallengerSums(design) if design else None
    card = balance.ScorecardSums(base.card, RESAMPLES, seed=0) if base.card is not None else None
    for part in summed(functools.partial(chunk_sums, base), chunks(run), jobs, done):
        sums += part.sums
        tails += part.tails
        metrics += part.metrics
        ranks += part.ranks
        extremes += part.extremes
        if challengers is not None and part.challengers is not None:
            challengers += part.challengers
        if card is not None and part.card is not None:
            card += part.card
        if part.scores is not None:
            scores.append(part.scores)
    summary = {
        "run": provenance(run),
        "variant_order": variants,
        "variants": {v: sums.variant_block(v) for v in variants},
        "differences": sums.differences(variants) if len(variants) > 1 else [],
        "omnibus": sums.omnibus() if len(variants) > 2 else [],
        "rank_shares": rank_shares(ranks.rows(run), variants),
        "game_metrics": metrics.rows(run),
        "game_metric_differences": metrics.differences(variants[0]) if len(variants) > 1 else [],
        "tails": tails.result(),
        "extreme_games": extremes.result(str(run.path), variants),
        "sequential": until_result(seq, np.concatenate(scores)) if seq is not None else None,
        "challengers": challengers.result() if challengers is not None else None,
    }
    note = balance.SLOW_PATH_NOTE if card is not None and card.slow_path else None
    return Collected(summary, sums, balance.finish(card) if card is not None else None, note)
