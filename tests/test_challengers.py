"""Lineups as variants, the challenger design, rank points and `compare STRATEGY@VARIANT` (#24).

Every difference of a lineup variant or a challenger is paired by deal and seat only if every
variant plays the same keyed deals: checked on the logged tables (Riichi's dealt tiles and first
dora indicator, Suzume-jong's first dealer chosen by the dice), not assumed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from rich.console import Console
from scipy import stats
from typer.testing import CliRunner

from simharness import config, engine, store, strategies
from simharness.cli import app
from simharness.errors import ConfigError
from simharness.games import registry
from simharness.report.challengers import METRICS, ChallengerSums, challengers_html
from simharness.report.frames import players_frame
from simharness.report.stream import collect
from simharness.report.summary import print_summary
from simharness.stats.paired import rank_points
from tests.harness_helpers import in_repo, play
from tests.stats_fixtures import fake_manifest

__all__ = ["in_repo"]

# Per game: a field, two challengers and the rules that log what the deal was made of.
GAMES = {
    "riichi": ("efficiency", ["damaten", "fold-on-riichi"], "[rules]\nevent_log_every = 1\n", 4),
    "suzume": ("fastest", ["defensive", "max-points"], "", 4),
}


def _deal_chance(run: store.Run, game: str) -> pl.DataFrame:
    """What chance made of each game's deal, one frame per run with a ``variant`` column: Riichi's
    first hand's dealt tiles and first dora indicator (events 17 and the opening 11), Suzume-jong's
    first dealer (the dice)."""
    if game == "riichi":
        events = run.table("events").filter(
            (pl.col("hand") == 0) & ((pl.col("kind") == 17) | (pl.col("seq") == 0))
        )
        return events.select("variant", "game", "deal", "seq", "seat", "kind", "tile")
    return run.table("games").select("variant", "game", "deal", "first_dealer")


def _same_in_every_variant(chance: pl.DataFrame) -> None:
    variants = chance["variant"].unique().sort().to_list()
    frames = [
        chance.filter(pl.col("variant") == v).drop("variant").sort(chance.columns[1:]) for v in variants
    ]
    assert frames[0].height > 0
    for v, f in zip(variants[1:], frames[1:], strict=True):
        assert f.equals(frames[0]), f"variant {v} played other deals than {variants[0]}"


def _rows_match_lineups(run: store.Run) -> None:
    players = run.table("players")
    for v in run.variants:
        names = [s.strategy for s in run.manifest.lineup_of(v)]
        pv = players.filter(pl.col("variant") == v)
        assert pv["strategy"].to_list() == [names[p] for p in pv["player"].to_list()], v


@pytest.mark.parametrize("game", list(GAMES))
def test_a_lineup_variant_plays_its_own_lineup_on_the_same_deals(tmp_path: Path, game: str) -> None:
    field, (challenger, _), rules, n = GAMES[game]
    lineup = json.dumps([field] * n)
    own = json.dumps([challenger, *[field] * (n - 1)])
    body = (
        f'game = "{game}"\ngames = 8\nduplicate = true\nplayers = {lineup}\n{rules}'
        f"[variants.base]\n[variants.b]\nplayers = {own}\n"
    )
    run = store.open_run(play(tmp_path, "lv", body))
    lineups, identity = run.manifest.lineups, run.manifest.identity
    assert lineups is not None and lineups["b"][0].strategy == challenger
    assert identity is not None and identity["lineups"]["b"][0]["strategy"] == challenger
    assert "base" not in lineups  # it seats the top-level lineup
    _rows_match_lineups(run)
    _same_in_every_variant(_deal_chance(run, game))
    # `show` plays a game of b again with b's lineup and finds the run's rows (else it refuses).
    shown = CliRunner().invoke(app, ["show", str(run.path), "--variant", "b", "--game", "1"])
    assert shown.exit_code == 0, shown.output
    # The lineups are part of the run's identity: another lineup in b is another experiment.
    cfg = tmp_path / "lv.toml"
    cfg.write_text(cfg.read_text().replace(f'players = ["{challenger}"', f'players = ["{field}"'))
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path), "--quiet"])
    assert result.exit_code == 2
    assert "changed: lineups.b[0].strategy" in result.output


@pytest.mark.parametrize("game", list(GAMES))
def test_a_challenger_design_seats_each_challenger_everywhere_on_the_same_deals(
    tmp_path: Path, game: str
) -> None:
    field, challengers, rules, n = GAMES[game]
    body = (
        f'game = "{game}"\ngames = 8\n{rules}'
        f'[challengers]\nfield = "{field}"\nstrategies = {json.dumps(challengers)}\nseats = {n}\n'
    )
    run = store.open_run(play(tmp_path, "ch", body))
    assert run.variants == ["field", *challengers]
    assert run.manifest.duplicate is True
    _rows_match_lineups(run)
    _same_in_every_variant(_deal_chance(run, game))
    players = run.table("players")
    for c in challengers:
        pc = players.filter(pl.col("variant") == c)
        # Slot 0 is the challenger; every other seat of its tables is the field.
        assert set(pc.filter(pl.col("player") != 0)["strategy"]) == {field}
        seats = pc.filter(pl.col("strategy") == c).group_by("deal").agg(pl.col("seat").sort())
        assert seats.height == 2
        assert all(s.to_list() == list(range(n)) for s in seats["seat"]), "each seat once per deal"
    assert set(players.filter(pl.col("variant") == "field")["strategy"]) == {field}

    summary = collect(run, scorecard=False).summary
    result = summary["challengers"]
    # The terminal and HTML sections name every challenger (the HTML page puts the section after
    # the headline table: report/html.py).
    console = Console(record=True, width=200)
    print_summary(summary, console)
    assert "challengers − field, best rank points first" in console.export_text()
    page = challengers_html(result)
    assert page.startswith("<h2>Challengers</h2>") and all(f"<td>{c}</td>" in page for c in challengers)
    assert {r["challenger"] for r in result["ranking"]} == set(challengers)
    assert [(p["a"], p["b"]) for p in result["pairs"]] == [tuple(challengers)] * len(METRICS)
    # The report's "challenger − field" is `compare CHALLENGER@VARIANT FIELD@field`, computed apart.
    for r in result["ranking"]:
        for metric in METRICS:
            args = [
                "compare",
                str(run.path),
                "--a",
                f"{r['strategy']}@{r['challenger']}",
                "--b",
                f"{field}@field",
            ]
            out = CliRunner().invoke(app, [*args, "--metric", metric, "--json"])
            assert out.exit_code == 0, out.output
            got = json.loads(out.stdout)
            want = r[metric]["vs_field"]["difference"]
            assert got["difference"]["estimate"] == pytest.approx(want["estimate"])
            assert got["difference"]["lo"] == pytest.approx(want["lo"])
            assert (got["variant_a"], got["variant_b"]) == (r["challenger"], "field")


def test_compare_across_variants_is_the_mean_of_the_per_deal_differences(tmp_path: Path) -> None:
    body = (
        'game = "sugoroku"\ngames = 300\nduplicate = true\nshard_size = 150\n'
        'players = ["naive", "naive", "naive"]\n'
        '[variants.base]\n[variants.b]\nplayers = ["greedy", "naive", "naive"]\n'
    )
    run_dir = play(tmp_path, "x", body)
    players = store.open_run(run_dir).table("players")
    per_deal = (
        players.filter((pl.col("variant") == "b") & (pl.col("strategy") == "greedy"))
        .group_by("deal")
        .agg(pl.col("final_points").mean().alias("a"))
        .join(
            players.filter(pl.col("variant") == "base")
            .group_by("deal")
            .agg(pl.col("final_points").mean().alias("b")),
            on="deal",
        )
    )
    d = (per_deal["a"] - per_deal["b"]).to_numpy()
    lo, hi = stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=d.std(ddof=1) / np.sqrt(len(d)))
    out = CliRunner().invoke(
        app,
        [
            "compare",
            str(run_dir),
            "--a",
            "greedy@b",
            "--b",
            "naive@base",
            "--metric",
            "final_points",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    got = json.loads(out.stdout)
    assert got["shared_deals"] == len(d) == 100
    assert got["difference"]["estimate"] == pytest.approx(d.mean())
    assert (got["difference"]["lo"], got["difference"]["hi"]) == pytest.approx((lo, hi))
    # The plain spelling still compares two strategies of one variant.
    plain = CliRunner().invoke(
        app, ["compare", str(run_dir), "--a", "greedy", "--b", "naive", "--variant", "b"]
    )
    assert plain.exit_code == 0, plain.output
    bad = CliRunner().invoke(app, ["compare", str(run_dir), "--a", "greedy@c", "--b", "naive@base"])
    assert bad.exit_code == 2
    assert f'{run_dir}: --a: no variant "c" in this run; expected one of base, b' in bad.output


def _config(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "bad.toml"
    path.write_text(f'name = "bad"\nseed = 1\ngames = 8\n{body}')
    return path


@pytest.mark.parametrize(
    ("body", "field", "says"),
    [
        (
            'game = "sugoroku"\nplayers = ["naive", "naive"]\n[variants.b]\nplayers = ["naive", "nope"]\n',
            "variants.b.players[1].strategy",
            "nope",
        ),
        (
            'game = "sugoroku"\nplayers = ["naive", "naive"]\n'
            '[variants.b]\nplayers = ["naive", "naive", "greedy"]\n',
            "variants.b.players",
            "expected 2 strategies",
        ),
        (
            'game = "sugoroku"\nplayers = ["naive", "naive"]\n[variants.b]\nplayers = [{strategy = "naive", '
            'label = "naive", knobs = {offset = "always"}}, "naive"]\n',
            "variants.b.players[0]",
            'both named "naive"',
        ),
        (
            'game = "sugoroku"\nplayers = ["naive", "naive"]\n[variants.b]\nplayers = ["naive", 3]\n',
            "variants.b.players[1]",
            "expected a strategy name",
        ),
        (
            'game = "sugoroku"\nplayers = ["naive", "naive"]\n[variants.b]\nplayers = []\n',
            "variants.b.players",
            "expected a lineup",
        ),
        (
            'game = "riichi"\n[challengers]\nfield = "efficiency"\nstrategies = ["nope"]\n',
            "challengers.strategies[0].strategy",
            "nope",
        ),
        (
            'game = "sugoroku"\n[challengers]\nfield = "naive"\nstrategies = ["greedy"]\n',
            "challengers.seats",
            "2 to 5 players",
        ),
        (
            'game = "riichi"\nplayers = ["efficiency"]\n'
            '[challengers]\nfield = "efficiency"\nstrategies = ["damaten"]\n',
            "players",
            "remove players",
        ),
        (
            'game = "riichi"\nduplicate = false\n'
            '[challengers]\nfield = "efficiency"\nstrategies = ["damaten"]\n',
            "duplicate",
            "remove duplicate = false",
        ),
        (
            'game = "riichi"\n[rules]\nplayers = 3\n'
            '[challengers]\nfield = "efficiency"\nstrategies = ["damaten"]\nseats = 4\n',
            "challengers.seats",
            "set players = 3: expected 3 strategies, got 4",
        ),
        (
            'game = "sugoroku"\nplayers = ["naive", "naive"]\nrank_points = [1, 0, -1]\n',
            "rank_points",
            "2 for this",
        ),
        (
            'game = "sugoroku"\nplayers = ["naive", "naive"]\nrank_points = [-1, 1]\n',
            "rank_points",
            "never rise",
        ),
    ],
)
def test_bad_designs_are_refused_naming_the_file_and_field(
    tmp_path: Path, body: str, field: str, says: str
) -> None:
    path = _config(tmp_path, body)
    with pytest.raises(ConfigError) as e:
        config.load(path)
    assert e.value.field == field
    assert says in e.value.message
    result = CliRunner().invoke(app, ["run", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert f"{path}: {field}: " in result.output


def test_rank_points_split_tied_places_and_default_per_game() -> None:
    frame = pl.DataFrame({"game": [0, 0, 0, 0, 1, 1, 1, 1], "rank": [2, 1, 4, 3, 1, 1, 3, 3]})
    got = frame.with_columns(rank_points(frame, [90, 45, 0, -135], ["game"]))["rank_points"].to_list()
    # Two tied for 1st split 90 + 45; two tied for 3rd split 0 − 135.
    assert got == [45, 90, -135, 0, 67.5, 67.5, -67.5, -67.5]
    assert registry.rank_points("riichi", 4) == [90, 45, 0, -135]
    assert registry.rank_points("riichi", 3) == [2, 0, -2]
    assert registry.rank_points("sugoroku", 2) == [1, -1]
    assert registry.rank_points("suzume", 5) == [4, 2, 0, -2, -4]


def test_the_report_gives_rank_points_beside_first_places(tmp_path: Path) -> None:
    body = (
        'game = "sugoroku"\ngames = 300\nrank_points = [10, 0, 0, -10]\n'
        'players = ["naive", "greedy", "naive", "random"]\n'
    )
    run = store.open_run(play(tmp_path, "rp", body))
    assert run.manifest.rank_points == (10, 0, 0, -10)
    rows = {
        r["strategy"]: r for r in collect(run, scorecard=False).summary["variants"]["base"]["by_strategy"]
    }
    players = run.table("players")
    for s, r in rows.items():
        want = np.mean(
            [_hand_rank_points(ranks, [10, 0, 0, -10], seat) for ranks, seat in _seats_of(players, s)]
        )
        assert r["rank_points"]["estimate"] == pytest.approx(want)
        assert r["rank_points"]["lo"] < want < r["rank_points"]["hi"]


def _seats_of(players: pl.DataFrame, strategy: str) -> list[tuple[list[int], int]]:
    """Each row of ``strategy``: its game's ranks (by seat) and its seat."""
    ranks = players.sort("seat").group_by("game").agg(pl.col("rank").alias("ranks"))
    rows = players.filter(pl.col("strategy") == strategy).join(ranks, on="game")
    return list(zip(rows["ranks"].to_list(), rows["seat"].to_list(), strict=True))


def _hand_rank_points(ranks: list[int], points: list[float], seat: int) -> float:
    """The points of ``seat``: the places its rank and the ranks tied with it hold, shared."""
    tied = ranks.count(ranks[seat])
    first = ranks[seat] - 1
    return sum(points[first : first + tied]) / tied


class _Memory:
    """A run held in memory (``report.summary.RunLike``): a challenger design's players rows."""

    def __init__(self, players: pl.DataFrame, seats: int) -> None:
        self.path = Path("memory")
        points = tuple(registry.rank_points("sugoroku", seats))
        self.manifest = fake_manifest(game="sugoroku", rank_points=points)
        self._players = players

    def table(self, name: str) -> pl.DataFrame:
        assert name == "players"
        return self._players


def _design_rows(field: str, challengers: list[str], seats: int, seed: int, deals: int) -> pl.DataFrame:
    """The players rows of a sugoroku challenger design over ``deals`` deals, played straight
    through the engine with the lineups ``config`` makes."""
    rules = engine.resolve_rules("sugoroku")
    knobs = {
        s: strategies.load(strategies.find("sugoroku", s, Path.cwd())).resolved_knobs({})
        for s in [field, *challengers]
    }
    lineups = {"field": [field] * seats, **{c: [c, *[field] * (seats - 1)] for c in challengers}}
    frames = []
    for v, names in lineups.items():
        out = engine.play_batch(
            "sugoroku",
            rules,
            [knobs[s] for s in names],
            seed=seed,
            first_game=0,
            count=deals * seats,
            duplicate=True,
        )["players"]
        frames.append(
            out.with_columns(
                variant=pl.lit(v),
                strategy=pl.col("player").replace_strict(list(range(seats)), names, return_dtype=pl.String),
            )
        )
    return pl.concat(frames, how="vertical")


def test_challenger_intervals_are_calibrated() -> None:
    """Coverage of the 95% intervals (each challenger against the field and against the other, every
    metric) over 200 small designs of 30 deals, around the truth from one of 9,000 deals with another
    seed (its own error about a seventeenth of a small design's)."""
    field, challengers, seats = "naive", ["greedy", "random"], 4
    design = {"field": field, "field_variant": "field", "challengers": {c: c for c in challengers}}

    def intervals(rows: pl.DataFrame) -> dict[tuple[str, str], dict[str, Any]]:
        acc = ChallengerSums(design)
        acc.add(rows)
        result = acc.result()
        out = {
            (r["challenger"], m): r[m]["vs_field"]["difference"] for r in result["ranking"] for m in METRICS
        }
        out.update({("pair", p["metric"]): p["difference"] for p in result["pairs"]})
        return out

    def design_rows(seed: int, deals: int) -> pl.DataFrame:
        return players_frame(_Memory(_design_rows(field, challengers, seats, seed, deals), seats))

    truth = {k: iv["estimate"] for k, iv in intervals(design_rows(99, 9_000)).items()}
    small, runs = 30, 200
    rows = design_rows(7, small * runs)
    covered = dict.fromkeys(truth, 0)
    for block in rows.with_columns(block=pl.col("deal") // small).partition_by("block"):
        for k, iv in intervals(block).items():
            covered[k] += iv["lo"] <= truth[k] <= iv["hi"]
    # Binomial(200, 0.95): the central 99.9% of coverage counts, for each of the 9 intervals.
    lo, hi = stats.binom.ppf([0.0005, 0.9995], runs, 0.95)
    assert all(lo <= c <= hi for c in covered.values()), covered
    # The true differences are not all zero: the check is not the trivial one of identical play.
    assert max(abs(t) for t in truth.values()) > 0.01


def test_a_challenger_equal_to_the_field_replays_the_fields_games() -> None:
    """Challenger = field: its variant is the field's variant game for game (keyed chance, strategy
    randomness keyed by seat), so every paired difference is exactly 0: the design adds no noise of
    its own. (Hence the calibration above uses challengers that differ from the field.)"""
    rows = _design_rows("random", ["random"], 4, 3, 50)
    field = rows.filter(pl.col("variant") == "field").drop("variant")
    assert field.equals(rows.filter(pl.col("variant") == "random").drop("variant"))
    design = {"field": "random", "field_variant": "field", "challengers": {"random": "random"}}
    acc = ChallengerSums(design)
    acc.add(
        players_frame(
            _Memory(
                rows.filter(pl.col("variant") != "random").vstack(rows.filter(pl.col("variant") == "random")),
                4,
            )
        )
    )
    for m in METRICS:
        d = acc.result()["ranking"][0][m]["vs_field"]["difference"]
        assert (d["estimate"], d["lo"], d["hi"]) == (0.0, 0.0, 0.0)
