"""The report's data path: the run read chunk by chunk of whole shards, reduced to sufficient statistics.

A chunk is about the game's ``REPORT_CHUNK`` games (``games.registry.report_chunk``) over all variants,
of whole shards (``store.Run.chunks``); it holds
every row of its deals in every variant, so per-deal quantities are complete inside it. Each chunk
is read, added to :class:`~simharness.report.sums.SummarySums` (and the scorecard's
:class:`~simharness.stats.balance.ScorecardSums`) and dropped: memory is one chunk plus sums whose size
depends on groups, distinct scores and bootstrap replicates, never on the number of games, and
time is linear in the games. Before the chunks, the scorecard's setup (the baseline variant's
score distribution and strategy win rates) is one lazy scan of two columns.

A game package's ``summary_metrics`` runs on every chunk and its estimates are added up
(:class:`GameMetrics`). What is not bounded: the sequential test keeps one paired score per deal
of its variant (it needs them for the stopping-aware estimate).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
from rich.progress import Progress

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
from simharness.report.tails import TailSums
from simharness.stats import balance
from simharness.stats.sequential import look_scores, until_result

RESAMPLES = 1000  # scorecard bootstrap replicates


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
        for key, part in acc.items():
            assert part is not None  # checked above
            if key in self.sums:
                self.sums[key] += part  # type: ignore[operator]  # a metric's sums are of one kind
            else:
                self.sums[key] = part

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
    """The scorecard's setup from a lazy scan of the baseline variant and the first chunk's columns."""
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


def collect(run: RunLike, *, scorecard: bool, progress: Progress | None = None) -> Collected:
    """One pass over ``run``: the summary (and the balance scorecard when ``scorecard``).

    ``progress`` (a rich Progress) gets a task counting the shards read, over all variants.
    """
    task = None
    if progress is not None:
        task = progress.add_task(run.manifest.name, total=shard_count(run))
    seq = run.manifest.sequential
    seq = seq if seq is not None and seq.looks else None
    metrics = GameMetrics(registry.summary_metrics(run.manifest.game))
    ranks = GameMetrics(lambda chunk: share_rows(players_frame(chunk)))
    extremes = ExtremeGames()
    scores: list[np.ndarray] = []
    sums: SummarySums | None = None
    design = run.manifest.challengers
    challengers = ChallengerSums(design) if design else None
    card: balance.ScorecardSums | None = None
    tails: TailSums | None = None
    variants: list[str] = []
    for sub, shards in chunks(run):
        players = players_frame(sub)
        gl = game_lengths(sub)
        lengths, unit = gl if gl is not None else (None, None)
        if sums is None:
            variants = variant_names(run, players)
            axis = seat_axis(players)
            sums = SummarySums(axis, players_per_game(players))
            tails = tail_setup(run, variants)
            if scorecard:
                games = sub.table("games")
                card = balance.ScorecardSums(
                    scorecard_setup(run, variants, players, games, axis), RESAMPLES, seed=0
                )
        sums.unit = unit
        sums.add(players, lengths, variants)
        if tails is not None:
            tails.add(players)
        if challengers is not None:
            challengers.add(players)
        if card is not None:
            games = sub.table("games")
            # A run whose games table holds the standings facts needs no hands for the scorecard.
            hands = None if balance.has_facts(games.columns) else optional_table(sub, "hands")
            card.add(players, games, lengths, hands)
        if seq is not None:
            scores.append(look_scores(players, seq, seq.games))
        metrics.add(sub, variants[0])
        ranks.add(sub)
        extremes.add(sub)
        if task is not None and progress is not None:
            progress.advance(task, shards)
    if sums is None or tails is None:
        raise ValueError("the run has no games to report")
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
