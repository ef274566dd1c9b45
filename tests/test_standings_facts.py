"""The games table's standings facts (``engine/src/standings.rs``) against the report's slow path.

Every game played in hands logs, per game, what the scorecard's hand-level metrics and the extreme
games need (``stats.balance.FACTS``), so that the report never scans ``hands``. The slow path that
computes the same from the ``hands`` table (kept for runs written before the facts) is the
reference: per game, on batches of every such game, the facts equal it; and a run whose shards lack
the facts reports the same numbers, with a note.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq
import pytest
from harness_helpers import REPO, in_repo  # noqa: F401  (strategies are found from the repository)
from rich.console import Console

from simharness import config, engine, runner, store, tomlfile
from simharness.games import estimates
from simharness.games.hongkong import metrics as hongkong_metrics
from simharness.report import extremes, stream
from simharness.report.extremes import Kind
from simharness.stats import balance

# (game, preset, rule overrides, lineup of strategy scripts, games, duplicate): each game played in
# hands, with ties shared where the game allows them (several winners of one game) and multiple wins
# of one discard (a hand on several rows).
RIICHI = ["efficiency", "call-happy", "damaten", "random"]
HONGKONG = ["chicken-fast", "min-fan", "defensive", "random"]
SUZUME = ["fastest", "max-points", "defensive", "tsumo-only", "random"]
BATCHES: dict[str, tuple[str, str, dict[str, Any], list[str], int, bool]] = {
    "riichi": ("riichi", "tenhou", {"game_length": "tonpuu"}, RIICHI, 24, True),
    "riichi-sanma": ("riichi", "default", {"players": 3, "game_length": "tonpuu"}, RIICHI[:3], 12, False),
    "hongkong": ("hongkong", "default", {"ties": "shared"}, HONGKONG, 40, False),
    "suzume": ("suzume", "default", {"multi_ron": "all", "ties": "shared"}, SUZUME, 200, True),
    "suzume-2p": ("suzume", "beginner", {}, ["fastest", "random"], 100, False),
    "trump": ("trump", "default", {}, ["always-riichi", "max-han", "random"], 60, True),
}  # fmt: skip


def _knobs(game: str, name: str) -> dict[str, Any]:
    """The knob set of built-in strategy script ``name``."""
    return dict(tomlfile.load(REPO / "strategies" / game / f"{name}.toml").get("knobs", {}))


@pytest.fixture(scope="module")
def played() -> dict[str, dict[str, pl.DataFrame]]:
    out = {}
    for name, (game, preset, overrides, lineup, games, duplicate) in BATCHES.items():
        rules = engine.resolve_rules(game, preset, overrides)
        knobs = [_knobs(game, s) for s in lineup]
        tables = engine.play_batch(game, rules, knobs, seed=7, first_game=0, count=games, duplicate=duplicate)
        out[name] = {t: f.with_columns(variant=pl.lit("base")) for t, f in tables.items()}
    return out


@pytest.mark.parametrize("name", sorted(BATCHES))
def test_scorecard_facts_equal_the_hands_path(name: str, played: dict[str, dict[str, pl.DataFrame]]) -> None:
    t = played[name]
    games, players, hands = t["games"], t["players"], t["hands"]
    assert balance.has_facts(games.columns)
    n = int(players.group_by("game").len()["len"].max())  # type: ignore[arg-type]
    stand = balance.standings(hands, n)
    assert stand is not None
    slow = balance.hand_metrics(stand, players.sort("variant", "game", "seat"), n).sort("game")
    fast = balance.fact_metrics(games).sort("game")
    assert fast.columns == slow.columns
    assert fast.equals(slow), name
    # The batch reaches what the facts tell apart: lead changes, deficits, last places at the half.
    assert fast["lead_changes"].sum() > 0 and fast["max_drama"].max() > 0  # type: ignore[operator]
    assert fast["comeback_eligible"].sum() > 0  # type: ignore[operator]


def test_the_batches_reach_comebacks_and_shared_places(played: dict[str, dict[str, pl.DataFrame]]) -> None:
    games = pl.concat([t["games"].select(balance.FACTS) for t in played.values()], how="vertical_relaxed")
    assert games["winner_last_at_half"].sum() > 0 and (games["last_at_half"] > 1).any()


def _per_game_reference(hands: pl.DataFrame, players: pl.DataFrame, n: int) -> pl.DataFrame:
    """Per game, from the hands through the slow path's own steps: the winner's largest deficit and
    its first hand, and the largest single-hand loss with its hand and seat (earliest hand, then
    lowest seat, among equals)."""
    stand = balance.standings(hands, n)
    assert stand is not None
    winner = (
        players.filter(pl.col("rank") == 1)
        .group_by("game")
        .agg(pl.col("seat").cast(pl.Int64).min().alias("w"))
    )
    behind = (
        stand.join(winner, on="game")
        .group_by("game", "hand")
        .agg(
            (pl.col("points").max() - pl.col("points").filter(pl.col("seat") == pl.col("w")).first()).alias(
                "d"
            )
        )
        .sort("game", "d", "hand", descending=[False, True, False])
        .group_by("game", maintain_order=True)
        .first()
    )
    changes = extremes._hand_changes(hands, n)
    assert changes is not None
    lost = (
        changes.with_columns(loss=-pl.col("change"))
        .sort("game", "loss", "hand", "seat", descending=[False, True, False, False])
        .group_by("game", maintain_order=True)
        .first()
    )
    return (
        behind.join(lost, on="game")
        .select(
            "game",
            winner_max_deficit=pl.col("d").cast(pl.Int64),
            winner_max_deficit_hand=pl.when(pl.col("d") > 0).then(pl.col("hand")).otherwise(0).cast(pl.Int64),
            largest_loss=pl.col("loss").clip(0).cast(pl.Int64),
            largest_loss_hand=pl.when(pl.col("loss") > 0)
            .then(pl.col("hand_right"))
            .otherwise(0)
            .cast(pl.Int64),
            largest_loss_seat=pl.when(pl.col("loss") > 0).then(pl.col("seat")).otherwise(0).cast(pl.Int64),
        )
        .sort("game")
    )


@pytest.mark.parametrize("name", sorted(BATCHES))
def test_extreme_game_facts_equal_the_hands_path(
    name: str, played: dict[str, dict[str, pl.DataFrame]]
) -> None:
    t = played[name]
    games, players, hands = t["games"], t["players"], t["hands"]
    n = int(players.group_by("game").len()["len"].max())  # type: ignore[arg-type]
    ref = _per_game_reference(hands, players, n)
    cols = ref.columns[1:]
    fast = games.select("game", *(pl.col(c).cast(pl.Int64) for c in cols)).sort("game")
    assert fast.equals(ref), name
    # And the pick of each kind: the slow path's functions against the facts'.
    pv = players.with_columns(strategy=pl.col("player").cast(pl.String))
    picked = extremes._from_facts(games, pv)["base"]
    assert picked[Kind.COMEBACK] == extremes._comeback(hands, pv, n)
    assert picked[Kind.BIGGEST_LOSS] == extremes._biggest_loss(hands, pv, n)
    assert picked[Kind.BIGGEST_LOSS] is not None


# Each game's win of the dealer, as its metrics give it to ``dealer_rows``.
DEALER_WON: dict[str, pl.Expr] = {
    "riichi": ((pl.col("winners").cast(pl.Int64) // (2 ** pl.col("dealer").cast(pl.Int64))) % 2) == 1,
    "hongkong": pl.col("outcome").is_in(hongkong_metrics.WINS) & (pl.col("winner") == pl.col("dealer")),
    "suzume": (pl.col("claims") > 0) & (pl.col("winner") == pl.col("dealer")),
    "trump": pl.col("outcome").is_in([engine.codes("trump", "hands", "outcome")[o] for o in ("tsumo", "ron")])
    & (pl.col("winner") == pl.col("dealer")),
}


@pytest.mark.parametrize("name", sorted(BATCHES))
def test_dealer_counts_equal_the_hands_path(name: str, played: dict[str, dict[str, pl.DataFrame]]) -> None:
    t = played[name]
    won = DEALER_WON[BATCHES[name][0]]
    slow = estimates.dealer_rows("base", t["hands"], won)
    fast = estimates.dealer_rows("base", t["hands"].clear(), won, games=t["games"])
    assert fast == slow
    assert t["games"]["dealer_wins"].sum() > 0


def _without_facts(run_dir: Path) -> None:
    """Rewrites a run's games shards as a run written before the standings facts: the same rows
    without those columns, with the shard's provenance and a fresh checksum."""
    for path in sorted((run_dir / "games").rglob("*.parquet")):
        meta = {k: v for k, v in store.shard_meta(path).items() if k not in ("rows", "checksum")}
        table = pq.read_table(path).drop_columns(list(balance.FACTS)).replace_schema_metadata(None)
        path.write_bytes(store.shard_bytes(table, meta))


# A small run of each game played in hands under duplicate play, two variants (so that the game
# metrics' paired differences are compared too), several shards and chunks.
OLD_LAYOUT = {
    "suzume": (400, 100, '["fastest", "max-points", "defensive", "random"]', "default", "ties = 'shared'"),
    "riichi": (24, 8, '["efficiency", "call-happy", "damaten", "random"]', "tenhou", "kuitan = false"),
    "hongkong": (40, 8, '["chicken-fast", "min-fan", "defensive", "random"]', "default", "min_fan = 1"),
    "trump": (120, 30, '["always-riichi", "max-han", "random"]', "default", "end_on_zero = false"),
}  # fmt: skip


def _config(game: str, scale: float = 1.0) -> str:
    games, shard, players, preset, variant = OLD_LAYOUT[game]
    n = len(players.split(","))
    games, shard = (max(n, int(x * scale) // n * n) for x in (games, shard))
    return (
        f'name = "facts-{game}"\ngame = "{game}"\ngames = {games}\nseed = 9\nshard_size = {shard}\n'
        f'duplicate = true\nplayers = {players}\n[rules]\npreset = "{preset}"\n'
        f"[variants.base]\n[variants.other]\n{variant}\n"
    )


def _numbers(c: stream.Collected) -> dict[str, Any]:
    """What the two layouts must agree on: every number of the summary and the scorecard (the run's
    provenance, the replay commands' run directory and the scorecard's notes aside)."""
    assert c.scorecard is not None
    summary = {k: v for k, v in c.summary.items() if k != "run"}
    summary["extreme_games"] = [
        {k: v for k, v in e.items() if k != "command"} for e in summary["extreme_games"]
    ]
    card = {k: v for k, v in c.scorecard.items() if k != "notes"}
    return {"summary": summary, "scorecard": card}


@pytest.mark.usefixtures("in_repo")
@pytest.mark.parametrize("game", sorted(OLD_LAYOUT))
def test_a_run_without_the_facts_reports_the_same_numbers_by_the_slow_path(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "exp.toml").write_text(_config(game))
    new = runner.run(config.load(tmp_path / "exp.toml"), tmp_path / "new", console=Console(quiet=True))
    old = tmp_path / "old" / new.name
    shutil.copytree(new, old)
    _without_facts(old)
    old_run = store.open_run(old)
    assert not balance.has_facts(old_run.table("games").columns)
    # The fast path reads no hands for the scorecard and the two standings kinds of extreme games.
    monkeypatch.setattr(stream, "chunk_games", lambda run: OLD_LAYOUT[game][1])  # several chunks
    fast = stream.collect(store.open_run(new), scorecard=True)
    slow = stream.collect(old_run, scorecard=True)
    assert fast.note is None and slow.note == balance.SLOW_PATH_NOTE
    assert slow.scorecard is not None and balance.SLOW_PATH_NOTE in slow.scorecard["notes"]
    assert fast.scorecard is not None and fast.scorecard["hand_level"]
    a, b = _numbers(fast), _numbers(slow)
    assert a["scorecard"] == b["scorecard"]
    for key in a["summary"]:
        assert a["summary"][key] == b["summary"][key], key
    kinds = {e["kind"] for e in fast.summary["extreme_games"]}
    assert {Kind.COMEBACK.value, Kind.BIGGEST_LOSS.value} <= kinds
    # The dealer's rows (read from the games' counts on the fast path) are among the game metrics.
    metrics = {r["metric"] for r in fast.summary["game_metrics"]}
    assert {"dealer_win_rate", "dealer_mean_result"} <= metrics


@pytest.mark.usefixtures("in_repo")
def test_the_report_says_it_took_the_slow_path(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from simharness.cli import app

    (tmp_path / "exp.toml").write_text(_config("suzume", scale=0.1))
    run_dir = runner.run(config.load(tmp_path / "exp.toml"), tmp_path / "out", console=Console(quiet=True))
    fast = CliRunner().invoke(app, ["report", str(run_dir)])
    _without_facts(run_dir)
    slow = CliRunner().invoke(app, ["report", str(run_dir)])
    assert fast.exit_code == 0 and slow.exit_code == 0, slow.output
    assert "slow path" not in fast.stderr and "slow path" in slow.stderr.replace("\n", " ")
    data = CliRunner().invoke(app, ["report", str(run_dir), "--json"])
    assert (
        "slow path" not in data.stderr
        and balance.SLOW_PATH_NOTE in json.loads(data.stdout)["scorecard"]["notes"]
    )
