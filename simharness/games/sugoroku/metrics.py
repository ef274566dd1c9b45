"""Mahjong sugoroku's summary metrics: the source's winner beside the harness's top score, and the
choices the strategies' knobs make.

The source's winner (優勝者) is the player who lands exactly on the goal and ends the game; the
harness's 1st-place rate is first place by final score (points, winner bonus and distance
settlement), which another player may hold. Both are reported, named apart.

A dice race has no hands, so the analyst's offence/defence picture (win rate per hand against
deal-in rate) has no direct counterpart. Its analogue (``PROFILE``) is per game: the goal-winner
rate (reaching the goal is the race's win, which pays the winner bonus and the distance settlement,
as a hand win pays in mahjong) against the last-place rate (the outcome that dealing in produces in
mahjong: the race's risk).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from simharness.games.estimates import Deals, Run, by_deal, frame, row
from simharness.stats.keys import GameKeys, group_codes, members
from simharness.vocabulary import Term

# Per-game counts of what the knobs decide (offsets, pinzoro back re-rolls, 6-zoro extra rolls) and
# of the rests that offsets avoid: a player row's value, averaged over the strategy's rows.
CHOICES = ("rests_served", "offsets", "back_rerolls", "extra_rolls")

# Each house rule whose effect is an event, and the metrics that count how often it applied
# (``simharness rules sugoroku`` shows them).
RULE_COUNTERS = {
    "payout_cap": ("capped_game_rate",),
    "progressive_over_cap": ("capped_game_rate",),
    "cap_scope": ("capped_game_rate",),
    "rest_rule": ("rests_served",),
    "offset_allowed": ("offsets",),
    "pinzoro_manzu_back": ("pinzoro_game_rate",),
    "pinzoro_reroll": ("pinzoro_game_rate", "back_rerolls"),
    "sixzoro_reroll": ("sixzoro_game_rate",),
    "sixzoro_extra_roll": ("sixzoro_game_rate", "extra_rolls"),
    "overshoot": ("goal_bounce_game_rate",),
    "loop_rule": ("loop_game_rate",),
    "agreement_end": ("early_end_rate",),
    "max_turns": ("goal_reached_rate",),
}
# Games in which an event of the games table happened at least once.
_GAME_EVENTS = {
    "capped_game_rate": "capped_payments",
    "pinzoro_game_rate": "pinzoro",
    "sixzoro_game_rate": "sixzoro",
    "goal_bounce_game_rate": "goal_bounces",
    "loop_game_rate": "loops",
    "early_end_rate": "early_end",
}

METRICS = (
    Term(
        "goal_winner_rate",
        "goal-winner rate",
        "% of games",
        "Games the player ended by landing on the goal (優勝者)",
    ),
    Term(
        "top_score_rate",
        "top-score rate",
        "% of games",
        "Games the player ended with the top score; k tied hold 1/k",
    ),
    Term(
        "goal_reached_rate",
        "goal reached",
        "% of games",
        "Games ended at the goal, not by the turn limit or agreement",
    ),
    Term(
        "goal_winner_not_top_rate",
        "goal winner not on top",
        "% of games",
        "Games whose goal-reacher did not top the score",
    ),
    Term("rests_served", "rests served", "count per game", "Turns the player sat out on a rest square"),
    Term("offsets", "offsets", "count per game", "Rolls the player offset (a strategy's choice)"),
    Term(
        "back_rerolls",
        "pinzoro back re-rolls",
        "count per game",
        "Pinzoro back rolls the player rolled again",
    ),
    Term("extra_rolls", "6-zoro extra rolls", "count per game", "Extra rolls the player took on a 6-zoro"),
    Term(
        "capped_game_rate",
        "games with a capped payment",
        "% of games",
        "Games in which the payout cap cut a payment",
    ),
    Term("pinzoro_game_rate", "games with a pinzoro", "% of games", "Games in which someone rolled pinzoro"),
    Term("sixzoro_game_rate", "games with a 6-zoro", "% of games", "Games in which someone rolled 6-zoro"),
    Term(
        "goal_bounce_game_rate",
        "games with a goal bounce",
        "% of games",
        "Games in which a piece overshot the goal and bounced",
    ),
    Term(
        "loop_game_rate",
        "games with a loop",
        "% of games",
        "Games in which a piece looped the course (rule loop_rule)",
    ),
    Term("early_end_rate", "ended by agreement", "% of games", "Games ended early by agreement"),
)
PROFILE = ("last_place_rate", "goal_winner_rate")


def summary_metrics(run: Run) -> pl.DataFrame:
    """Long-form metrics (columns variant, strategy, metric, estimate, lo, hi, n).

    Per variant and strategy: ``goal_winner_rate`` (games in which this player reached the goal:
    the source's 優勝者) and ``top_score_rate`` (first place by final score, a first place shared
    by k tied players counting 1/k: the harness's 1st-place rate, repeated here to sit beside it),
    then the per-game means of :data:`CHOICES`. Per variant (strategy ``all``):
    ``goal_reached_rate`` (games ended at the goal rather than by the turn limit or agreement) and
    ``goal_winner_not_top_rate`` (games whose goal-reacher did not finish with the top score).
    Intervals are 95% cluster-robust by deal; ``n`` is the number of deals.
    """
    games, players = run.table("games"), run.table("players")
    keys = GameKeys(games)  # one position per game (a row of ``games``)

    def per_game(column: str) -> np.ndarray:
        values = games[column].to_numpy()
        out = np.empty_like(values)
        out[keys.row] = values
        return out

    found, at = keys.find(players)
    players = players[found]
    goal = players["seat"].cast(pl.Int64).to_numpy() == per_game("winner").astype(np.int64)[at]
    first = (players["rank"] == 1).to_numpy()
    top = first / np.bincount(at, weights=first, minlength=len(keys.keys))[at]
    deals = players["deal"].to_numpy()
    groups, group = group_codes(players, ["variant", "strategy"])
    rows_of = members(group, len(groups))
    choices = {c: players[c].to_numpy() for c in CHOICES if c in players.columns}
    rows: list[dict[str, Any]] = []
    for i in sorted(range(len(groups)), key=lambda i: groups[i]):
        (v, s), mine = groups[i], rows_of[i]
        d = Deals.of(deals[mine])
        rows.append(row(v, s, "goal_winner_rate", by_deal(goal[mine], d)))
        rows.append(row(v, s, "top_score_rate", by_deal(top[mine], d)))
        rows.extend(row(v, s, c, by_deal(values[mine], d)) for c, values in choices.items())
    reached = np.bincount(at, weights=goal, minlength=len(keys.keys)) > 0
    not_top = np.bincount(at, weights=goal & ~first, minlength=len(keys.keys)) > 0
    game_deals = per_game("deal")
    games_of = members(keys.variant, len(keys.variants))
    for i in sorted(range(len(keys.variants)), key=lambda i: keys.variants[i]):
        v, mine = keys.variants[i], games_of[i]
        d = Deals.of(game_deals[mine])
        rows.append(row(v, "all", "goal_reached_rate", by_deal(reached[mine], d)))
        rows.append(row(v, "all", "goal_winner_not_top_rate", by_deal(not_top[mine], d)))
        for key, col in _GAME_EVENTS.items():
            if col in games.columns:
                rows.append(row(v, "all", key, by_deal(per_game(col)[mine] > 0, d)))
    return frame(rows)
