"""The report at a glance: rank shares, the strategy profile, game metrics by strategy, the extreme
games, and terminal tables that keep every row on one line at 80 columns."""

from __future__ import annotations

import io
import re
import sys
import types
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from rich.console import Console
from stats_fixtures import FakeRun, fake_manifest, make_run
from typer.testing import CliRunner

from simharness import store
from simharness.cli import app
from simharness.games.riichi import notable_hand as riichi_notable
from simharness.games.riichi import yaku_names
from simharness.games.suzume import notable_hand as suzume_notable
from simharness.report.extremes import extreme_games
from simharness.report.full import build_report, print_report
from simharness.report.glance import metrics_tables, ordinal, rank_shares, share_rows
from simharness.report.textfit import Col, fitted_tables, fmt_pm

ROOT = Path(__file__).resolve().parents[1]


def _console(width: int) -> Console:
    return Console(record=True, width=width, file=io.StringIO())


def _body_rows(text: str) -> list[list[str]]:
    """The cells of every table body line (rich's default box draws body rows between │)."""
    return [
        [c.strip() for c in line.strip().strip("│").split("│")]
        for line in text.splitlines()
        if line.startswith("│")
    ]


def assert_rows_unwrapped(text: str, width: int) -> None:
    """No line is wider than the console and no table row continues on a second line: a wrapped
    row shows as a line whose first cell is empty, or a cell whose interval's brackets do not close."""
    assert max(len(line) for line in text.splitlines() if line[:1] in "┏┃┡│└") <= width
    rows = _body_rows(text)
    assert rows, "the output has tables"
    for cells in rows:
        assert cells[0], f"a continuation line: {cells}"
        for c in cells:
            assert c.count("[") == c.count("]"), f"an interval cut in two: {cells}"
            assert "…" not in c, f"a cell shortened: {cells}"


def _played(tmp: Path, config: str, games: int) -> store.Run:
    """A small run of one of the repository's configs, through `simharness run`."""
    cfg = ROOT / "configs" / f"{config}.toml"
    res = CliRunner().invoke(
        app, ["run", str(cfg), "--games", str(games), "--out", str(tmp), "--quiet", "--jobs", "1"]
    )
    assert res.exit_code == 0, res.output
    return store.open_run(tmp / config)


@pytest.fixture(scope="module")
def riichi_run(tmp_path_factory: pytest.TempPathFactory) -> store.Run:
    """80 duplicate games of the strategy config: every table of a real Riichi run."""
    return _played(tmp_path_factory.mktemp("riichi"), "riichi-strategies", 80)


@pytest.fixture(scope="module")
def sugoroku_run(tmp_path_factory: pytest.TempPathFactory) -> store.Run:
    return _played(tmp_path_factory.mktemp("sugoroku"), "sugoroku-demo", 2000)


def test_terminal_report_keeps_every_row_on_one_line_at_80_columns(
    tmp_path: Path, riichi_run: store.Run
) -> None:
    for run in (make_run(tmp_path, {"base": 1.0, "wild": 2.0}, n_games=400), riichi_run):
        report = build_report(run)
        console = _console(80)
        print_report(report, console)
        text = console.export_text()
        assert_rows_unwrapped(text, 80)
        assert "1st-place rate" in text and "win rate [" not in text
        # The extreme games' commands stay whole on their lines, ready to paste.
        assert all(
            any(line.strip() == g["command"] for line in text.splitlines()) for g in report["extreme_games"]
        )
        # Every strategy's row is there once per table of the by-strategy group, on its own line.
        for r in report["variants"][report["variant_order"][0]]["by_strategy"]:
            assert any(cells[0] == r["strategy"] for cells in _body_rows(text))
    wide = _console(160)
    print_report(report, wide)
    text = wide.export_text()
    assert_rows_unwrapped(text, 160)
    assert "p5 / p25 / p75 / p95" in text


def test_fitted_tables_cut_by_columns_and_repeat_the_keys() -> None:
    cols = [Col(f"metric {i}") for i in range(9)]
    rows = [[f"strategy-{k}", *(f"{k}.{i} [{k}.0, {k}.9]" for i in range(9))] for k in range(3)]
    tables = fitted_tables("t", [Col("strategy", right=False)], cols, rows, 80)
    assert len(tables) > 1
    seen = []
    for t in tables:
        console = _console(80)
        console.print(t)
        assert_rows_unwrapped(console.export_text(), 80)
        assert t.columns[0].header == "strategy"
        seen += [str(c.header).replace("\n", " ") for c in t.columns[1:]]
    assert seen == [c.header for c in cols]  # every column once, in order
    # A key too long for the console on its own is the one thing shortened.
    long = [["x" * 120, "1.0"]]
    console = _console(80)
    console.print(fitted_tables("t", [Col("key")], [Col("v")], long, 80)[0])
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80 and any("…" in line for line in lines)


def test_fmt_pm_shows_the_estimate_to_its_precision() -> None:
    assert fmt_pm({"estimate": 0.2345, "lo": 0.2245, "hi": 0.2445}, pct=True) == "23.4 ±1.0"
    assert fmt_pm({"estimate": 6714.2, "lo": 6457.0, "hi": 6971.4}) == "6714 ±257"
    assert fmt_pm({"estimate": 10.0, "lo": 8.0, "hi": 15.0}) == "10.0 [8.0, 15.0]"  # asymmetric
    assert fmt_pm(None) == "–" and fmt_pm({"estimate": None}) == "–"


def test_rank_shares_by_hand() -> None:
    # Two games of three seats: A is 1st then 3rd, B 2nd twice, C 3rd then 1st.
    players = pl.DataFrame(
        {
            "variant": ["v"] * 6,
            "game": [0, 0, 0, 1, 1, 1],
            "deal": [0, 0, 0, 1, 1, 1],
            "strategy": ["A", "B", "C", "A", "B", "C"],
            "rank": [1, 2, 3, 3, 2, 1],
        }
    )
    shares = {r["strategy"]: r for r in rank_shares(share_rows(players).to_dicts(), ["v"])["v"]}
    assert list(shares["A"]["shares"]) == ["1st", "2nd", "3rd"]
    assert {k: iv["estimate"] for k, iv in shares["A"]["shares"].items()} == {
        "1st": 0.5,
        "2nd": 0.0,
        "3rd": 0.5,
    }
    assert shares["B"]["shares"]["2nd"]["estimate"] == 1.0 and shares["B"]["shares"]["2nd"]["n"] == 2
    # Shared ties (ranks 1, 1, 3): the two tied players hold half of 1st and half of 2nd each.
    tied = players.with_columns(pl.Series("rank", [1, 1, 3, 3, 2, 1]))
    shares = {r["strategy"]: r["shares"] for r in rank_shares(share_rows(tied).to_dicts(), ["v"])["v"]}
    assert {k: iv["estimate"] for k, iv in shares["A"].items()} == {"1st": 0.25, "2nd": 0.25, "3rd": 0.5}
    assert {k: iv["estimate"] for k, iv in shares["C"].items()} == {"1st": 0.5, "2nd": 0.0, "3rd": 0.5}
    for position in ("1st", "2nd", "3rd"):  # each game's positions are filled exactly once
        assert sum(shares[s][position]["estimate"] for s in "ABC") == pytest.approx(1.0)
    assert [ordinal(r) for r in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"
    ]  # fmt: skip


def test_rank_shares_and_profile_agree_with_the_summary(tmp_path: Path) -> None:
    report = build_report(make_run(tmp_path, {"base": 1.0, "wild": 2.0}, n_games=400))
    for v in report["variant_order"]:
        first = {
            r["strategy"]: r["first_place_rate"]["estimate"] for r in report["variants"][v]["by_strategy"]
        }
        for r in report["rank_shares"][v]:
            total = sum(iv["estimate"] for iv in r["shares"].values())
            assert total == pytest.approx(1.0)
            assert r["shares"]["1st"]["estimate"] == pytest.approx(first[r["strategy"]])
    # A game without a PROFILE: last-place rate (risk) against 1st-place rate (reward).
    prof = report["profile"]
    assert (prof["x"]["metric"], prof["y"]["metric"]) == ("last_place_rate", "first_place_rate")
    assert prof["y"]["label"] == "1st-place rate (% of games)"
    assert len(prof["points"]) == 2 * 3  # variants × strategies
    for p in prof["points"]:
        row = next(r for r in report["rank_shares"][p["variant"]] if r["strategy"] == p["strategy"])
        assert p["x"] == row["shares"]["4th"] and p["y"] == row["shares"]["1st"]
    strong = next(p for p in prof["points"] if p["strategy"] == "strong" and p["variant"] == "base")
    weak = next(p for p in prof["points"] if p["strategy"] == "random" and p["variant"] == "base")
    assert strong["y"]["estimate"] > weak["y"]["estimate"] and strong["x"]["estimate"] < weak["x"]["estimate"]


def test_riichi_profile_is_deal_in_against_win_rate_per_hand(riichi_run: store.Run) -> None:
    report = build_report(riichi_run)
    prof = report["profile"]
    assert prof["x"]["label"] == "deal-in rate (% of hands)" and prof["y"]["label"] == "win rate (% of hands)"
    players = riichi_run.table("players")
    for p in prof["points"]:
        mine = players.filter(pl.col("strategy") == p["strategy"])
        assert p["y"]["estimate"] == pytest.approx(mine["wins"].sum() / mine["hands"].sum())
        assert p["x"]["estimate"] == pytest.approx(mine["deal_ins"].sum() / mine["hands"].sum())
        assert p["x"]["lo"] < p["x"]["estimate"] < p["x"]["hi"]
    assert {p["strategy"] for p in prof["points"]} == {
        "efficiency",
        "fold-on-riichi",
        "call-happy",
        "damaten",
    }


def test_sugoroku_profile_is_last_place_against_goal_winner_rate(sugoroku_run: store.Run) -> None:
    report = build_report(sugoroku_run)
    prof = report["profile"]
    assert (prof["x"]["metric"], prof["y"]["metric"]) == ("last_place_rate", "goal_winner_rate")
    games = sugoroku_run.table("games").select("variant", "game", "winner")
    players = sugoroku_run.table("players").join(games, on=["variant", "game"])
    # Last place from the scores: the game's lowest final points, split among the players holding
    # them (sugoroku shares ties).
    lowest = pl.col("final_points") == pl.col("final_points").min().over("variant", "game")
    players = players.with_columns((lowest / lowest.sum().over("variant", "game")).alias("last"))
    for p in prof["points"]:
        mine = players.filter((pl.col("variant") == p["variant"]) & (pl.col("strategy") == p["strategy"]))
        goal = (mine["seat"].cast(pl.Int64) == mine["winner"].cast(pl.Int64)).mean()
        assert p["y"]["estimate"] == pytest.approx(goal)
        assert p["x"]["estimate"] == pytest.approx(mine["last"].mean())
    # The goal is reached by one seat per game, except games that ended early: rates sum to at most 1.
    for v in report["variant_order"]:
        seats = (
            players.filter(pl.col("variant") == v)
            .group_by("game")
            .agg((pl.col("seat").cast(pl.Int64) == pl.col("winner").cast(pl.Int64)).sum().alias("n"))
        )
        assert seats["n"].max() <= 1


def test_metrics_tables_pivot_and_separate_rows_that_share_no_metric() -> None:
    def row(v: str, s: str, m: str, e: float) -> dict[str, object]:
        return {"variant": v, "strategy": s, "metric": m, "estimate": e, "lo": e - 1, "hi": e + 1, "n": 10}

    long = [
        row("base", "a", "win_rate", 1),
        row("base", "a", "avg_rank", 2),
        row("base", "b", "win_rate", 3),
        row("base", "b", "avg_rank", 4),
        row("base", "all", "win_rate", 5),  # shares win_rate: the same table, avg_rank left empty
        row("base", "b - a", "paired_rank", 6),  # shares nothing: a table of its own
        row("wild", "a", "win_rate", 7),
    ]
    tables = metrics_tables(long)
    assert [(t.variant, t.strategies, t.metrics) for t in tables] == [
        ("base", ["a", "b", "all"], ["win_rate", "avg_rank"]),
        ("base", ["b - a"], ["paired_rank"]),
        ("wild", ["a"], ["win_rate"]),
    ]
    assert tables[0].cells[("b", "avg_rank")]["estimate"] == 4 and ("all", "avg_rank") not in tables[0].cells
    # The game packages list variants sorted by name; the tables follow the config's order.
    ordered = metrics_tables(long, ["wild", "base"])
    assert [t.variant for t in ordered] == ["wild", "base", "base"]


def _hands_run(tmp: Path) -> FakeRun:
    """Three hand-made games of two seats (points per hand as delta_<seat>):

    game 0: seat 0 leads throughout and wins (no comeback); 2 hands.
    game 1: seat 1 falls 12,000 behind after the first hand (index 0), then wins; the biggest single
            loss is seat 0's −16,000 in the second (index 1); 2 hands.
    game 2: small swings over 4 hands (the longest); its biggest loss is 3,000.
    """
    deltas = {
        0: [(1000, -1000), (2000, -2000)],
        1: [(6000, -6000), (-16000, 16000)],
        2: [(1000, -1000), (-3000, 3000), (2000, -2000), (-1000, 1000)],
    }
    hand_rows = [
        {"variant": "base", "game": g, "deal": g, "hand": h, "delta_0": d0, "delta_1": d1}
        for g, hs in deltas.items()
        for h, (d0, d1) in enumerate(hs)
    ]
    player_rows = []
    for g, hs in deltas.items():
        final = np.sum(hs, axis=0) + 25000
        for seat in (0, 1):
            rank = 1 + int(final[1 - seat] > final[seat])
            player_rows.append(
                {"variant": "base", "game": g, "deal": g, "seat": seat, "player": seat,
                 "final_points": int(final[seat]), "rank": rank, "strategy": ["east", "west"][seat]}
            )  # fmt: skip
    tables = {
        "hands": pl.DataFrame(hand_rows).sample(
            fraction=1.0, shuffle=True, seed=3
        ),  # row order does not matter
        "players": pl.DataFrame(player_rows),
        "games": pl.DataFrame({"variant": ["base"] * 3, "game": [0, 1, 2], "deal": [0, 1, 2]}),
    }
    for name in tables:
        (tmp / name).mkdir(parents=True, exist_ok=True)
    return FakeRun(tmp, fake_manifest(name="hand-made"), tables)


def test_extreme_games_by_hand(tmp_path: Path) -> None:
    picks = {g["kind"]: g for g in extreme_games(_hands_run(tmp_path))}
    assert set(picks) == {"comeback", "biggest_loss", "longest"}  # no notable_hand in this game
    assert picks["comeback"]["game"] == 1
    # Hands are counted from 1, as `simharness show` numbers them.
    assert picks["comeback"]["why"] == "seat 1 (west) won from 12000 points behind after hand 1"
    assert picks["comeback"]["hand"] == 1
    assert (
        picks["biggest_loss"]["game"] == 1
        and "seat 0 (east) lost 16000 points in hand 2" in picks["biggest_loss"]["why"]
        and picks["biggest_loss"]["hand"] == 2
    )
    assert "hand" not in picks["longest"]
    assert picks["longest"]["game"] == 2 and picks["longest"]["why"] == "4 hands"
    assert picks["longest"]["command"] == f"simharness show {tmp_path} --game 2 --variant base"


def test_extreme_games_without_hands_fall_back_to_final_scores(sugoroku_run: store.Run) -> None:
    picks = extreme_games(sugoroku_run)
    players = sugoroku_run.table("players")
    games = sugoroku_run.table("games")
    for v in ("cap-500", "no-cap"):
        mine = {g["kind"]: g for g in picks if g["variant"] == v}
        assert set(mine) == {"biggest_loss", "longest"}  # no standings per hand, no hands to rank
        pv = players.filter(pl.col("variant") == v)
        lowest = pv.sort("final_points", "game").row(0, named=True)
        assert mine["biggest_loss"]["game"] == lowest["game"]
        assert str(lowest["final_points"]) in mine["biggest_loss"]["why"]
        gv = games.filter(pl.col("variant") == v)
        assert mine["longest"]["game"] == gv.sort("turns", "game", descending=[True, False])["game"][0]


def test_riichi_notable_hand_prefers_yakuman_and_names_its_yaku() -> None:
    names = yaku_names()
    daisangen, riichi = 1 << names.index("daisangen"), 1 << names.index("riichi")
    hands = pl.DataFrame(
        {
            "variant": ["v"] * 4,
            "game": [5, 3, 9, 1],
            "hand": [0, 2, 1, 0],
            "outcome": [1, 0, 1, 2],  # ron, tsumo, ron, exhaustive draw
            "han": [6, 13, 13, 0],
            "points": [12000, 32000, 32000, 0],
            "yaku": [riichi, daisangen, daisangen, 0],
            "winners": [1, 4, 2, 0],
        }
    )
    best = riichi_notable(hands).row(0, named=True)
    assert (best["game"], best["hand"]) == (3, 2)  # the earlier of two equal yakuman
    assert best["why"].startswith("yakuman (13 han, 32000 points: daisangen) won by seat 2")
    assert riichi_notable(hands.filter(pl.col("han") < 5)).height == 0  # nothing of mangan or more


def test_suzume_notable_hand_prefers_a_yakuman_to_more_points() -> None:
    hands = pl.DataFrame(
        {
            "variant": ["v"] * 3,
            "game": [0, 1, 2],
            "hand": [1, 4, 0],
            "claims": [1, 1, 0],
            "yakuman": [0, 1, 0],
            "points": [30, 20, 0],
            "winner": [0, 3, -1],
        }
    )
    best = suzume_notable(hands).row(0, named=True)
    assert best["game"] == 1 and best["why"].startswith("all green (yakuman, 20 points) won by seat 3")
    assert "highest-scoring" in suzume_notable(hands.filter(pl.col("yakuman") == 0))["why"][0]


def test_riichi_extreme_games_match_the_hands_table(riichi_run: store.Run) -> None:
    picks = {g["kind"]: g for g in extreme_games(riichi_run)}
    hands = riichi_run.table("hands")
    deltas = hands.select("game", pl.min_horizontal(*(f"delta_{s}" for s in range(4))).alias("low"))
    assert picks["biggest_loss"]["game"] == deltas.sort("low", "game")["game"][0]
    assert f"lost {-deltas['low'].min()} points" in picks["biggest_loss"]["why"]
    wins = hands.filter(pl.col("outcome").is_in([0, 1]))
    if wins["han"].max() >= 5:
        assert (
            picks["biggest_hand"]["game"] in wins.filter(pl.col("han") == wins["han"].max())["game"].to_list()
        )
    for g in picks.values():
        assert re.fullmatch(rf"simharness show \S+ --game {g['game']} --variant base", g["command"])


def test_html_shows_the_games_metrics_by_strategy_and_its_profile(riichi_run: store.Run) -> None:
    from simharness.report.html import render_html

    report = build_report(riichi_run)
    text = render_html(riichi_run, report)
    assert "Strategy profile: win rate (% of hands) against deal-in rate (% of hands)" in text
    header = re.search(r"<h2>Game metrics</h2>.*?<thead><tr>(.*?)</tr>", text, re.S)
    assert header is not None
    columns = re.findall(r"<th>(.*?)</th>", header.group(1))
    # Strategies as columns, metrics as rows: a dozen metrics as columns ran past the page.
    assert columns == ["metric", "efficiency", "fold-on-riichi", "call-happy", "damaten", "all"]
    body = text[header.end() : text.index("</table>", header.end())]
    names = [re.match(r"<tr><td>(.*?)</td>", r).group(1) for r in re.findall(r"<tr>.*?</tr>", body)]
    assert names[:3] == ["average rank", "win rate (% of hands)", "deal-in rate (% of hands)"]


def test_html_links_each_extreme_game_to_the_page_show_writes(
    tmp_path: Path, riichi_run: store.Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``simharness.show`` installed, ``write_html`` has it write every extreme game beside the
    report and links each; a game that ``show`` refuses is listed with the reason. (A stand-in for
    ``simharness.show.write_page``, with its signature, so that this runs without the show branch.)"""
    from simharness.errors import RunDirError
    from simharness.report.html import write_html

    report = build_report(riichi_run)
    refused = report["extreme_games"][0]["game"]
    calls = []

    def write_page(run_dir: Path, game: int, variant: str | None = None, out: Path | None = None) -> Path:
        calls.append((Path(run_dir), game, variant))
        if game == refused:
            raise RunDirError("the engine now plays this game differently", file=run_dir)
        assert out is not None
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(f"<!DOCTYPE html><title>game {game}</title>")
        return out

    fake = types.ModuleType("simharness.show")
    fake.write_page = write_page  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "simharness.show", fake)
    out = tmp_path / "out" / "report.html"
    write_html(riichi_run, report, out)
    text = out.read_text()
    wanted = {(g["variant"], g["game"]) for g in report["extreme_games"]}
    assert sorted((v, g) for _, g, v in calls) == sorted(wanted)  # each game once, from this run
    assert all(d == riichi_run.path for d, _, _ in calls)
    links = re.findall(r'<li><b><a href="([^"#]+)(#hand-\d+)?">', text)
    linked = [g for g in report["extreme_games"] if g["game"] != refused]
    assert len(links) == len(linked)
    for (href, at), g in zip(links, linked, strict=True):
        page = out.parent / href
        assert page.is_file() and page.parent.name == "report-games"
        assert at == (f"#hand-{g['hand']}" if "hand" in g else "")  # opens the hand the text names
    assert "(no page: " in text and "the engine now plays this game differently" in text


def test_html_links_real_show_pages(tmp_path: Path, riichi_run: store.Run) -> None:
    """The same with the real ``simharness show`` (branch show14): every link opens a page."""
    pytest.importorskip("simharness.show")
    from simharness.report.html import write_html

    out = tmp_path / "report.html"
    write_html(riichi_run, build_report(riichi_run), out)
    hrefs = re.findall(r'<li><b><a href="([^"#]+)(?:#hand-\d+)?">', out.read_text())
    assert hrefs and all((out.parent / h).read_text().startswith("<!DOCTYPE html>") for h in hrefs)


def test_extreme_games_read_chunk_by_chunk_equal_the_whole_run(riichi_run: store.Run) -> None:
    """Chunks of whole deals, added in any order (as a streamed report reads shards), pick the same
    games as the whole run: the most extreme, ties to the earliest game."""
    from simharness.report.extremes import ExtremeGames

    tables = {t: riichi_run.table(t) for t in ("players", "games", "hands")}
    acc = ExtremeGames()
    for lo, hi in ((10, 20), (0, 10)):  # deals 10-19 first, then 0-9
        part = {t: f.filter(pl.col("deal").is_between(lo, hi - 1)) for t, f in tables.items()}
        acc.add(FakeRun(riichi_run.path, riichi_run.manifest, part))
    assert acc.result(str(riichi_run.path), ["base"]) == extreme_games(riichi_run)


def test_rank_share_table_with_variants_of_different_player_counts() -> None:
    from simharness.report.glance_html import glance_section

    def shares(n: int) -> dict[str, dict[str, float]]:
        return {ordinal(p): {"estimate": 1 / n, "lo": 0.0, "hi": 1.0, "n": 10} for p in range(1, n + 1)}

    report = {
        "variant_order": ["four", "three"],
        "profile": {"x": {"metric": "a", "label": "a"}, "y": {"metric": "b", "label": "b"}, "points": []},
        "rank_shares": {
            "four": [{"strategy": "s", "rows": 10, "shares": shares(4)}],
            "three": [{"strategy": "s", "rows": 10, "shares": shares(3)}],
        },
    }
    text = glance_section(report)
    assert "<th>4th</th>" in text
    three = re.search(r"<tr><td>three</td>(.*?)</tr>", text)
    assert three is not None and three.group(1).count("<td>") == 5 and three.group(1).endswith("<td>–</td>")
