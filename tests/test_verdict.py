"""The verdict on top of every report, and the tails of final points it reads.

Real runs with a known effect (sugoroku's payout cap on the tail, Hong Kong's minimum fan on the
draw rate) and a variant whose effect is nil; the short default ``run`` output measured at 80
columns; the tails' paired interval against a deal bootstrap on synthetic data.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from harness_helpers import REPO, in_repo, play  # noqa: F401  (in_repo: an autouse fixture)
from rich.cells import cell_len
from stats_fixtures import make_run
from typer.testing import CliRunner

from simharness import store
from simharness.cli import app
from simharness.report.full import build_report
from simharness.stats.power import min_detectable

SUGOROKU = """\
game = "sugoroku"
games = 1500
description = "Does a 100-point cap tame the tail?"
players = ["naive", "greedy", "random", "agreeable"]

[variants.none]
payout_cap = "none"

[variants.cap-100]
payout_cap = 100

# Rests above 10 outstanding are rare: a rule that almost never comes into play.
[variants.rest-11]
payout_cap = "none"
rest_cap_base = 11
"""


def _verdict(run_dir: Path) -> dict:
    result = CliRunner().invoke(app, ["report", str(run_dir), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_verdict_names_the_caps_effect_on_the_tail_and_what_a_nil_rule_could_have_shown(
    tmp_path: Path,
) -> None:
    run_dir = play(tmp_path, "cap", SUGOROKU)
    report = _verdict(run_dir)
    verdict = report["verdict"]
    assert next(iter(report)) == "verdict"  # on top
    assert verdict["question"] == "Does a 100-point cap tame the tail?"
    assert [(c["variant"], c["baseline"]) for c in verdict["comparisons"]] == [
        ("cap-100", "none"),
        ("rest-11", "none"),
    ]
    cap, rest = verdict["comparisons"]

    # The tails, from the players table by another path: numpy's inverted-CDF quantile and the minimum.
    players = store.open_run(run_dir).table("players")
    points = {
        v: players.filter(pl.col("variant") == v)["final_points"].to_numpy() for v in ("none", "cap-100")
    }
    tails = report["tails"]["variants"]
    for v, x in points.items():
        assert tails[v]["worst"] == x.min() and tails[v]["best"] == x.max()
        assert tails[v]["p1"]["estimate"] == np.quantile(x, 0.01, method="inverted_cdf")
        assert tails[v]["p99"]["estimate"] == np.quantile(x, 0.99, method="inverted_cdf")
    assert points["cap-100"].min() > points["none"].min()  # the cap tames the worst game

    changes = {(c["source"], c["metric"]): c for c in cap["changes"]}
    p1 = changes[("tails", "p1")]
    assert p1["difference"]["lo"] > 0  # the lower tail moves up
    assert changes[("tails", "p99")]["difference"]["hi"] < 0  # and the upper tail down
    worst = f"worst final score {points['cap-100'].min():,} vs {points['none'].min():,}".replace("-", "−")
    assert p1["sentence"].startswith(f"{worst} (p1 of final points +")
    # Holm over the family: every change survives it, the smallest p-value is multiplied by the
    # family's size, and the changes come largest first in standard errors (interval widths).
    assert all(c["pvalue"] <= c["p_holm"] < 0.05 for c in cap["changes"])
    first = min(cap["changes"], key=lambda c: c["pvalue"])
    assert first["p_holm"] == pytest.approx(min(1.0, cap["tested"] * first["pvalue"]))
    sizes = [
        abs(c["difference"]["estimate"]) / (c["difference"]["hi"] - c["difference"]["lo"])
        for c in cap["changes"]
    ]
    assert sizes == sorted(sizes, reverse=True)
    assert (
        cap["detectable"] == []
        and cap["summary"] == f"{len(cap['changes'])} of {cap['tested']} metrics changed"
    )

    # The nearly nil rule: when it came into play, players served a few more rests (its own counter,
    # paired by deal), and nothing else changed; what these games could have seen in the headline.
    assert {(c["source"], c["metric"]) for c in rest["changes"]} <= {("game", "rests_served")}
    assert all(c["difference"]["lo"] > 0 for c in rest["changes"])
    assert (
        rest["summary"].startswith(
            f"{len(rest['changes'])} of {rest['tested']} metrics changed, none of the headline ones; "
            "with these games it would have detected ±"
        )
        if rest["changes"]
        else rest["summary"].startswith("no change detected; with these games it would")
    )
    found = {d["metric"]: d for d in rest["detectable"]}
    assert found["final_points"]["mde"] > 0 and found["length"]["mde"] > 0
    # The 1st-place rate is listed as the same in every deal exactly when no game's ranks changed.
    ranks = {
        v: players.filter(pl.col("variant") == v).sort("game", "seat")["rank"].to_list()
        for v in ("none", "rest-11")
    }
    assert (found["win"]["mde"] is None) == (ranks["none"] == ranks["rest-11"])


def test_the_verdict_names_the_minimum_fans_effect_on_the_draw_rate(tmp_path: Path) -> None:
    body = """\
game = "hongkong"
games = 100
duplicate = true
description = "Does a 3-fan minimum make more hands end in a draw?"
players = ["chicken-fast", "min-fan", "pung-hunter", "defensive"]

[variants.fan-0]
min_fan = 0

[variants.fan-3]
min_fan = 3
"""
    (tmp_path / "hk.toml").write_text(f'name = "hk"\nseed = 5\n{body}')
    ran = CliRunner().invoke(app, ["run", str(tmp_path / "hk.toml"), "--out", str(tmp_path), "--jobs", "1"])
    assert ran.exit_code == 0, ran.output
    verdict = _verdict(tmp_path / "hk")["verdict"]
    (fan3,) = verdict["comparisons"]
    draw = next(c for c in fan3["changes"] if (c["source"], c["metric"]) == ("game", "draw_rate"))
    assert draw["unit"] == "pp" and draw["difference"]["lo"] > 0
    assert draw["sentence"].startswith("exhaustive draw rate +")
    assert "question: Does a 3-fan minimum make more hands end in a draw?" in ran.stdout
    assert "fan-3 vs fan-0: " in ran.stdout


def _screen_lines(text: str, width: int = 80) -> int:
    """Lines on a terminal of ``width`` columns, long lines wrapped."""
    return sum(max(1, math.ceil(cell_len(line) / width)) for line in text.splitlines())


def test_the_default_run_output_of_the_cap_config_fits_40_lines_at_80_columns(tmp_path: Path) -> None:
    config = REPO / "configs" / "sugoroku-cap.toml"
    # A process of its own: the console takes its width from COLUMNS when it is made.
    cmd = [sys.executable, "-m", "simharness.cli", "run", str(config), "--games", "2000", "--jobs", "1"]
    env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [*cmd, "--out", str(tmp_path)], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    short = done.stdout
    assert _screen_lines(short) <= 40, short
    assert "question: Does the 500-point cap tame sugoroku?" in short
    assert "cap-500 vs none: " in short and "progressive vs none: " in short
    assert "worst final score" in short and "headline" in short
    assert "balance scorecard" not in short
    # The whole report, one flag away (the run is done: nothing is played again).
    args = ["run", str(config), "--games", "2000", "--jobs", "1", "--out", str(tmp_path), "--full"]
    full = CliRunner().invoke(app, args)
    assert full.exit_code == 0, full.output
    assert "question: Does the 500-point cap tame sugoroku?" in full.stdout
    assert "balance scorecard" in full.stdout and "variant progressive" in full.stdout


def test_the_paired_interval_of_a_tail_difference_matches_a_deal_bootstrap(tmp_path: Path) -> None:
    """Bahadur's paired standard error of p1(wild) − p1(base) against the spread of 400 deal-bootstrap
    replicates of the same difference (both variants resampled by the same deals), within 25%."""
    run = make_run(tmp_path, {"base": 1.0, "wild": 1.5}, n_games=2000)
    report = build_report(run)
    for d in report["tails"]["differences"]:
        q = {"p1": 0.01, "p99": 0.99}[d["metric"]]
        players = run.tables["players"]
        x = {v: players.filter(pl.col("variant") == v).sort("deal") for v in ("base", "wild")}
        deals = np.unique(x["base"]["deal"].to_numpy())
        rows = {v: {int(k[0]): f["final_points"].to_numpy() for k, f in x[v].group_by("deal")} for v in x}
        rng = np.random.default_rng(3)
        reps = []
        for _ in range(400):
            pick = rng.choice(deals, len(deals))
            a = np.concatenate([rows["wild"][int(k)] for k in pick])
            b = np.concatenate([rows["base"][int(k)] for k in pick])
            reps.append(np.quantile(a, q, method="inverted_cdf") - np.quantile(b, q, method="inverted_cdf"))
        boot = float(np.std(reps, ddof=1))
        assert 0.75 < d["se"] / boot < 1.33, (d["metric"], d["se"], boot)
        # pairing matters: the correlation of the two variants' tails is real and positive
        assert d["rho"] > 0.3


def test_minimum_detectable_effect_is_the_normal_power_formula() -> None:
    # (z_0.975 + z_0.8)·se = (1.959964 + 0.841621)·se
    assert min_detectable(1.0) == pytest.approx(2.801585, abs=1e-6)
    assert min_detectable(2.0, alpha=0.01, power=0.9) == pytest.approx(2 * (2.575829 + 1.281552), abs=1e-6)
