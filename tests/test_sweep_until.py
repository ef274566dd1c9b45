"""`[sweep.until]`: each sweep variant is tested against base and stops on its own decision.

A small Suzume-jong sweep: `starting_points` shifts everyone's final points by tens of points (an
effect decided at the first look), `mistake_penalty` plays exactly the base's games with this
lineup (no effect, recognised at once), `dealer_bonus` moves the fastest strategy's points by a
fraction of a point (decided later, or never within the budget).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from harness_helpers import (  # noqa: F401  (in_repo, autouse: strategies resolve from the repository)
    in_repo,
    rank_points_by_hand,
)
from typer.testing import CliRunner

from simharness import config, runner, store
from simharness.cli import app
from simharness.errors import ConfigError
from simharness.report.sweep import build_sweep
from simharness.stats.sequential import gsprt_llr
from simharness.sweep_cli import sweep_name

CONFIG = """\
name = "sweep-until"
game = "suzume"
games = {games}
seed = 3
shard_size = 50
players = ["fastest", "bonus-pusher", "defensive"]

[sweep]
options = ["starting_points", "mistake_penalty", "dealer_bonus"]

[sweep.until]
metric = "{metric}"
mu1 = {mu1}
look_every = {look}
"""
MU1, ALPHA, BETA, LOOK, GAMES = 0.5, 0.05, 0.05, 100, 300


def _config(tmp: Path, **kw: object) -> Path:
    values = {"games": GAMES, "metric": "final_points[fastest]", "mu1": MU1, "look": LOOK} | kw
    path = tmp / "sweep-until.toml"
    path.write_text(CONFIG.format(**values))
    return path


def _manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


def _parts(run_dir: Path) -> dict[str, list[str]]:
    return {d.name: sorted(p.name for p in d.iterdir()) for d in sorted((run_dir / "players").iterdir())}


def _by_hand(players: pl.DataFrame, variant: str, games: int, measure: str = "final_points") -> np.ndarray:
    """The fastest strategy's ``measure`` (final points, or rank points of the game's default
    [2, 0, −2]) in ``variant`` minus in base, game by game below ``games`` (independent play: one
    game per deal, the strategy seated once)."""

    def points(v: str) -> pl.DataFrame:
        rows = players.filter((pl.col("variant") == v) & (pl.col("game") < games))
        if measure == "rank_points":
            rows = rank_points_by_hand(rows, [2, 0, -2]).with_columns(final_points=pl.col("by_hand"))
        rows = rows.filter(pl.col("strategy") == "fastest")
        return rows.select("deal", pl.col("final_points").cast(pl.Float64))

    joined = points(variant).join(points("base"), on="deal", suffix="_base").sort("deal")
    return (joined["final_points"] - joined["final_points_base"]).to_numpy()


def _decisions_by_hand(
    players: pl.DataFrame,
    variants: list[str],
    measure: str = "final_points",
    mu1: float = MU1,
    budget: int = GAMES,
) -> dict[str, tuple[str, int]]:
    """Each variant's decision and games, recomputed look by look from the logged rows: two one-sided
    GSPRTs (0 vs +mu1, 0 vs −mu1) at α/(2m), Wald's bounds, a side's decision kept once made."""
    a = ALPHA / (2 * len(variants))
    lower, upper = math.log(BETA / (1 - a)), math.log((1 - BETA) / a)
    out = {}
    for v in variants:
        sides = {+1: "continue", -1: "continue"}
        games = 0
        while games < budget:
            games += LOOK
            d = _by_hand(players, v, games, measure)
            for sign in sides:
                llr = gsprt_llr(d, 0.0, sign * mu1)
                if sides[sign] == "continue" and len(d) >= 20:
                    sides[sign] = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
            if "H1" in sides.values() or set(sides.values()) == {"H0"}:
                break
        verdict = (
            "effect+" if sides[1] == "H1" else "effect-" if sides[-1] == "H1" else
            "no effect" if set(sides.values()) == {"H0"} else "continue"
        )  # fmt: skip
        out[v] = (verdict, games)
    return out


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("sweep-until")
    cfg = _config(tmp)
    return cfg, runner.run(config.load(cfg), tmp / "one", jobs=1)


def test_each_variant_stops_on_its_own_decision_as_computed_by_hand(played: tuple[Path, Path]) -> None:
    _, run_dir = played
    seq = _manifest(run_dir)["sweep_sequential"]
    got = {v: (r["decision"], r["games"]) for v, r in seq["variants"].items()}
    # the large effects at the first look, the byte-identical variants as "no effect" at once
    assert got["starting_points-80"] == ("effect+", LOOK) and got["starting_points-20"] == ("effect-", LOOK)
    assert got["mistake_penalty-1"] == got["mistake_penalty-4"] == ("no effect", LOOK)
    assert max(g for _, g in got.values()) > LOOK  # dealer_bonus needs more than one look
    run = store.open_run(run_dir)
    assert got == _decisions_by_hand(run.table("players"), list(seq["variants"]))
    # base plays while any variant does; a decided variant got no more shards
    assert seq["games"] == max(g for _, g in got.values())
    parts = _parts(run_dir)
    assert len(parts["variant=base"]) == seq["games"] // 50
    for v, (_, games) in got.items():
        assert len(parts[f"variant={v}"]) == games // 50
        assert [k["games"] for k in seq["variants"][v]["looks"]] == list(range(LOOK, games + 1, LOOK))


def test_the_sweep_pairs_each_variant_with_base_on_the_deals_it_played(played: tuple[Path, Path]) -> None:
    _, run_dir = played
    run = store.open_run(run_dir)
    seq = run.manifest.sweep_sequential
    assert seq is not None
    sweep = build_sweep(run)
    effects = {(r["variant"], r["metric"]): r["difference"] for r in sweep["effects"]}
    assert {s["variant"] for s in sweep["no_effect"]} == {"mistake_penalty-1", "mistake_penalty-4"}
    players = run.table("players")
    for v, r in seq.variants.items():
        d = _by_hand(players, v, r.games)
        assert len(d) == r.games
        if v.startswith("mistake_penalty"):
            assert not d.any()
            continue
        e = effects[(v, "final_points[fastest]")]
        assert e["n"] == len(d) and e["estimate"] == pytest.approx(d.mean(), abs=1e-12)
        assert r.looks[-1].mean == pytest.approx(d.mean(), abs=1e-12)
    # and the report of the whole run reads each variant's own games
    result = CliRunner().invoke(app, ["report", str(run_dir), "--json"])
    assert result.exit_code == 0, result.output
    blocks = json.loads(result.output)["variants"]
    assert {v: b["games"] for v, b in blocks.items()} == {
        "base": seq.games,
        **{v: r.games for v, r in seq.variants.items()},
    }


def test_resume_after_a_kill_and_two_workers_give_the_same_decisions(
    played: tuple[Path, Path], tmp_path: Path
) -> None:
    cfg, first = played
    want, files = _manifest(first)["sweep_sequential"], _parts(first)
    exp = config.load(cfg)
    two = runner.run(exp, tmp_path / "two", jobs=2)
    assert _manifest(two)["sweep_sequential"] == want and _parts(two) == files
    # Killed during the second wave: its manifest unfinished, the wave's shards partly written.
    manifest = _manifest(two)
    (two / "manifest.json").write_text(json.dumps({**manifest, "complete": False, "sweep_sequential": None}))
    for v, names in _parts(two).items():
        for name in names[2:]:
            for table in ("players", "games", "hands"):
                (two / table / v / name).unlink(missing_ok=True)
    runner.run(exp, tmp_path / "two", jobs=1)
    assert _manifest(two)["sweep_sequential"] == want and _parts(two) == files


def test_a_budget_too_small_leaves_a_variant_undecided(tmp_path: Path) -> None:
    run_dir = runner.run(config.load(_config(tmp_path, games=100)), tmp_path / "out", jobs=1)
    seq = _manifest(run_dir)["sweep_sequential"]
    undecided = [v for v, r in seq["variants"].items() if r["decision"] == "continue"]
    assert undecided and all(seq["variants"][v]["games"] == 100 for v in undecided)
    assert store.open_run(run_dir).complete


def test_sweep_until_errors_name_the_field(tmp_path: Path) -> None:
    wrong: list[tuple[dict[str, object], str]] = [
        ({"metric": "win[nobody]"}, r"sweep\.until\.metric.*defensive, fastest"),
        ({"metric": "length"}, r"sweep\.until\.metric.*win\[<strategy>\]"),
        ({"look": 75}, r"sweep\.until\.look_every"),
        ({"mu1": 0.0}, r"sweep\.until\.mu1"),
    ]
    for kw, message in wrong:
        with pytest.raises(ConfigError, match=message):
            config.load(_config(tmp_path, **kw))
    both = _config(tmp_path)
    both.write_text(both.read_text() + '\n[until]\na = "fastest"\nb = "defensive"\nmu1 = 0.1\n')
    with pytest.raises(ConfigError, match=r"sweep\.until.*not both"):
        config.load(both)
    out = str(tmp_path / "cli")
    for bad in ("final_points[fastest]", "final_points[fastest]:big", "win[fastest]:inf", "win[fastest]:nan"):
        result = CliRunner().invoke(app, ["sweep", "suzume", "--players", "fastest,defensive", "--until", bad,
                                          "--options", "dealer_bonus", "--out", out, "-q"])  # fmt: skip
        assert result.exit_code == 2 and "--until" in result.output and "METRIC:EFFECT" in result.output


def test_sweep_until_on_the_command_line(tmp_path: Path) -> None:
    args = ["sweep", "suzume", "--players", "fastest,bonus-pusher,defensive", "--games", "200", "--options",
            "starting_points,mistake_penalty", "--until", "final_points[fastest]:0.5", "--look-every", "100",
            "--out", str(tmp_path), "--html", str(tmp_path / "s.html"), "-q"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "sequential tests vs base on final_points[fastest]" in result.output
    players, options = ["fastest", "bonus-pusher", "defensive"], "starting_points,mistake_penalty"
    name = sweep_name("suzume", "default", players, 0, options, "final_points[fastest]:0.5", 100)
    seq = _manifest(tmp_path / name)["sweep_sequential"]
    assert {v: r["decision"] for v, r in seq["variants"].items()} == {
        "starting_points-20": "effect-",
        "starting_points-80": "effect+",
        "mistake_penalty-1": "no effect",
        "mistake_penalty-4": "no effect",
    }
    assert seq["games"] == 100 and "Sequential tests vs base" in (tmp_path / "s.html").read_text()
    assert "[sweep.until]" in (tmp_path / f"{name}.toml").read_text()


def test_sweep_until_on_rank_points(tmp_path: Path) -> None:
    """`--until "rank_points[fastest]:E"`: each variant stops on the fastest strategy's rank points
    (the game's default, [2, 0, −2] for three players) as worked out by hand from the logged ranks."""
    args = ["sweep", "suzume", "--players", "fastest,bonus-pusher,defensive", "--games", "400", "--options",
            "starting_points,dealer_bonus", "--until", "rank_points[fastest]:0.1", "--look-every", "100",
            "--out", str(tmp_path), "--name", "sweep-suzume", "-q"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "sequential tests vs base on rank_points[fastest]" in result.output
    seq = _manifest(tmp_path / "sweep-suzume")["sweep_sequential"]
    assert seq["measure"] == "rank_points" and seq["strategy"] == "fastest"
    got = {v: (r["decision"], r["games"]) for v, r in seq["variants"].items()}
    players = store.open_run(tmp_path / "sweep-suzume").table("players")
    assert got == _decisions_by_hand(players, list(got), "rank_points", 0.1, 400)
    assert max(g for _, g in got.values()) > 100  # some variant needed more than one look
    for v, r in seq["variants"].items():
        assert r["looks"][-1]["mean"] == pytest.approx(_by_hand(players, v, r["games"], "rank_points").mean())
