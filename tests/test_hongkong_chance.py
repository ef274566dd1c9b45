"""Hong Kong mahjong's keyed chance: the `named` recipe (seed / ASCII tag / deal / hand, as in every
game; the default) deals other walls than the `numeric` recipe of earlier releases, from the same
distribution. Games of each recipe (the same lineup and seed) are compared outcome by outcome: how
hands end, the fan of the wins, the final points. The seed is fixed, so the test is deterministic;
its thresholds are those of a test at the 0.1% level."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simharness import engine, sweep

LINEUP = [
    {},
    {"claims": "never"},
    {"claims": "pung_only", "discard": "pungs"},
    {"discard": "random", "claims": "random"},
]
GAMES = 100
ALPHA = 0.001


def tables(recipe: str) -> dict[str, pl.DataFrame]:
    rules = engine.resolve_rules("hongkong", "default", {"chance_recipe": recipe})
    return engine.play_batch("hongkong", rules, LINEUP, seed=2026, first_game=0, count=GAMES)


@pytest.fixture(scope="module")
def played() -> dict[str, dict[str, pl.DataFrame]]:
    return {recipe: tables(recipe) for recipe in ("named", "numeric")}


def test_the_recipes_deal_other_walls(played: dict[str, dict[str, pl.DataFrame]]) -> None:
    named, numeric = (played[r]["hands"] for r in ("named", "numeric"))
    assert named.height > 2000 and numeric.height > 2000
    first = [frame.filter(pl.col("hand") == 0)["dice"].to_list() for frame in (named, numeric)]
    assert first[0] != first[1]


def test_hands_end_alike(played: dict[str, dict[str, pl.DataFrame]]) -> None:
    # Draws, self-draws and discard wins (a robbed kong counted with them), one row per hand.
    outcome = engine.codes("hongkong", "hands", "outcome")
    ends = ("exhaustive_draw", "self_draw", "discard_win")
    cell = {outcome[o]: i for i, o in enumerate(ends)} | {outcome["robbed_kong"]: ends.index("discard_win")}
    counts = []
    for recipe in ("named", "numeric"):
        hands = played[recipe]["hands"].filter(pl.col("claim") == 0)
        counts.append(np.bincount(hands["outcome"].replace_strict(cell).to_numpy(), minlength=len(ends)))
    assert stats.chi2_contingency(np.array(counts)).pvalue > ALPHA, counts


def test_wins_score_alike(played: dict[str, dict[str, pl.DataFrame]]) -> None:
    # The fan of every win, the rare high fans pooled so that each cell expects enough wins.
    counts = []
    for recipe in ("named", "numeric"):
        fan = (
            played[recipe]["hands"]
            .filter(
                pl.col("winner") >= 0,
                pl.col("outcome") != engine.codes("hongkong", "hands", "outcome")["false_win"],
            )["fan"]
            .to_numpy()
        )
        counts.append(np.bincount(fan.clip(0, 6), minlength=7))
    table = np.array(counts)
    assert stats.chi2_contingency(table[:, table.sum(axis=0) > 0]).pvalue > ALPHA, counts


def test_games_end_alike(played: dict[str, dict[str, pl.DataFrame]]) -> None:
    points = [played[r]["players"]["final_points"].to_numpy() for r in ("named", "numeric")]
    assert stats.ks_2samp(*points).pvalue > ALPHA
    lengths = [played[r]["games"]["hands"].to_numpy() for r in ("named", "numeric")]
    assert stats.ks_2samp(*lengths).pvalue > ALPHA


def test_a_sweep_of_every_rule_leaves_out_the_recipe_the_engine_marks_chance() -> None:
    marked = {s.name for g in engine.game_names() for s in engine.rule_options(g) if s.chance}
    assert marked == {"chance_recipe"}
    swept = sweep.design("hongkong", "default", {})
    assert not any(v.startswith("chance_recipe") for v in swept.variants)
    # Named, it is swept like any option: the mark keeps it out of "every rule", nothing more.
    named = sweep.design("hongkong", "default", {}, options=["chance_recipe"])
    assert list(named.variants) == ["base", "chance_recipe-numeric"]
