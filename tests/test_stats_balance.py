"""The balance scorecard on a hand-worked example and on synthetic runs with planted effects."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from stats_fixtures import make_run

from simharness.report.frames import game_lengths, players_frame, variant_names
from simharness.stats.balance import scorecard, standings

# Running standings after each hand (3 seats); game 2 has no hand rows (a draw for first place).
HANDS = {0: [[10, 0, -10], [0, 20, -20], [5, 5, -10], [0, 15, -15]], 1: [[-5, 5, 0], [10, -5, -5]]}
FINAL = {0: [0, 15, -15], 1: [10, -5, -5], 2: [5, 5, -10]}
RANKS = {0: [2, 1, 3], 1: [1, 2, 3], 2: [1, 2, 3]}


def _frames() -> tuple[pl.DataFrame, pl.DataFrame]:
    players = pl.DataFrame(
        {
            "variant": "base",
            "game": np.repeat([0, 1, 2], 3),
            "deal": np.repeat([0, 1, 2], 3),
            "seat": np.tile([0, 1, 2], 3),
            "final_points": [x for g in range(3) for x in FINAL[g]],
            "rank": [x for g in range(3) for x in RANKS[g]],
            "strategy": ["A", "B", "C"] * 3,
        }
    )
    rows = [(g, h, *pts) for g, hs in HANDS.items() for h, pts in enumerate(hs)]
    hands = pl.DataFrame(rows, schema=["game", "hand", "points_0", "points_1", "points_2"], orient="row")
    return players, hands.with_columns(variant=pl.lit("base"))


def test_scorecard_hand_worked_example() -> None:
    players, hands = _frames()
    # Lowest points during the game: only game 1 never went below zero.
    players = players.with_columns(
        lowest_points=pl.Series([0, 0, -20, 10, -5, -5, 5, 5, -10]) * (pl.col("game") != 1)
    )
    games = pl.DataFrame({"variant": "base", "game": [0, 1, 2], "early_end": [0, 1, 0]})
    sc = scorecard(players, None, hands, ["base"], games=games, resamples=50)
    m = sc["variants"]["base"]
    assert sc["bust_source"].startswith("a player's lowest points")
    expected = {
        "timeout_rate": 1 / 3,
        "balance": 1 - 2 / 3,
        "first_seat_win_rate": 2 / 3,
        "skill_gradient": 2 / 3,
        "tied_first_rate": 1 / 3,
        "bust_rate": 2 / 3,
        "spread": (30 + 15 + 15) / 3,
        "mean_abs_difference": (20 + 10 + 10) / 3,
        # shifted scores: game 0 [15, 30, 0]: 120/(2·9·15); game 1 [15, 0, 0]: 60/(2·9·5);
        # game 2 [15, 15, 0]: 60/(2·9·10)
        "gini": (120 / 270 + 60 / 90 + 60 / 180) / 3,
        "lead_changes": (3 + 1) / 2,
        "lead_changes_per_hand": 4 / 4,
        "winner_led_fraction": (3 / 4 + 1 / 2) / 2,
        "drama": (10 / 4 + 10 / 2) / 2,
        "max_drama": 10.0,
        "decisiveness": (1 / 4 + 1 / 2) / 2,
        "comeback": 1 / 2,
    }
    for name, value in expected.items():
        assert m[name]["estimate"] == pytest.approx(value), name
    assert "length" not in m
    # Without a logged bust, negative finals mean nothing in a game whose median score is 0.
    plain = scorecard(players.drop("lowest_points"), None, hands, ["base"], resamples=20)
    assert "bust_rate" not in plain["variants"]["base"] and "timeout_rate" not in plain["variants"]["base"]
    assert any("bust" in n for n in plain["notes"])


def test_seat_axis_follows_turn_order_not_table_position() -> None:
    players, _ = _frames()
    # The first dealer sits at seat 1 in every game: turn order k is seat (1 + k) mod 3.
    players = players.with_columns(dealer_order=(pl.col("seat") + 2) % 3)
    m = scorecard(players, None, None, ["base"], seat_axis="dealer_order", resamples=20)
    assert m["variants"]["base"]["first_seat_win_rate"]["estimate"] == pytest.approx(1 / 3)  # seat 1 won once
    assert m["seat_tests"]["base"]["seat_rank_counts"]["seats"] == [0, 1, 2]


def test_standings_accepts_long_and_delta_forms() -> None:
    players, hands = _frames()
    wide = standings(hands, 3)
    long = wide.rename({"points": "points"})
    deltas = (
        hands.sort("game", "hand")
        .with_columns(
            (pl.col(f"points_{s}") - pl.col(f"points_{s}").shift(1, fill_value=0).over("game")).alias(
                f"delta_{s}"
            )
            for s in range(3)
        )
        .drop("points_0", "points_1", "points_2")
    )
    ref = scorecard(players, None, hands, ["base"], resamples=20)["variants"]["base"]
    for other in (long, deltas):
        got = scorecard(players, None, other, ["base"], resamples=20)["variants"]["base"]
        assert {k: v["estimate"] for k, v in got.items()} == pytest.approx(
            {k: v["estimate"] for k, v in ref.items()}
        )
    assert standings(hands.drop("points_2"), 3) is None


def test_scorecard_detects_planted_effects_and_controls_multiplicity(tmp_path: Path) -> None:
    run = make_run(tmp_path, {"base": 1.0, "wild": 2.0}, n_games=2000, seat_edge=600.0)
    players = players_frame(run)
    lengths, _ = game_lengths(run)
    sc = scorecard(players, lengths, run.tables["hands"], variant_names(run, players), resamples=400)
    assert (sc["strong"], sc["weak"]) == ("strong", "random")
    base, wild = sc["variants"]["base"], sc["variants"]["wild"]
    assert base["balance"]["hi"] < 1 and sc["seat_tests"]["base"]["wins_vs_uniform"]["pvalue"] < 1e-3
    assert sc["seat_tests"]["base"]["seat_by_rank"]["effect"] > 0  # Cramér's V
    diffs = {d["metric"]: d for d in sc["differences"]}
    # Twice the luck: a flatter skill gradient, more busts and shorter games, all with CIs excluding 0.
    assert diffs["skill_gradient"]["difference"]["hi"] < 0
    assert (
        diffs["bust_rate"]["difference"]["lo"] > 0
        and wild["bust_rate"]["estimate"] > base["bust_rate"]["estimate"]
    )
    assert diffs["length"]["difference"]["hi"] < 0
    assert all(d["p_holm"] >= d["pvalue"] - 1e-12 for d in sc["differences"])
    no_hands = scorecard(players, lengths, None, ["base", "wild"], resamples=50)
    assert not no_hands["hand_level"] and "drama" not in no_hands["variants"]["base"] and no_hands["notes"]
