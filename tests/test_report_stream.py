"""The streaming report against today's in-memory report, on small runs of every game.

Exact where the in-memory numbers are exact (every summary number; the scorecard under the same
keyed Poisson weights), within Monte Carlo error where they are bootstrap estimates (the streaming
Poisson bootstrap against the ordinary multinomial one). Runs are cut into one chunk per shard, so
every sum crosses chunk boundaries.
"""

from __future__ import annotations

import dataclasses
import io
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
import report_reference
from harness_helpers import REPO, SMALL, in_repo  # noqa: F401  (strategies are found from the repository)
from rich.console import Console
from rich.progress import Progress
from stats_fixtures import make_run

from simharness import backends, config, runner, store
from simharness.report import compare, stream
from simharness.report.compare import compare_strategies
from simharness.report.frames import game_lengths, optional_table, players_frame, seat_axis, variant_names
from simharness.report.full import build_report, report_of
from simharness.report.html import write_html
from simharness.report.summary import build_summary
from simharness.stats import balance
from simharness.stats.balance import Bootstrap, scorecard
from simharness.stats.hypotheses import ClusterCounts, contingency_test, friedman, seat_advantage_test
from simharness.stats.intervals import describe
from simharness.stats.paired import paired_difference, per_deal
from simharness.stats.streaming import (
    FriedmanSums,
    Histogram,
    Moments,
    PairedSums,
    poisson_weights,
    reduce_groups,
)

# The harness tests' two-variant sugoroku experiment with a third variant (for the Friedman tests).
SUGOROKU = (
    SMALL.format(games=600, seed=3, shard_size=100) + "[variants.progressive]\nprogressive_over_cap = true\n"
)

RIICHI = """\
name = "stream-riichi"
game = "riichi"
games = 80
seed = 5
duplicate = true
shard_size = 40
players = ["efficiency", "fold-on-riichi", "call-happy", "damaten"]
[rules]
preset = "tenhou"
game_length = "tonpuu"
[variants.tonpuu]
[variants.no-kuitan]
kuitan = false
"""


def close(a: Any, b: Any, path: str = "", rel: float = 1e-9) -> list[str]:
    """The paths at which two JSON-like values differ (floats to ``rel``)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return [f"{path}: keys {sorted(set(a) ^ set(b))}"]
        return [d for k in a for d in close(a[k], b[k], f"{path}.{k}", rel)]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} vs {len(b)} items"]
        return [
            d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in close(x, y, f"{path}[{i}]", rel)
        ]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and float in (type(a), type(b)):
        return [] if math.isclose(a, b, rel_tol=rel, abs_tol=rel) else [f"{path}: {a} vs {b}"]
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]


def _played(
    tmp: Path, text: str | None, config_path: Path | None = None, games: int | None = None
) -> store.Run:
    path = config_path
    tmp.mkdir(parents=True, exist_ok=True)
    if text is not None:
        path = tmp / "exp.toml"
        path.write_text(text)
    assert path is not None
    exp = config.load(path, games=games)
    return store.open_run(runner.run(exp, tmp / "out", console=Console(quiet=True)))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, store.Run]:
    tmp = tmp_path_factory.mktemp("stream")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(REPO)
        return {
            "sugoroku": _played(tmp / "sugoroku", SUGOROKU),
            "suzume": _played(tmp / "suzume", None, REPO / "configs" / "suzume-4p.toml", games=800),
            "riichi": _played(tmp / "riichi", RIICHI),
        }


def _in_memory_scorecard(run: store.Run, bootstrap: Bootstrap) -> dict[str, Any]:
    players = players_frame(run)
    gl = game_lengths(run)
    variants = variant_names(run, players)
    return scorecard(
        players,
        gl[0] if gl else None,
        optional_table(run, "hands"),
        variants,
        games=run.table("games"),
        seat_axis=seat_axis(players),
        bootstrap=bootstrap,
    )


@pytest.mark.parametrize("game", ["sugoroku", "suzume", "riichi"])
def test_streaming_report_equals_the_in_memory_one(
    game: str, runs: dict[str, store.Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    run = runs[game]
    monkeypatch.setattr(stream, "chunk_games", lambda run: 1)  # one chunk per shard
    assert sum(1 for _ in stream.chunks(run)) == len(run.firsts) > 1
    report = build_report(run)
    assert (
        close(
            report_reference.build_summary(run),
            {k: v for k, v in report.items() if k not in ("scorecard", "profile", "verdict", "glossary")},
        )
        == []
    )
    assert report["game_metrics"] or game == "sugoroku"
    # Same keyed weights per deal in memory and chunk by chunk: the bootstrap is equal too.
    assert close(_in_memory_scorecard(run, Bootstrap.POISSON), report["scorecard"]) == []


@pytest.mark.parametrize("game", ["sugoroku", "suzume", "riichi"])
def test_streaming_compare_equals_the_in_memory_one(
    game: str, runs: dict[str, store.Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`compare` read shard by shard gives the numbers it gave on the whole players table, for every
    metric and variant; above PERMUTATION_MAX_DEALS the permutation test alone is skipped."""
    run = runs[game]
    monkeypatch.setattr(stream, "chunk_games", lambda run: 1)  # one chunk per shard
    players = players_frame(run)
    a, b = players["strategy"].unique().sort().to_list()[:2]
    for variant in variant_names(run, players):
        for metric in ("win", "final_points", "rank"):
            want = report_reference.compare_strategies(run, a, b, metric=metric, variant=variant)
            got = compare_strategies(run, a, b, metric=metric, variant=variant)
            assert close(want, got) == [], (variant, metric)
    monkeypatch.setattr(compare, "PERMUTATION_MAX_DEALS", 10)
    got = compare_strategies(run, a, b)
    want = report_reference.compare_strategies(run, a, b)
    assert got["permutation"] is None and close({**want, "permutation": None}, got) == []


@pytest.mark.parametrize(
    ("game", "max_units"), [("sugoroku", None), ("suzume", None), ("riichi", None), ("sugoroku", 150)]
)
def test_poisson_bootstrap_agrees_with_the_ordinary_bootstrap(
    game: str, max_units: int | None, runs: dict[str, store.Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    if max_units is not None:  # 600 deals resampled in 150 blocks of 4 consecutive deals
        monkeypatch.setattr(balance, "MAX_UNITS", max_units)
    got = build_report(runs[game])["scorecard"]
    want = _in_memory_scorecard(runs[game], Bootstrap.MULTINOMIAL)
    assert close({k: v for k, v in got.items() if k not in ("variants", "differences")},
                 {k: v for k, v in want.items() if k not in ("variants", "differences")}) == []  # fmt: skip
    pairs = [
        (got["variants"][v][m], want["variants"][v][m]) for v in want["variants"] for m in want["variants"][v]
    ]
    pairs += [
        (g["difference"], w["difference"])
        for g, w in zip(got["differences"], want["differences"], strict=True)
    ]
    for g, w in pairs:
        assert g["estimate"] == pytest.approx(w["estimate"], rel=1e-9, abs=1e-12)
        if w["lo"] is None:
            continue
        # Each percentile endpoint of 1000 replicates has a Monte Carlo sd of about 2% of the width.
        tol = 0.3 * (w["hi"] - w["lo"]) + 1e-9
        assert abs(g["lo"] - w["lo"]) <= tol and abs(g["hi"] - w["hi"]) <= tol, (g, w)
    for g, w in zip(got["differences"], want["differences"], strict=True):
        if w["pvalue"] is not None:
            assert abs(g["pvalue"] - w["pvalue"]) <= 0.2


def test_summary_of_a_synthetic_run_is_the_same_in_any_number_of_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = make_run(tmp_path, {"base": 1.0, "wild": 2.0, "wilder": 3.0}, n_games=800)
    monkeypatch.setattr(stream, "chunk_games", lambda run: 120)
    assert sum(1 for _ in stream.chunks(run)) == 7
    assert close(build_summary(run), report_reference.build_summary(run)) == []


def test_histogram_quantiles_are_describe_exactly() -> None:
    rng = np.random.default_rng(4)
    deals = np.repeat(np.arange(300), rng.integers(1, 7, 300))
    x = rng.integers(-20, 40, len(deals)) + (deals % 5)  # few distinct values, correlated within deals
    frame = pl.DataFrame({"g": 0, "deal": deals, "game": deals, "x": x})
    whole = describe(x, deals)
    parts = [reduce_groups(frame.filter(pl.col("deal") // 100 == i), ["g"], "x").hists[0] for i in range(3)]
    acc = parts[0]
    for p in parts[1:]:
        acc += p
    for q, iv in acc.quantiles((0.05, 0.25, 0.5, 0.75, 0.95)).items():
        assert iv == whole.quantiles[q]
    assert Histogram(pl.DataFrame(schema=acc.frame.schema)).quantiles((0.5,))[0.5].n == 0


def test_moments_and_paired_sums_match_the_in_memory_comparison() -> None:
    rng = np.random.default_rng(5)
    a = rng.normal(3, 2, (500, 2))
    acc = Moments.empty(2)
    for chunk in np.array_split(a, 7):
        acc += Moments.of(chunk[:, 0], chunk[:, 1])
    assert np.allclose(acc.mean, a.mean(axis=0)) and np.allclose(acc.m2 / 499, np.cov(a.T))
    ya, yb = rng.normal(0.3, 1, 200), rng.normal(0, 1, 200)
    ya = ya + 0.5 * yb
    sums = PairedSums()
    for part in np.array_split(np.arange(200), 5):
        sums.add(ya[part], yb[part], ya[part], yb[part])
    frame_a = pl.DataFrame({"deal": np.arange(200), "y": ya})
    frame_b = pl.DataFrame({"deal": np.arange(200), "y": yb})
    assert close(sums.result().to_dict(), paired_difference(frame_a, frame_b).to_dict()) == []
    # No shared deals: Welch's test on per-deal means.
    welch = PairedSums()
    welch.add(np.array([]), np.array([]), ya, yb)
    frame_b = frame_b.with_columns(pl.col("deal") + 1000)
    assert close(welch.result().to_dict(), paired_difference(frame_a, frame_b).to_dict()) == []
    assert per_deal(frame_a, "y").height == 200


def test_cluster_counts_and_friedman_sums_add_up_over_chunks() -> None:
    rng = np.random.default_rng(6)
    cells = rng.multinomial(4, np.full(16, 1 / 16), 400).reshape(400, 4, 4)
    whole = contingency_test(cells).to_dict()
    acc = ClusterCounts.of(cells[:150]) + ClusterCounts.of(cells[150:])
    assert close(contingency_test(acc).to_dict(), whole) == []
    wins = cells[:, :, 0]
    assert (
        close(seat_advantage_test(ClusterCounts.of(wins)).to_dict(), seat_advantage_test(wins).to_dict())
        == []
    )
    blocks = rng.integers(0, 3, (300, 4)).astype(float)  # many ties
    fs = FriedmanSums(np.zeros(4))
    for part in np.array_split(blocks, 4):
        fs.add(part)
    assert close(fs.result().to_dict(), friedman(blocks).to_dict()) == []


def test_poisson_weights_are_keyed_by_deal() -> None:
    deals = np.array([5, 2000, 7, 1023, 1024])
    w = poisson_weights(9, deals, 400)
    assert np.array_equal(w[:, [2, 0]], poisson_weights(9, np.array([7, 5]), 400))
    assert not np.array_equal(w, poisson_weights(10, deals, 400))
    many = poisson_weights(1, np.arange(5000), 200)
    assert abs(many.mean() - 1) < 0.01 and abs(many.var() - 1) < 0.02
    assert abs((many == 0).mean() - math.exp(-1)) < 0.005


def test_progress_counts_every_shard_of_every_variant(runs: dict[str, store.Run]) -> None:
    with Progress(console=Console(file=io.StringIO())) as progress:
        stream.collect(runs["sugoroku"], scorecard=False, progress=progress)
    (task,) = progress.tasks
    assert task.total == task.completed == 6 * 3  # 600 games in shards of 100, three variants


def test_a_variant_that_stopped_early_is_streamed_like_in_memory(
    runs: dict[str, store.Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A sweep stopped per variant reads fewer shards of that variant (store.Run.own).
    run = runs["sugoroku"]
    run = dataclasses.replace(run, own={**run.own, "no-cap": tuple(run.own["no-cap"][:2])})
    monkeypatch.setattr(stream, "chunk_games", lambda run: 1)
    assert sum(1 for _ in stream.chunks(run)) == 6 and stream.shard_count(run) == 6 + 2 + 6
    report = build_report(run)
    assert report["variants"]["no-cap"]["games"] == 200
    assert (
        close(
            report_reference.build_summary(run),
            {k: v for k, v in report.items() if k not in ("scorecard", "profile", "verdict", "glossary")},
        )
        == []
    )
    assert close(_in_memory_scorecard(run, Bootstrap.POISSON), report["scorecard"]) == []


def test_game_metric_differences_are_paired_by_deal_as_worked_out_in_memory(
    runs: dict[str, store.Run], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Suzume-jong's exhaustive draw rate per hand, each variant minus the first, read chunk by chunk,
    equals the delta-method difference of two ratios computed here on the whole run: per deal the
    draws and hands of both variants, e = (n_v − R_v·d_v)/Σd_v − (n_b − R_b·d_b)/Σd_b,
    se² = g/(g−1)·Σe², a t interval. Pairing narrows it against the independent intervals."""
    from scipy import stats as st

    run = runs["suzume"]
    monkeypatch.setattr(stream, "chunk_games", lambda run: 1)
    report = build_report(run)
    base, *others = report["variant_order"]
    first = run.table("hands").filter(pl.col("claim") == 0)
    per_deal = first.group_by("variant", "deal").agg(
        n=(pl.col("claims") == 0).sum().cast(pl.Float64), d=pl.len().cast(pl.Float64)
    )
    rows = {(r["variant"], r["strategy"], r["metric"]): r for r in report["game_metrics"]}
    for v in others:
        j = per_deal.filter(variant=v).join(per_deal.filter(variant=base), on="deal", suffix="_b")
        nv, dv, nb, db = (j[c].to_numpy() for c in ("n", "d", "n_b", "d_b"))
        rv, rb = nv.sum() / dv.sum(), nb.sum() / db.sum()
        e = (nv - rv * dv) / dv.sum() - (nb - rb * db) / db.sum()
        g = len(e)
        se = np.sqrt(g / (g - 1) * (e**2).sum())
        half = st.t.ppf(0.975, g - 1) * se
        (got,) = [
            d
            for d in report["game_metric_differences"]
            if (d["variant"], d["strategy"], d["metric"]) == (v, "all", "draw_rate")
        ]
        assert got["baseline"] == base and got["difference"]["n"] == g
        assert got["difference"]["estimate"] == pytest.approx(rv - rb, abs=1e-12)
        assert got["difference"]["lo"] == pytest.approx(rv - rb - half, abs=1e-12)
        assert got["difference"]["hi"] == pytest.approx(rv - rb + half, abs=1e-12)
        assert got["pvalue"] == pytest.approx(2 * st.t.sf(abs(rv - rb) / se, g - 1), rel=1e-9)
        a, b = rows[(v, "all", "draw_rate")], rows[(base, "all", "draw_rate")]
        independent = np.hypot(a["hi"] - a["lo"], b["hi"] - b["lo"])
        assert 2 * half < independent


SEQUENTIAL = """\
name = "stream-seq"
game = "sugoroku"
games = 1200
seed = 5
duplicate = true
shard_size = 100
players = [{strategy = "naive", label = "twin-a"}, "greedy", {strategy = "naive", label = "twin-b"}, "random"]
[until]
a = "twin-a"
b = "twin-b"
metric = "win"
mu0 = 0.0
mu1 = 0.02
look_every = 400
"""

CHALLENGERS = """\
name = "stream-challengers"
game = "suzume"
games = 48
seed = 5
shard_size = 8
[challengers]
field = "fastest"
strategies = ["defensive", "max-points"]
seats = 4
"""


@pytest.fixture(scope="module")
def designs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, store.Run]:
    """Runs of a sequential test (looks) and of a challenger design."""
    tmp = tmp_path_factory.mktemp("designs")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(REPO)
        return {
            "sequential": _played(tmp / "sequential", SEQUENTIAL),
            "challengers": _played(tmp / "challengers", CHALLENGERS),
        }


@pytest.mark.parametrize("kind", ["sugoroku", "suzume", "riichi", "sequential", "challengers"])
def test_a_report_is_the_same_to_the_byte_for_any_number_of_jobs(
    kind: str,
    runs: dict[str, store.Run],
    designs: dict[str, store.Run],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """Chunks summed in worker processes, in whatever order they finish, add up to the report of one
    process: the same JSON and HTML, byte for byte (#27)."""
    run = {**runs, **designs}[kind]
    monkeypatch.setattr(stream, "chunk_games", lambda run: 1)  # one chunk per shard: many in flight
    assert sum(1 for _ in stream.chunks(run)) > 1

    def report(jobs: int) -> tuple[str, bytes]:
        collected = stream.collect(run, scorecard=True, jobs=jobs)
        data = report_of(collected)
        page = tmp_path / str(jobs) / "report.html"
        page.parent.mkdir()
        write_html(run, data, page, collected.sums)
        return json.dumps(data, indent=2, allow_nan=False, default=str), page.read_bytes()

    alone = report(1)
    pools, real = [], backends.pool

    def pool(*args: Any) -> Any:
        pools.append(args)
        return real(*args)

    monkeypatch.setattr(backends, "pool", pool)
    assert report(2) == alone
    assert pools, "with two jobs, the chunks are summed in worker processes"
    summary = json.loads(alone[0])
    assert (summary["sequential"] is not None) == (kind == "sequential")
    assert (summary["challengers"] is not None) == (kind == "challengers")


@pytest.mark.parametrize(
    ("kind", "a", "b"), [("sugoroku", "naive", "greedy@no-cap"), ("sequential", "twin-a", "twin-b")]
)
def test_a_comparison_is_the_same_for_any_number_of_jobs(
    kind: str,
    a: str,
    b: str,
    runs: dict[str, store.Run],
    designs: dict[str, store.Run],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``compare`` sums its chunks in worker processes as the report does, to the same result (#27)."""
    run = {**runs, **designs}[kind]
    monkeypatch.setattr(stream, "chunk_games", lambda run: 1)
    one, two = (compare_strategies(run, a, b, jobs=jobs) for jobs in (1, 2))
    assert json.dumps(one, allow_nan=False) == json.dumps(two, allow_nan=False)
    assert (one["sequential"] is not None) == (kind == "sequential") and one["permutation"] is not None
