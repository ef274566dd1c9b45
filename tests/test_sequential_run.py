"""`[until]`: the runner adds shard waves until the GSPRT decides, replays the same looks on resume."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polars as pl
import pytest
from harness_helpers import (  # noqa: F401  (in_repo, autouse: strategies resolve from the repository)
    in_repo,
    rank_points_by_hand,
)
from rich.console import Console

from simharness import config, runner, store
from simharness.errors import ConfigError
from simharness.report.compare import compare_strategies
from simharness.report.full import build_report
from simharness.report.html import write_html
from simharness.report.summary import build_summary, print_summary
from simharness.stats.looks import UntilRecord
from simharness.stats.sequential import SPRT, look_scores

CONFIG = """\
name = "seq"
game = "sugoroku"
games = {games}
seed = 5
duplicate = true
shard_size = 100
players = [{players}]

[until]
a = "{a}"
b = "{b}"
metric = "{metric}"
mu0 = 0.0
mu1 = {mu1}
look_every = {look}
"""
TWINS = '{strategy = "naive", label = "twin-a"}, "greedy", {strategy = "naive", label = "twin-b"}, "random"'


def _config(tmp: Path, **kw: object) -> Path:
    values = {
        "games": 2400,
        "players": TWINS,
        "a": "twin-a",
        "b": "twin-b",
        "metric": "win",
        "mu1": 0.02,
        "look": 400,
    } | kw
    path = tmp / "seq.toml"
    path.write_text(CONFIG.format(**values))
    return path


def _manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


def test_identical_strategies_accept_h0_early_and_resume_replays_the_looks(tmp_path: Path) -> None:
    exp = config.load(_config(tmp_path))
    bar = io.StringIO()
    run_dir = runner.run(exp, tmp_path / "out", jobs=2, console=Console(file=bar, width=200))
    seq = _manifest(run_dir)["sequential"]
    # the bar ends full at the games the test played, not at a fraction of the budget
    assert f"{seq['games']}/{seq['games']} games 100%" in bar.getvalue()
    # Two copies of one strategy: no difference in 1st-place rate, so both sides accept δ = 0 before
    # the budget: "no difference as large as mu1".
    assert seq["decision"] == "no effect" and seq["games"] < 2400
    assert len(seq["looks"]) == seq["games"] // 400 and seq["up"] == seq["down"] == "H0"
    assert [k["decision"] for k in seq["looks"]] == ["continue"] * (len(seq["looks"]) - 1) + ["no effect"]
    assert (
        len(store.open_run(run_dir).files("players", "base")) == seq["games"] // 100
    )  # the rest never played
    # compare repeats the run's sequential verdict for the comparison the run was stopped on only.
    run = store.open_run(run_dir)
    told = compare_strategies(run, "twin-a", "twin-b")["sequential"]
    assert told["result"]["decision"] == "no effect"
    assert told["verdict"] == "no difference as large as 2 pp between twin-a and twin-b"
    assert compare_strategies(run, "greedy", "random")["sequential"] is None
    before = sorted(p.name for p in (run_dir / "players" / "variant=base").iterdir())
    # as a kill just before the manifest's last write leaves it: the looks are replayed from the data
    manifest = _manifest(run_dir)
    (run_dir / "manifest.json").write_text(json.dumps({**manifest, "complete": False, "sequential": None}))
    runner.run(exp, tmp_path / "out", jobs=1)
    assert _manifest(run_dir)["sequential"]["looks"] == seq["looks"]
    assert sorted(p.name for p in (run_dir / "players" / "variant=base").iterdir()) == before


def test_planted_difference_accepts_h1_with_a_stopping_aware_estimate(tmp_path: Path) -> None:
    exp = config.load(
        _config(tmp_path, games=12000, a="greedy", b="random", metric="final_points", mu1=3.5, look=1000)
    )
    run_dir = runner.run(exp, tmp_path / "out", jobs=2)
    seq = _manifest(run_dir)["sequential"]
    # EV-greedy beats the coin-flipper by about 13 points per game on this seed's deals.
    assert seq["decision"] == "effect+" and seq["up"] == "H1" and seq["games"] < 12000
    s = build_summary(store.open_run(run_dir))["sequential"]
    assert s["verdict"] == "greedy better than random by ≥ 3.5"
    assert s["result"]["decision"] == "effect+" and [k["games"] for k in s["looks"]] == list(
        range(1000, seq["games"] + 1, 1000)
    )
    e = s["estimate"]
    assert e["lo"] < e["estimate"] < e["hi"] and e["lo"] > 0
    run = store.open_run(run_dir)
    report = build_report(run)
    write_html(run, report, tmp_path / "report.html")
    page = (tmp_path / "report.html").read_text()
    assert "Sequential test" in page and 'alt="LLR at each look and the SPRT bounds"' in page
    assert "→ greedy better than random by ≥ 3.5" in page
    # The header says the games played, not the config's budget, and names the budget.
    played = f"{seq['games']} games per variant (of 12000 planned: the sequential test stopped)"
    assert played in page
    out = io.StringIO()
    print_summary(report, Console(file=out, width=80))
    assert played in " ".join(out.getvalue().split())


def test_until_errors_name_the_field(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"until\.a"):
        config.load(_config(tmp_path, a="nobody"))
    with pytest.raises(ConfigError, match=r"until\.look_every"):
        config.load(_config(tmp_path, look=150))
    with pytest.raises(ConfigError, match=r"until\.mu1"):
        config.load(_config(tmp_path, mu1=0.0))
    path = _config(tmp_path)
    path.write_text(path.read_text().replace("mu0 = 0.0", "mu0 = 0.01"))
    with pytest.raises(ConfigError, match=r"until\.mu0: expected 0"):
        config.load(path)


def test_a_sequential_run_that_reached_its_budget_grows_and_looks_on(tmp_path: Path) -> None:
    run_dir = runner.run(config.load(_config(tmp_path, games=400)), tmp_path / "out", jobs=1)
    old = _manifest(run_dir)["sequential"]
    assert old["decision"] == "continue" and old["games"] == 400  # undecided at its budget
    grown = config.load(_config(tmp_path, games=2400))
    runner.run(grown, tmp_path / "out", jobs=1)
    fresh = runner.run(grown, tmp_path / "fresh", jobs=1)
    # the grown run replays the first look from its data and looks on as a fresh run of 2400 does
    seq = _manifest(run_dir)["sequential"]
    assert seq == _manifest(fresh)["sequential"] and seq["looks"][0] == old["looks"][0]
    assert seq["decision"] == "no effect" and len(seq["looks"]) > 1
    a, b = store.open_run(run_dir), store.open_run(fresh)
    assert a.table("players").equals(b.table("players"))


def test_a_run_of_the_former_one_sided_test_reports_what_it_could_not_tell(tmp_path: Path) -> None:
    """A run written when `[until]` was a one-sided SPRT of mu0 against mu1 (its manifest record has
    no `design`, its decision is H0 or H1): the report reads it with that test and says in words
    that an accepted H0 does not rule out a difference the other way."""
    exp = config.load(_config(tmp_path))
    run_dir = runner.run(exp, tmp_path / "out", jobs=2)
    manifest = _manifest(run_dir)
    players = store.open_run(run_dir).table("players")
    assert exp.until is not None
    one_sided = SPRT(0.0, 0.02)
    looks = []
    until = UntilRecord(**exp.until)
    for games in range(400, manifest["sequential"]["games"] + 1, 400):
        looks.append({"games": games, **one_sided.decide(look_scores(players, until, games)).to_dict()})
        if looks[-1]["decision"] != "continue":
            break
    keys = ("test", "a", "b", "metric", "variant", "mu0", "mu1", "alpha", "beta", "look_every")
    old = {**{k: exp.until[k] for k in keys}, "looks": looks, "decision": "H0", "games": looks[-1]["games"]}
    assert looks[-1]["decision"] == "H0"
    (run_dir / "manifest.json").write_text(json.dumps({**manifest, "sequential": old}))
    run = store.open_run(run_dir)
    report = build_report(run)
    seq = report["sequential"]
    assert seq["design"] == "one-sided" and seq["result"]["decision"] == "H0"
    assert seq["verdict"].startswith(
        "not: twin-a better than twin-b by ≥ 2 pp (one-sided test of 0 against 0.02"
    )
    e = seq["estimate"]
    assert e["lo"] < e["estimate"] < e["hi"]
    out = io.StringIO()
    print_summary(report, Console(file=out, width=100))
    said = " ".join(out.getvalue().split())
    assert "one-sided SPRT, H0 μ=0 vs H1 μ=0.02" in said and "cannot tell a difference the other way" in said
    write_html(run, report, tmp_path / "report.html")
    assert "it cannot tell a difference the other way" in (tmp_path / "report.html").read_text()


def test_until_on_rank_points_looks_at_the_rank_points_of_the_config(tmp_path: Path) -> None:
    """`metric = "rank_points"`: each look's mean is the per-deal mean of A's minus B's rank points,
    scored with the config's `rank_points` (not the game's default) from the logged ranks by hand;
    the report and `compare` repeat the decision in words."""
    path = tmp_path / "rank.toml"
    path.write_text(
        'name = "rank"\ngame = "suzume"\ngames = 1200\nseed = 5\nduplicate = true\nshard_size = 120\n'
        'rank_points = [6, 0, -6]\nplayers = ["fastest", "random", "defensive"]\n\n'
        '[until]\na = "fastest"\nb = "random"\nmetric = "rank_points"\nmu1 = 4.0\n'
    )
    run_dir = runner.run(config.load(path), tmp_path / "out", jobs=1)
    seq = _manifest(run_dir)["sequential"]
    # the Suzume-jong speed strategy outplaces a random discarder by about 8 rank points a game
    assert seq["metric"] == "rank_points" and seq["decision"] == "effect+" and seq["games"] < 1200
    players = store.open_run(run_dir).table("players")
    assert players.group_by("game").agg(pl.col("rank").n_unique() < 3)["rank"].any()  # tied places too
    scored = rank_points_by_hand(players, [6, 0, -6]).rename({"by_hand": "y"})
    for look in seq["looks"]:
        mine = scored.filter(pl.col("game") < look["games"])
        a, b = (
            mine.filter(pl.col("strategy") == s).group_by("deal").agg(pl.col("y").mean()).sort("deal")
            for s in ("fastest", "random")
        )
        assert look["mean"] == pytest.approx((a["y"] - b["y"]).mean())
    words = "fastest better than random by ≥ 4"
    run = store.open_run(run_dir)
    assert build_summary(run)["sequential"]["verdict"] == words
    told = compare_strategies(run, "fastest", "random", metric="rank_points")["sequential"]
    assert told["verdict"] == words and told["looks"] == seq["looks"]
