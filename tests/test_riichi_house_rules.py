"""Riichi house rules that need a config to show their effect: chombo (furiten / empty-wait
riichi), noten declaration at an exhaustive draw and the local yaku set."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import polars as pl
import pytest
from typer.testing import CliRunner

from simharness import config, engine, store
from simharness.cli import app
from simharness.games import riichi
from simharness.games.riichi import summary_metrics
from simharness.games.riichi.python import ShantenGreedy

REPO = Path(__file__).resolve().parent.parent

# Outcome value of a voided hand in the `hands` table.
CHOMBO = 9


@pytest.fixture(autouse=True)
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


def _run(tmp_path: Path, name: str, body: str) -> store.Run:
    cfg = tmp_path / f"{name}.toml"
    cfg.write_text(f'name = "{name}"\ngame = "riichi"\nseed = 11\n{body}')
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 0, result.output
    return store.open_run(tmp_path / "out" / name)


def test_furiten_riichi_is_a_chombo_that_replays_the_hand(tmp_path: Path) -> None:
    # python-greedy declares riichi with any riichi discard, furiten or not; the native policy
    # stays dama rather than commit a foul.
    run = _run(
        tmp_path,
        "chombo",
        "games = 24\nshard_size = 12\n"
        'players = ["python-greedy", "efficiency", "python-greedy", "efficiency"]\n'
        '[rules]\npreset = "nashi_nashi"\ngame_length = "tonpuu"\nevent_log_every = 1\n',
    )
    hands = run.table("hands").sort("game", "hand")
    players = run.table("players")
    void = hands.filter(pl.col("outcome") == CHOMBO)
    assert void.height >= 2
    # Each voided hand is followed by the same round and honba, replayed (repeat + 1).
    nxt = hands.with_columns(
        [pl.col(c).shift(-1).over("game").alias(f"next_{c}") for c in ("round", "honba", "repeat")]
    ).filter((pl.col("outcome") == CHOMBO) & pl.col("next_round").is_not_null())
    assert (nxt["next_round"] == nxt["round"]).all() and (nxt["next_honba"] == nxt["honba"]).all()
    assert (nxt["next_repeat"] == nxt["repeat"] + 1).all()
    # The mangan penalty (no honba, no deposits): 8000 from a non-dealer, 12000 from the dealer.
    for row in void.iter_rows(named=True):
        deltas = [row[f"delta_{s}"] for s in range(4)]
        offender = row["chombo"].bit_length() - 1
        assert sum(deltas) == 0
        assert deltas[offender] == (-12000 if offender == row["dealer"] else -8000)
    # Per player: fouls only by the reckless strategy, and the summary reports the rate.
    by_slot = players.group_by("player").agg(pl.col("chombo").sum()).sort("player")["chombo"].to_list()
    assert by_slot[1] == by_slot[3] == 0 and by_slot[0] + by_slot[2] == void.height
    # The event log marks each foul where it was shown (kind 13).
    shown = run.table("events").filter(pl.col("kind") == 13)
    assert shown.height == sum(bin(m).count("1") for m in hands["chombo"].to_list())
    rates = summary_metrics(run).filter(pl.col("metric") == "chombo_rate")
    get = {r["strategy"]: r["estimate"] for r in rates.iter_rows(named=True)}
    assert get["python-greedy"] > 0 and get["efficiency"] == 0


def test_noten_declaration_is_a_strategy_choice(tmp_path: Path) -> None:
    claims = tmp_path / "claims.toml"
    claims.write_text(
        'name = "claims"\ngame = "riichi"\nversion = 1\ndescription = "claims noten"\n'
        '[knobs]\nriichi = "never"\nnoten_declaration = "always"\n'
    )
    run = _run(
        tmp_path,
        "noten",
        f'games = 16\nshard_size = 16\nplayers = ["{claims}", "efficiency", "{claims}", "efficiency"]\n'
        '[rules]\ngame_length = "tonpuu"\n'
        "[variants.auto]\n[variants.claims]\nallow_noten_declaration = true\n",
    )
    hands = run.table("hands")
    draws = hands.filter(pl.col("outcome") == 2)
    auto = draws.filter(pl.col("variant") == "auto")
    claimed = draws.filter(pl.col("variant") == "claims")
    assert (auto["noten_declared"] == 0).all()
    assert (claimed["noten_declared"] > 0).any()
    # Only the claiming slots (seats 0 and 2, no duplicate play) claim, never while tenpai or in riichi.
    assert ((claimed["noten_declared"] & 0b1010) == 0).all()
    assert ((claimed["noten_declared"] & (claimed["tenpai"] | claimed["riichi"])) == 0).all()


def test_local_yaku_is_a_set_in_configs_and_scoring(tmp_path: Path) -> None:
    hand = "34m999m888m789m77m"
    assert riichi.score_hand(hand, "5m", seat_wind="S").yakuman == 0
    s = riichi.score_hand(hand, "5m", seat_wind="S", local_yaku=["kaga_hyakumangoku"])
    assert (s.yakuman, s.points) == (1, 32000)
    with pytest.raises(engine.OptionError) as e:
        engine.resolve_rules("riichi", "default", {"local_yaku": ["daisharin", "open_richi"]})
    assert e.value.field == "local_yaku" and "open_richi" in e.value.message
    run = _run(
        tmp_path,
        "local",
        'games = 4\nshard_size = 4\nplayers = ["efficiency", "efficiency", "efficiency", "efficiency"]\n'
        '[rules]\ngame_length = "tonpuu"\n[grid]\nlocal_yaku = [[], ["daisharin", "kaga_hyakumangoku"]]\n',
    )
    variants = run.manifest.variants
    assert variants["local_yaku-none"]["local_yaku"] == []
    both = variants["local_yaku-daisharin.kaga_hyakumangoku"]["local_yaku"]
    assert both == ["daisharin", "kaga_hyakumangoku"]
    assert run.table("games").height == 8


def test_open_riichi_and_shiro_pocchi_show_in_the_yaku_column(tmp_path: Path) -> None:
    s = riichi.score_hand(
        "23567m345p678s22p", "4m", seat_wind="S", tsumo=True, riichi=True, open_riichi=True,
        local_yaku=["open_riichi"],
    )  # fmt: skip
    assert (s.han, s.points) == (5, 8000)
    opener = tmp_path / "opener.toml"
    opener.write_text(
        'name = "opener"\ngame = "riichi"\nversion = 1\ndescription = "open riichi"\n'
        "[knobs]\nopen_riichi = true\n"
    )
    run = _run(
        tmp_path,
        "open",
        f'games = 24\nshard_size = 24\nplayers = ["{opener}", "random", "{opener}", "random"]\n'
        '[rules]\ngame_length = "tonpuu"\nevent_log_every = 1\n'
        'local_yaku = ["open_riichi", "shiro_pocchi"]\n',
    )
    names = riichi.yaku_names()

    def bit(y: str) -> pl.Expr:
        return (pl.col("yaku") & (1 << names.index(y))) != 0

    opened = run.table("hands").filter((pl.col("outcome") <= 1) & bit("open_riichi"))
    assert opened.height > 0
    # Only with riichi, and only the opener slots (seats 0 and 2, no duplicate play) open.
    assert opened.select((bit("riichi") | bit("double_riichi")).all()).item()
    assert ((opened["winners"] & 0b1010) == 0).all()
    # Each opening is an event (kind 15) of an opener seat.
    opens = run.table("events").filter(pl.col("kind") == 15)
    assert opens.height >= opened.height and set(opens["seat"].to_list()) <= {0, 2}
    # The marked 白 wins only by tsumo, for a player in riichi.
    pocchi = run.table("hands").filter(bit("shiro_pocchi"))
    assert pocchi.height >= 1
    assert (pocchi["outcome"] == 0).all()
    assert ((pocchi["winners"] & pocchi["riichi"]) == pocchi["winners"]).all()


class _Watcher(ShantenGreedy):
    """ShantenGreedy that records the open riichi hands its views show."""

    shown: ClassVar[list[int]] = []

    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> int:
        for seat, tiles in enumerate(view["open_hands"]):
            if tiles is not None:
                assert view["riichi"][seat] and len(tiles) % 3 == 1
                _Watcher.shown.append(seat)
        return super().decide(view, legal)


def test_python_strategies_see_open_riichi_hands() -> None:
    over = {"local_yaku": ["open_riichi"], "game_length": "tonpuu"}
    rules = engine.resolve_rules("riichi", "default", over)
    opener = engine.resolve_knobs("riichi", {"open_riichi": True})
    watcher = dict(engine.resolve_knobs("riichi", {}), python=f"{__name__}:_Watcher")
    engine.play_batch("riichi", rules, [watcher, opener, watcher, opener], seed=4, first_game=0, count=6)
    assert _Watcher.shown and set(_Watcher.shown) <= {1, 3}


def test_the_fouls_config_resolves_every_variant() -> None:
    exp = config.load(REPO / "configs" / "riichi-fouls.toml")
    payments = {v: r["chombo_payment"] for v, r in exp.variants.items()}
    kinds = ("mangan", "3000_all", "points_deduction", "hand_forfeit")
    assert payments == {f"chombo_payment-{p}": p for p in kinds}
    rules = exp.variants.values()
    assert all(r["furiten_riichi"] == "chombo" and r["allow_noten_declaration"] for r in rules)


def test_sashi_uma_settles_only_between_the_first_two_lineup_players(tmp_path: Path) -> None:
    # Duplicate play rotates the seats: the side bet must follow the lineup players, not the seats.
    run = _run(
        tmp_path,
        "sashi",
        'games = 16\nduplicate = true\nplayers = ["efficiency", "fold-on-riichi", "call-happy", "damaten"]\n'
        '[rules]\ngame_length = "tonpuu"\numa = "sashi"\nside_bet = 7\n',
    )
    p = run.table("players").with_columns(
        bet=(
            pl.col("score")
            - (pl.col("final_points") - 30000) / 1000
            - pl.when(pl.col("rank") == 1).then(20).otherwise(0)
        ).round(6)
    )
    assert p.filter(pl.col("player") == 0)["seat"].n_unique() == 4
    first_two = p.filter(pl.col("player") < 2)
    assert first_two.height == 2 * 16
    winner = first_two.sort("rank").group_by("game").first()
    loser = first_two.sort("rank", descending=True).group_by("game").first()
    assert (winner["bet"] == 7.0).all() and (loser["bet"] == -7.0).all()
    assert (p.filter(pl.col("player") >= 2)["bet"] == 0).all()
