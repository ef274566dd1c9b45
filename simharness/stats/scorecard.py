"""The balance scorecard's metrics: each one's name, meaning and how it follows from per-deal sums
(``stats.balance`` computes the sums, resamples and tests them). Kept apart from the statistics so
that naming a metric (``simharness.vocabulary``, the CLI's help) loads no statistics library."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

Sums = dict[str, np.ndarray]


@dataclass(frozen=True)
class Metric:
    name: str
    doc: str
    fn: Callable[[Sums], np.ndarray]
    hand_level: bool = False


def _ratio(num: str, den: str) -> Callable[[Sums], np.ndarray]:
    def f(s: Sums) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(s[den] > 0, s[num] / s[den], np.nan)

    return f


def _balance(s: Sums) -> np.ndarray:
    seats = sorted(k for k in s if k.startswith("win_seat_"))
    rates = np.stack([_ratio(k, "games")(s) for k in seats])
    return 1 - (rates.max(axis=0) - rates.min(axis=0))


def _gradient(s: Sums) -> np.ndarray:
    return _ratio("wins_strong", "rows_strong")(s) - _ratio("wins_weak", "rows_weak")(s)


METRICS: tuple[Metric, ...] = (
    Metric("balance", "Ludii Balance over seats: 1 − (max − min) seat 1st-place rate (1 = fair)", _balance),
    Metric(
        "first_seat_win_rate",
        "1st-place rate of the first seat in turn order (Ludii AdvantageP1)",
        _ratio("win_seat_0", "games"),
    ),
    Metric(
        "skill_gradient",
        "1st-place rate of the strong minus the weak strategy (Jaffe's restricted play)",
        _gradient,
    ),
    Metric("tied_first_rate", "Games whose top score is shared (a tie for first)", _ratio("draw", "games")),
    Metric(
        "bust_rate", "Games in which someone went below zero (see bust_source)", _ratio("bust", "bust_games")
    ),
    Metric(
        "timeout_rate",
        "Games ended by a turn limit rather than by the rules (Ludii Timeouts)",
        _ratio("timeout", "timeout_games"),
    ),
    Metric(
        "extreme_rate",
        "Games with a final score outside the baseline variant's 1–99% range",
        _ratio("extreme", "games"),
    ),
    Metric("length", "Mean game length (turns or hands)", _ratio("length", "length_games")),
    Metric("spread", "Mean top-minus-bottom final score", _ratio("spread", "games")),
    Metric(
        "mean_abs_difference",
        "Mean absolute difference of final scores between two players of a game",
        _ratio("mad", "games"),
    ),
    Metric(
        "gini",
        "Gini of final scores within a game (scores shifted to be non-negative)",
        _ratio("gini", "games"),
    ),
    Metric(
        "lead_changes",
        "Changes of the points leader per game (between hands)",
        _ratio("lead_changes", "hand_games"),
        True,
    ),
    Metric(
        "lead_changes_per_hand", "Lead changes per hand", _ratio("lead_changes", "hand_transitions"), True
    ),
    Metric(
        "winner_led_fraction",
        "Fraction of hands after which the eventual winner led",
        _ratio("winner_led", "hand_games"),
        True,
    ),
    Metric(
        "drama",
        "Mean deficit of the eventual winner to the leader over the hands (points)",
        _ratio("drama", "hand_games"),
        True,
    ),
    Metric(
        "max_drama",
        "Largest deficit of the eventual winner (points)",
        _ratio("max_drama", "hand_games"),
        True,
    ),
    Metric(
        "decisiveness",
        "Fraction of the game elapsed before the winner leads for good (low = decided early)",
        _ratio("decided", "hand_games"),
        True,
    ),
    Metric(
        "comeback",
        "P(win | last place at the half-game checkpoint)",
        _ratio("comeback_wins", "comeback_eligible"),
        True,
    ),
)
