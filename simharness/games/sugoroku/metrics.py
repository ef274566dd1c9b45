"""Mahjong sugoroku's summary metrics: the source's winner beside the harness's top score.

The source's winner (優勝者) is the player who lands exactly on the goal and ends the game; the
harness's win rate is first place by final score (points, winner bonus and distance settlement),
which another player may hold. Both are reported, named apart.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from simharness.games.estimates import Run, by_deal, frame, row


def summary_metrics(run: Run) -> pl.DataFrame:
    """Long-form metrics (columns variant, strategy, metric, estimate, lo, hi, n).

    Per variant and strategy: ``goal_winner_rate`` (games in which this player reached the goal:
    the source's 優勝者) and ``top_score_rate`` (first place by final score, a first place shared
    by k tied players counting 1/k: the harness's win rate, repeated here to sit beside it). Per
    variant (strategy ``all``): ``goal_reached_rate`` (games ended at the goal rather than by the
    turn limit or agreement) and ``goal_winner_not_top_rate`` (games whose goal-reacher did not
    finish with the top score). Intervals are 95% cluster-robust by deal; ``n`` is the number of
    deals.
    """
    games = run.table("games").select("variant", "game", "winner")
    players = run.table("players").join(games, on=["variant", "game"])
    firsts = (pl.col("rank") == 1).cast(pl.Float64)
    players = players.with_columns(
        goal=pl.col("seat").cast(pl.Int64) == pl.col("winner").cast(pl.Int64),
        top=firsts / firsts.sum().over("variant", "game"),
    )
    rows: list[dict[str, Any]] = []
    for (v, s), mine in sorted(players.group_by("variant", "strategy"), key=lambda g: g[0]):
        rows.append(row(v, s, "goal_winner_rate", by_deal(mine["goal"], mine["deal"])))
        rows.append(row(v, s, "top_score_rate", by_deal(mine["top"], mine["deal"])))
    for (v,), mine in sorted(players.group_by("variant"), key=lambda g: g[0]):
        per_game = mine.group_by("game", "deal").agg(
            reached=pl.col("goal").any(),
            not_top=(pl.col("goal") & (pl.col("rank") != 1)).any(),
        )
        rows.append(row(v, "all", "goal_reached_rate", by_deal(per_game["reached"], per_game["deal"])))
        rows.append(row(v, "all", "goal_winner_not_top_rate", by_deal(per_game["not_top"], per_game["deal"])))
    return frame(rows)
