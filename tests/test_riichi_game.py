"""The Riichi game through the harness: configs, strategies, tables, metrics, duplicate play,
determinism across worker counts and resume."""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from simharness import _engine, config, engine, store
from simharness.cli import app
from simharness.games.riichi import summary_metrics
from simharness.games.riichi.metrics import RATIOS
from simharness.games.riichi.python import ShantenGreedy

REPO = Path(__file__).resolve().parent.parent

CONFIG = """\
name = "{name}"
game = "riichi"
games = {games}
seed = 5
shard_size = {shard}
duplicate = {duplicate}
players = {players}

[rules]
preset = "tenhou"
game_length = "tonpuu"

[variants.base]

[variants.no-kuitan]
kuitan = false
"""


@pytest.fixture(autouse=True)
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


def _config(
    tmp_path: Path, name: str, players: list[str], *, games: int = 24, shard: int = 8, duplicate: bool = False
) -> Path:
    path = tmp_path / f"{name}.toml"
    quoted = "[" + ", ".join(f'"{p}"' for p in players) + "]"
    text = CONFIG.format(
        name=name, games=games, shard=shard, duplicate=str(duplicate).lower(), players=quoted
    )
    path.write_text(text)
    return path


def _run(cfg: Path, out: Path, *extra: str) -> Path:
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(out), "--quiet", *extra])
    assert result.exit_code == 0, result.output
    return out / cfg.stem


def _tables(run_dir: Path) -> dict[str, pl.DataFrame]:
    run = store.open_run(run_dir)
    return {t: run.table(t) for t in run.tables}


def test_every_strategy_script_plays_and_the_tables_add_up(tmp_path: Path) -> None:
    scripts = sorted(p.stem for p in (REPO / "strategies" / "riichi").glob("*.toml"))
    assert {"efficiency", "tsumo-only", "fold-on-riichi", "damaten", "yakuhai-caller",
            "call-happy", "random"} <= set(scripts)  # fmt: skip
    # Every script, four at a time (the last table filled up with efficiency).
    lineups = [(scripts[i : i + 4] + ["efficiency"] * 3)[:4] for i in range(0, len(scripts), 4)]
    for i, lineup in enumerate(lineups):
        exp = config.load(_config(tmp_path, f"lineup{i}", lineup))
        knobs = [slot.knobs for slot in exp.lineup]
        out = engine.play_batch("riichi", exp.variants["base"], knobs, seed=1, first_game=0, count=12)
        players, hands = out["players"], out["hands"]
        # Points are conserved: every game's final points sum to 4 × 25000.
        assert (
            players.group_by("game").agg(pl.col("final_points").sum())["final_points"].to_list()
            == [100_000] * 12
        )
        # The hand rows add up to the player tallies.
        assert hands.height == players.group_by("game").agg(pl.col("hands").first())["hands"].sum()
        winners = hands["winners"].to_numpy()
        assert players["wins"].sum() == sum(bin(int(w)).count("1") for w in winners)
        assert (hands.filter(pl.col("outcome") <= 1)["han"] > 0).all()


def test_tsumo_only_never_rons_and_damaten_never_riichis() -> None:
    rules = engine.resolve_rules("riichi", "tenhou", {})
    eff = engine.resolve_knobs("riichi", {})
    lineup = [
        engine.resolve_knobs("riichi", {"ron": False}),
        engine.resolve_knobs("riichi", {"riichi": "never"}),
        eff,
        eff,
    ]
    out = engine.play_batch("riichi", rules, lineup, seed=2, first_game=0, count=20)
    p = out["players"]
    assert (p.filter(pl.col("player") == 0)["wins"] == p.filter(pl.col("player") == 0)["tsumo_wins"]).all()
    assert p.filter(pl.col("player") == 1)["riichi"].sum() == 0
    assert p.filter(pl.col("player") == 2)["riichi"].sum() > 0


def test_unknown_and_contradictory_rules_are_rejected_before_play() -> None:
    eff = engine.resolve_knobs("riichi", {})
    with pytest.raises(engine.OptionError) as e:
        engine.resolve_rules("riichi", "tenhou", {"west_extenshun": True})
    assert e.value.field == "west_extenshun"
    with pytest.raises(engine.OptionError) as e:
        engine.resolve_rules("riichi", "tenhou", {"starting_points": 40000})
    assert "return_points" in e.value.field
    with pytest.raises(engine.OptionError) as e:
        engine.play_batch("riichi", {"aka_dora": 2}, [eff] * 4, seed=1, first_game=0, count=1)
    assert e.value.field == "aka_dora"
    with pytest.raises(engine.OptionError) as e:
        engine.play_batch("riichi", {}, [eff] * 3, seed=1, first_game=0, count=1)
    assert e.value.field == "players"


def test_duplicate_identical_strategies_differ_by_exactly_zero(tmp_path: Path) -> None:
    twin = tmp_path / "efficiency-twin.toml"
    twin.write_text('name = "efficiency-twin"\ngame = "riichi"\n[knobs]\npolicy = "efficiency"\n')
    cfg = _config(
        tmp_path, "dup", ["efficiency", str(twin), "efficiency", str(twin)], games=16, duplicate=True
    )
    run = store.open_run(_run(cfg, tmp_path / "out"))
    m = summary_metrics(run)
    paired = m.filter(pl.col("metric").str.starts_with("paired_"))
    assert paired.height == 6  # three metrics × two variants
    points = paired.filter(pl.col("metric") == "paired_points")
    assert (points["estimate"] == 0).all() and (points["lo"] == 0).all() and (points["hi"] == 0).all()
    # Scores are fractional thousands: zero up to the rounding of a mean.
    assert (paired["estimate"].abs() < 1e-12).all() and (paired["hi"] - paired["lo"]).abs().max() < 1e-12
    # Every analyst metric is reported per variant and strategy with an interval.
    base = m.filter((pl.col("variant") == "base") & (pl.col("strategy") == "efficiency"))
    assert set(RATIOS) <= set(base["metric"])
    rank = base.filter(pl.col("metric") == "avg_rank").row(0, named=True)
    assert rank["lo"] <= rank["estimate"] <= rank["hi"]


def test_workers_and_resume_do_not_change_results(tmp_path: Path) -> None:
    cfg = _config(tmp_path, "det", ["efficiency", "fold-on-riichi", "call-happy", "random"])
    one = _run(cfg, tmp_path / "j1", "--jobs", "1")
    two = _run(cfg, tmp_path / "j2", "--jobs", "2", "--backend", "loky")
    ta, tb = _tables(one), _tables(two)
    assert ta.keys() == tb.keys() == {"games", "players", "hands", "events"}
    for name in ta:
        assert_frame_equal(ta[name], tb[name])
    # Lose shards and resume: the same tables.
    out = tmp_path / "resumed"
    shutil.copytree(tmp_path / "j1", out)
    run_dir = out / "det"
    for part in sorted((run_dir / "hands" / "variant=base").glob("*.parquet"))[:2]:
        part.unlink()
    manifest = run_dir / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"complete": true', '"complete": false'))
    _run(cfg, out)
    tc = _tables(run_dir)
    for name in ta:
        assert_frame_equal(ta[name], tc[name])


class _BadIndex:
    def decide(self, view: dict[str, object], legal: list[tuple[object, ...]]) -> int:
        return len(legal)


class _Recorder:
    """Chooses like the first legal action and checks what it is shown."""

    calls = 0

    def decide(self, view: dict[str, object], legal: list[tuple[object, ...]]) -> int:
        _Recorder.calls += 1
        assert len(legal) >= 2 and view["point"] in ("turn", "response")
        hand = view["hand"]
        assert isinstance(hand, list)
        if view["point"] == "turn":
            assert all(a[1] in hand for a in legal if a[0] == "discard")
        return 0


def test_python_strategies_decide_through_the_protocol(tmp_path: Path) -> None:
    rules = engine.resolve_rules("riichi", "tenhou", {"game_length": "tonpuu"})
    eff = engine.resolve_knobs("riichi", {})
    me = __name__
    lineup = [dict(eff, python=f"{me}:_Recorder"), eff, eff, eff]
    out = engine.play_batch("riichi", rules, lineup, seed=3, first_game=0, count=2)
    assert _Recorder.calls > 50
    assert out["players"]["final_points"].sum() == 200_000
    failure = r"game \d+: Python strategy of lineup slot 0 \(seat \d\) at \w+: ValueError: .*index below"
    with pytest.raises(ValueError, match=failure):
        engine.play_batch(
            "riichi",
            rules,
            [dict(eff, python=f"{me}:_BadIndex"), eff, eff, eff],
            seed=3,
            first_game=0,
            count=1,
        )
    with pytest.raises(engine.OptionError) as e:
        engine.play_batch(
            "riichi",
            rules,
            [dict(eff, python="nowhere:Nothing"), eff, eff, eff],
            seed=3,
            first_game=0,
            count=1,
        )
    assert e.value.field == "lineup[0].python"
    # Through a config and the runner: the script's `python` reaches the engine.
    cfg = _config(
        tmp_path, "py", ["python-greedy", "efficiency", "efficiency", "efficiency"], games=2, shard=1
    )
    run = store.open_run(_run(cfg, tmp_path / "out"))
    assert run.manifest.lineup[0].knobs["python"] == "simharness.games.riichi.python:ShantenGreedy"
    assert run.table("players").height == 16


class _ShantenAfter(ShantenGreedy):
    """Decides as ShantenGreedy after checking the view's `shanten_after` against the shanten of
    what each discard leaves of `hand` (so the key tells the seat nothing its hand does not), and
    the order of `legal` the example reads."""

    checked = 0

    def decide(self, view: Mapping[str, Any], legal: list[tuple[Any, ...]]) -> int:
        after = view["shanten_after"]
        assert isinstance(after, bytes) and len(after) == len(legal)
        counts = bytearray(34)
        for t in view["hand"]:
            if t < 136:  # flowers are extracted, never discarded
                counts[t // 4] += 1
        for a, s in zip(legal, after, strict=True):
            if a[0] == "discard":
                rest = bytearray(counts)
                rest[a[1] // 4] -= 1
                assert s == _engine.riichi_shanten_counts(bytes(rest))[0]
                _ShantenAfter.checked += 1
            else:
                assert s == 255
        names = [a[0] for a in legal]
        if view["point"] == "response":
            assert names[0] == "pass" and "ron" not in names[2:] and "tsumo" not in names
        else:
            assert "tsumo" not in names[1:] and "pass" not in names and "ron" not in names
        return super().decide(view, legal)


@pytest.mark.parametrize(("preset", "seats"), [("tenhou", 4), ("tenhou_sanma", 3)])
def test_shanten_after_is_each_discards_shanten(preset: str, seats: int) -> None:
    rules = engine.resolve_rules("riichi", preset, {"game_length": "tonpuu"})
    caller = engine.resolve_knobs("riichi", {"calls": "any"})
    lineup = [dict(caller, python=f"{__name__}:_ShantenAfter"), *[caller] * (seats - 1)]
    _ShantenAfter.checked = 0
    engine.play_batch("riichi", rules, lineup, seed=4, first_game=0, count=2)
    assert _ShantenAfter.checked > 500


def test_event_log_samples_games_without_changing_them() -> None:
    eff = engine.resolve_knobs("riichi", {})
    caller = engine.resolve_knobs("riichi", {"calls": "any"})
    lineup = [eff, caller, eff, caller]
    plain = engine.resolve_rules("riichi", "tenhou", {"game_length": "tonpuu"})
    logged = engine.resolve_rules("riichi", "tenhou", {"game_length": "tonpuu", "event_log_every": 3})
    a = engine.play_batch("riichi", plain, lineup, seed=8, first_game=0, count=9)
    b = engine.play_batch("riichi", logged, lineup, seed=8, first_game=0, count=9)
    assert a["events"].height == 0
    for t in ("games", "players", "hands"):
        assert_frame_equal(a[t], b[t])
    ev = b["events"]
    assert set(ev["game"].unique().to_list()) == {0, 3, 6}
    per_hand = ev.group_by("game", "hand").agg(
        pl.col("kind").is_in([2, 3]).sum().alias("discards"),
        (pl.col("kind") == 9).sum().alias("tsumo"),
        pl.col("tile").filter(pl.col("kind") <= 1).n_unique().alias("distinct_draws"),
        (pl.col("kind") <= 1).sum().alias("draws"),
    )
    hands = b["hands"].join(per_hand, on=["game", "hand"])
    assert hands.height == b["hands"].filter(pl.col("game").is_in([0, 3, 6])).height
    # Every discard of a hand is logged, a tile is drawn at most once, tsumo events match outcomes.
    assert (hands["discards"] == hands["turn"].cast(pl.UInt32)).all()
    assert (hands["distinct_draws"] == hands["draws"]).all()
    assert (hands["tsumo"] == (hands["outcome"] == 0).cast(pl.UInt32)).all()


def test_hand_deltas_give_running_standings_that_end_at_the_final_points() -> None:
    """The hands table's delta_<seat> columns are what the balance scorecard reads for lead changes
    and drama; summed over a game they reach each seat's final points, except the riichi deposits
    left on the table at the end, which go to the winner of the game in whole sticks."""
    from simharness.stats.balance import standings

    exp = config.load(REPO / "configs" / "riichi-efficiency.toml")
    rules = next(iter(exp.variants.values()))
    out = engine.play_batch("riichi", rules, [s.knobs for s in exp.lineup], seed=3, first_game=0, count=16)
    st = standings(out["hands"].with_columns(variant=pl.lit("base")), 4)
    assert st is not None
    last = st.sort("hand").group_by("game", "seat").agg(pl.col("points").last())
    players = out["players"].select("game", pl.col("seat").cast(pl.Int64), "final_points", "rank")
    joined = last.join(players, on=["game", "seat"]).with_columns(
        left=pl.col("final_points") - 25_000 - pl.col("points")
    )
    assert joined.height == 16 * 4
    assert (joined.filter(pl.col("rank") != 1)["left"] == 0).all()
    top = joined.filter(pl.col("rank") == 1)["left"]
    assert (top >= 0).all() and (top % 1000 == 0).all()


def test_sanma_config_runs_and_reports_three_seats(tmp_path: Path) -> None:
    """configs/riichi-sanma.toml end to end (fewer games): three player rows per game, points
    conserved at 3 × 35000, ranks 1-3 only, duplicate rotations 0-2, a report with every section."""
    cfg = tmp_path / "riichi-sanma.toml"
    text = (REPO / "configs" / "riichi-sanma.toml").read_text()
    cfg.write_text(text.replace("games = 3000", "games = 18\nshard_size = 9"))
    run_dir = _run(cfg, tmp_path / "out")
    run = store.open_run(run_dir)
    players, games = run.table("players"), run.table("games")
    assert set(run.manifest.variants) == {"tsumo_son", "marudori", "seppan", "flowers"}
    assert players.height == 4 * 18 * 3
    per_game = players.group_by("variant", "game").agg(pl.col("final_points").sum(), pl.len())
    assert (per_game["final_points"] == 105_000).all() and (per_game["len"] == 3).all()
    assert set(players["rank"].unique().to_list()) == {1, 2, 3}
    assert set(games["rotation"].unique().to_list()) == {0, 1, 2}
    metrics = summary_metrics(run)
    assert "rank_3" in set(metrics["metric"]) and "rank_4" not in set(metrics["metric"])
    result = CliRunner().invoke(app, ["report", str(run_dir), "--json"])
    assert result.exit_code == 0, result.output
    # Scores sum to zero per game: (105000 − 3 × 40000)/1000 = −15, oka +15, uma +15/0/−15.
    scores = players.group_by("variant", "game").agg(pl.col("score").sum())["score"]
    assert (scores.abs() < 1e-9).all()
    # Extractions: each hand has 4 Norths (+ the flowers variant's 4 flowers) to extract at most.
    hands = run.table("hands").group_by("variant", "game").len()
    nuki = players.group_by("variant", "game").agg(pl.col("nuki").sum()).join(hands, on=["variant", "game"])
    cap = pl.col("len") * pl.when(pl.col("variant") == "flowers").then(8).otherwise(4)
    assert (nuki["nuki"] <= nuki.select(cap).to_series()).all()
    assert (nuki.group_by("variant").agg(pl.col("nuki").sum())["nuki"] > 0).all()


def test_sanma_rules_need_three_strategies(tmp_path: Path) -> None:
    cfg = _config(tmp_path, "sanma4", ["efficiency"] * 4)
    cfg.write_text(cfg.read_text().replace('preset = "tenhou"', 'preset = "tenhou"\nplayers = 3'))
    with pytest.raises(config.ConfigError) as e:
        config.load(cfg)
    assert e.value.field == "players"
    assert "players = 3: expected 3 strategies, got 4" in e.value.message
    three = _config(tmp_path, "sanma3", ["efficiency"] * 3)
    three.write_text(three.read_text().replace('preset = "tenhou"', 'preset = "tenhou"\nplayers = 3'))
    exp = config.load(three)
    assert exp.variants["base"]["players"] == 3 and exp.variants["base"]["starting_points"] == 35000
