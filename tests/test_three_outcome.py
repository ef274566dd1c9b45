"""The three-outcome sequential test (``stats.sequential.ThreeOutcome``) that `[until]` and
`[sweep.until]` share: its error rates by simulation, and the same decision from both features on
the same data."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from simharness.stats.looks import CONTINUE, THREE_OUTCOME, Look, UntilRecord
from simharness.stats.sequential import ThreeOutcome, Verdict, gsprt_llr_counts, look_scores, until_result
from simharness.sweep_until import Looks

MU1, ALPHA, BETA = 0.05, 0.05, 0.05
VALUES = np.array([-1.0, 0.0, 1.0])  # per-deal paired differences of 1st places (one game a deal)


def _decisions(delta: float, reps: int, seed: int, step: int = 100, looks: int = 120) -> np.ndarray:
    """Verdict classes (−1 undecided, 0 B better, 1 no difference, 2 A better) of ``reps`` tests on
    paired win differences with mean ``delta``, looked at every ``step`` deals, each look taken by
    ThreeOutcome.advance with the generalised SPRT's LLRs of every test at once."""
    test = ThreeOutcome.of(MU1, ALPHA, BETA)
    rng = np.random.default_rng(seed)
    p = np.array([0.25 - delta / 2, 0.5, 0.25 + delta / 2])
    counts = np.zeros((reps, 3))
    up, down = np.zeros(reps, dtype=int), np.zeros(reps, dtype=int)
    verdict = np.full(reps, -1)
    for _ in range(looks):
        running = verdict == -1
        counts[running] += rng.multinomial(step, p, size=int(running.sum()))
        llr_up = gsprt_llr_counts(VALUES, counts[running], 0.0, MU1)
        llr_down = gsprt_llr_counts(VALUES, counts[running], 0.0, -MU1)
        u, d = up[running], down[running]
        verdict[running] = test.advance(u, d, llr_up, llr_down)
        up[running], down[running] = u, d
        if not running.any():
            break
    return verdict


def _noise(rate: float, reps: int) -> float:
    """Three binomial standard errors of a rate estimated from ``reps`` tests."""
    return 3 * math.sqrt(rate * (1 - rate) / reps)


def test_error_rates_within_alpha_and_beta() -> None:
    reps = 1500
    same = _decisions(0.0, reps, 1)
    better = _decisions(MU1, reps, 2)
    worse = _decisions(-MU1, reps, 3)
    for d in (same, better, worse):
        assert (d == -1).mean() < 0.01  # the budget (12,000 deals) is almost never reached
    # A = B: any "better" is a wrong decision, at most α (each side runs at α/2).
    wrong = (same == 0).mean() + (same == 2).mean()
    assert 0.005 < wrong <= ALPHA + _noise(ALPHA, reps)
    assert min((same == 0).mean(), (same == 2).mean()) > 0  # both directions are tested
    # |δ| = mu1: missing the difference at most β, and the wrong sign essentially never.
    for d, right, wrong_sign in ((better, 2, 0), (worse, 0, 2)):
        assert (d != right).mean() <= BETA + _noise(BETA, reps)
        assert (d == wrong_sign).mean() <= 0.002
    # and at δ = 0 "no difference" is the usual answer
    assert (same == 1).mean() > 0.9


def _players(
    deals: np.ndarray, a: np.ndarray, b: np.ndarray, *, variant: str, names: tuple[str, str]
) -> pl.DataFrame:
    """Players rows of one game per deal: the first name scores ``a``, the second ``b``."""
    rows = [
        pl.DataFrame({"game": deals, "deal": deals, "strategy": name, "final_points": pts, "rank": 1})
        for name, pts in zip(names, (a, b), strict=True)
    ]
    return pl.concat(rows).with_columns(variant=pl.lit(variant))


@pytest.mark.parametrize("delta", [0.0, 6.0, -6.0])
def test_until_and_sweep_until_decide_alike_on_the_same_data(delta: float) -> None:
    rng = np.random.default_rng(int(10 + delta))
    deals = np.arange(6000)
    x = rng.normal(100 + delta, 40, len(deals)).round()
    y = rng.normal(100, 40, len(deals)).round()
    step, mu1 = 500, 5.0
    # [until]: A − B within one variant; [sweep.until]: the variant − the base for one strategy.
    until_rows = _players(deals, x, y, variant="base", names=("a", "b"))
    base = _players(deals, y, y, variant="base", names=("s", "other"))
    variant = _players(deals, x, x, variant="v", names=("s", "other"))
    settings = {"mu1": mu1, "alpha": ALPHA, "beta": BETA, "look_every": step}
    sweep = Looks(
        {**settings, "metric": "final_points[s]", "measure": "final_points", "strategy": "s"},
        ["base", "v"],
        lambda v, below: (base if v == "base" else variant).filter(pl.col("game") < below),
    )
    looks = []
    for games in range(step, len(deals) + 1, step):
        looks.append(Look(games=games, n=games, mean=None, decision=CONTINUE))
        if sweep.after(games):
            break
    swept = sweep.record.variants["v"]
    record = UntilRecord(
        **settings,
        a="a",
        b="b",
        metric="final_points",
        variant="base",
        design=THREE_OUTCOME,
        games=looks[-1].games,
        looks=tuple(looks),
    )
    until = until_result(record, look_scores(until_rows, record, record.games))
    want = {0.0: Verdict.NO_EFFECT, 6.0: Verdict.EFFECT_UP, -6.0: Verdict.EFFECT_DOWN}[delta].value
    assert swept.decision == until["result"]["decision"] == want
    assert swept.looks[-1].llr_up == pytest.approx(until["result"]["llr_up"])
    assert swept.looks[-1].llr_down == pytest.approx(until["result"]["llr_down"])
    said = {0.0: "no difference as large as 5", 6.0: "a better than b by ≥ 5", -6.0: "b better than a by ≥ 5"}
    assert until["verdict"].startswith(said[delta])
    est = until["estimate"]
    assert est["lo"] < est["estimate"] < est["hi"]
