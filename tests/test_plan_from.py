"""`plan --from RUN`: sample sizes from what a run measured. At the planned number of deals the
paired test's power, by simulation, is the asked power within Monte Carlo error, for a rate (first
places) and for a points metric; the command reads a real run."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from harness_helpers import play
from scipy import stats
from typer.testing import CliRunner

from simharness.cli import app
from simharness.stats.paired import games_per_deal, paired_scores
from simharness.stats.power import plan_paired

GAMES_PER_DEAL = 4
EFFECT = {"win": 0.04, "final_points": 3.0}


def _rates(rng: np.random.Generator, deals: int, delta: float) -> tuple[np.ndarray, np.ndarray]:
    """Per game of each deal, 1 if A (resp. B) came first: a deal's luck moves both (shared walls),
    and A wins ``delta`` more often than B."""
    luck = rng.uniform(-0.1, 0.1, (deals, 1))
    u = rng.uniform(size=(deals, GAMES_PER_DEAL))
    pa, pb = 0.25 + luck + delta / 2, 0.25 + luck - delta / 2
    return (u < pa).astype(float), ((u >= pa) & (u < pa + pb)).astype(float)


def _points(rng: np.random.Generator, deals: int, delta: float) -> tuple[np.ndarray, np.ndarray]:
    """Final points per game: a deal's luck shared by A and B, and A ``delta`` points ahead."""
    luck = rng.normal(0, 30, (deals, 1))
    a = luck + rng.normal(delta, 20, (deals, GAMES_PER_DEAL))
    b = 0.5 * luck + rng.normal(0, 25, (deals, GAMES_PER_DEAL))
    return a.round(), b.round()


def _players(a: np.ndarray, b: np.ndarray, metric: str) -> pl.DataFrame:
    """Players rows of A and B (and, for first places, the rest of the table as one "field" row)."""
    deals, k = a.shape
    game = np.arange(deals * k)
    deal = np.repeat(np.arange(deals), k)
    if metric == "final_points":
        rows = {"a": a.ravel(), "b": b.ravel()}
        return pl.concat(
            pl.DataFrame({"game": game, "deal": deal, "strategy": s, "final_points": v, "rank": 1})
            for s, v in rows.items()
        )
    first = {"a": a.ravel(), "b": b.ravel(), "field": 1 - a.ravel() - b.ravel()}
    return pl.concat(
        pl.DataFrame(
            {"game": game, "deal": deal, "strategy": s, "final_points": 0, "rank": np.where(w == 1, 1, 2)}
        )
        for s, w in first.items()
    )


@pytest.mark.parametrize(("metric", "draw"), [("win", _rates), ("final_points", _points)])
def test_power_at_the_planned_deals_is_the_asked_power(
    metric: str, draw: Callable[[np.random.Generator, int, float], tuple[np.ndarray, np.ndarray]]
) -> None:
    rng = np.random.default_rng(24)
    delta, want = EFFECT[metric], 0.8
    # a pilot run (large, so that its variance is known to ~1%), planned from its players rows
    pilot = _players(*draw(rng, 20_000, delta), metric)
    d = paired_scores(pilot, "a", "b", metric)["d"].to_numpy()
    assert games_per_deal(pilot) == GAMES_PER_DEAL
    p = plan_paired(float(d.var(ddof=1)), GAMES_PER_DEAL, delta, alpha=0.05, power=want)
    assert p.games == p.deals * GAMES_PER_DEAL and 50 < p.deals < 5000
    # many experiments of the planned size: the two-sided paired t-test at α = 0.05 rejects at the power
    reps = 2000
    a, b = draw(rng, reps * p.deals, delta)
    diffs = (a - b).mean(axis=1).reshape(reps, p.deals)
    rejected = stats.ttest_1samp(diffs, 0.0, axis=1).pvalue < 0.05
    noise = 3 * math.sqrt(want * (1 - want) / reps)
    assert abs(rejected.mean() - want) <= noise + 0.01  # + the pilot's error in the variance
    # the sequential test needs fewer games on average, under no difference and at the effect
    assert p.sequential_deals_effect < p.deals and p.sequential_deals_none < p.deals


def test_plan_from_a_run(tmp_path: Path) -> None:
    run_dir = play(
        tmp_path,
        "planned",
        'game = "sugoroku"\ngames = 800\nduplicate = true\nshard_size = 200\n'
        'players = ["naive", "greedy", "naive", "random"]\n',
    )
    runner = CliRunner()
    args = ["plan", "--from", str(run_dir), "--a", "greedy", "--b", "random"]
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    # points, and rank points (the game's default, [3, 1, −1, −3] for four players) by the same name
    for metric, effect in (("final_points", 5.0), ("rank_points", 0.25)):
        out = runner.invoke(app, [*args, "--metric", metric, "--effect", str(effect), "--json"])
        assert out.exit_code == 0, out.output
        got = json.loads(out.stdout)
        compared = runner.invoke(
            app, ["compare", str(run_dir), "--a", "greedy", "--b", "random", "--metric", metric, "--json"]
        )
        c = json.loads(compared.stdout)
        var_deal = c["var_paired"] / c["games_per_deal"]
        assert got["metric"] == c["metric"] == metric and got["observed"] == c["difference"]
        assert got["games_per_deal"] == 4 and got["var_deal"] == pytest.approx(var_deal)
        assert got["deals"] == math.ceil(z**2 * var_deal / effect**2) and got["games"] == 4 * got["deals"]
        assert got["independent_games"] == math.ceil(z**2 * c["var_independent"] / effect**2)
        assert got["efficiency"] == pytest.approx(c["efficiency"]) and got["look_deals"] == 50
    # the 1st-place rate by its plan name, the observed difference when no --effect is given
    out = runner.invoke(app, [*args, "--metric", "first_place", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["effect"] == pytest.approx(
        abs(json.loads(out.stdout)["observed"]["estimate"])
    )
    out = runner.invoke(app, [*args, "--metric", "first_place"])
    assert out.exit_code == 0 and "three-outcome sequential test" in out.stdout
    bad = runner.invoke(app, [*args, "--metric", "wins"])
    assert bad.exit_code == 2 and "expected one of first_place, final_points, rank" in bad.output
