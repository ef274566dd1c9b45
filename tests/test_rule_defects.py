"""The rule defects found on review of issue 15, each pinned by the case that showed it."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from mjlog_records import sanma_record
from typer.testing import CliRunner

from simharness import engine
from simharness.cli import app
from simharness.store import Run, open_run


def _riichi(
    rules: dict, lineup: list[dict], *, seed: int, count: int, preset: str = "tenhou"
) -> dict[str, pl.DataFrame]:
    resolved = engine.resolve_rules("riichi", preset, rules)
    knobs = [engine.resolve_knobs("riichi", k) for k in lineup]
    return engine.play_batch("riichi", resolved, knobs, seed=seed, first_game=0, count=count)


def test_tobi_zero_or_below_logs_a_player_at_exactly_zero_as_busted() -> None:
    # 3000 points each: a noten payment of 1000 or a 1000-point ron often leaves someone at 0.
    out = _riichi(
        {"tobi": "zero_or_below", "starting_points": 3000, "return_points": 3000}, [{}] * 4, seed=4, count=60
    )
    players, games = out["players"], out["games"]
    assert (players["final_points"] == 0).any(), "the sample must hold a game ended at exactly 0"
    ended = players.group_by("game").agg(
        (pl.col("final_points") <= 0).any().alias("out"),
        pl.col("busted").any().alias("logged"),
    )
    joined = ended.join(games.select("game", "busted"), on="game")
    assert (joined["busted"] == joined["out"]).all()
    assert (joined["logged"] == joined["out"]).all()
    assert (players["busted"] == (players["final_points"] <= 0)).all()


def test_events_log_only_the_calls_and_rons_that_took_effect() -> None:
    caller = {"calls": "any"}
    rules = {"game_length": "tonpuu", "event_log_every": 1}
    out = _riichi(rules, [caller] * 4, seed=11, count=12)
    ev, hands = out["events"], out["hands"]
    rons = ev.filter(pl.col("kind") == 10).group_by("game", "hand").agg(pl.len().alias("rons"))
    ronned = hands.filter(pl.col("outcome") == 1).select(
        "game", "hand", pl.col("winners").bitwise_count_ones().alias("w")
    )
    joined = ronned.join(rons, on=["game", "hand"], how="left")
    assert joined.height > 5
    assert (joined["rons"] == joined["w"]).all(), "one ron event per ron winner"
    assert ev.filter(pl.col("kind") == 10).join(ronned, on=["game", "hand"], how="anti").height == 0
    # The seats with a logged chi, pon or daiminkan are exactly the seats with an open meld.
    callers = (
        ev.filter(pl.col("kind").is_in([4, 5, 6]))
        .group_by("game", "hand")
        .agg(pl.lit(2, pl.Int64).pow(pl.col("seat").unique().cast(pl.Int64)).sum().alias("logged"))
    )
    assert callers.height > 20, "call-happy players call in these games"
    j = hands.select("game", "hand", "open").join(callers, on=["game", "hand"], how="left")
    j = j.with_columns(pl.col("logged").fill_null(0))
    assert (j["logged"] == j["open"].cast(pl.Int64)).all()


def test_tenhou_preset_has_agari_yame_but_no_tenpai_yame() -> None:
    rules = engine.resolve_rules("riichi", "tenhou", {})
    assert (rules["agari_yame"], rules["tenpai_yame"]) == ("auto_if_top", "off")


def _suzume(ties: str) -> pl.DataFrame:
    rules = engine.resolve_rules("suzume", "default", {"ties": ties, "laps": 1})
    knobs = [engine.resolve_knobs("suzume", {})] * 4
    return engine.play_batch("suzume", rules, knobs, seed=3, first_game=0, count=400)["players"]


def test_suzume_shares_a_tied_first_place_and_seat_order_is_an_option() -> None:
    shared, by_seat = _suzume("shared"), _suzume("seat_order")
    same_play = shared.select("game", "seat", "final_points").equals(
        by_seat.select("game", "seat", "final_points")
    )
    assert same_play, "the tie rule changes ranks, never play"
    top = shared.group_by("game").agg(
        (pl.col("final_points") == pl.col("final_points").max()).sum().alias("tied"),
        (pl.col("rank") == 1).sum().alias("firsts"),
    )
    assert (top["tied"] > 1).any(), "the sample must hold a tie for first"
    assert (top["firsts"] == top["tied"]).all()
    assert (by_seat.group_by("game").agg((pl.col("rank") == 1).sum().alias("n"))["n"] == 1).all()
    # Competition ranking: after k players tied at rank r comes rank r + k.
    for _, g in shared.group_by("game"):
        pts = g["final_points"].to_list()
        assert g["rank"].to_list() == [1 + sum(q > p for q in pts) for p in pts]


def _small_run(tmp_path: Path, game: str, games: int, seed: int, players: list[str], rules: str) -> Run:
    """Plays a one-shard run of ``game`` into ``tmp_path`` through the CLI and opens it."""
    cfg = tmp_path / f"{game}.toml"
    quoted = ", ".join(f'"{p}"' for p in players)
    cfg.write_text(
        f'name = "{game}"\ngame = "{game}"\ngames = {games}\nseed = {seed}\nshard_size = {games}\n'
        f"players = [{quoted}]\n[rules]\n{rules}\n"
    )
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    return open_run(tmp_path / game)


def test_summary_counts_a_shared_first_place_as_a_fraction(tmp_path: Path) -> None:
    from simharness.report.summary import build_summary

    lineup = ["fastest", "fastest", "defensive", "max-points"]
    run = _small_run(tmp_path, "suzume", 300, 3, lineup, "laps = 1")
    s = build_summary(run)
    block = s["variants"]["base"]
    firsts = [r["first_places"] for r in block["by_strategy"]]
    assert sum(firsts) == pytest.approx(300)
    assert any(f != round(f) for f in firsts), "a shared first place is a fraction of a win"
    assert sum(r["first_place_rate"]["estimate"] * r["rows"] for r in block["by_seat"]) == pytest.approx(300)


def test_sugoroku_reports_the_goal_winner_and_the_top_score_by_name(tmp_path: Path) -> None:
    from simharness.games import registry

    run = _small_run(tmp_path, "sugoroku", 400, 9, ["naive", "greedy", "random", "naive"], "max_turns = 120")
    metrics = registry.summary_metrics("sugoroku")
    assert metrics is not None
    m = metrics(run)
    est = {(r["strategy"], r["metric"]): r["estimate"] for r in m.to_dicts()}
    games, players = run.table("games"), run.table("players")
    reached = games.filter(pl.col("winner") >= 0)
    assert est[("all", "goal_reached_rate")] == pytest.approx(reached.height / 400)
    assert 0 < reached.height < 400, "the turn limit ends some games without a goal winner"
    by_seat = players.join(games.select("game", "winner"), on="game").filter(
        pl.col("seat").cast(pl.Int64) == pl.col("winner").cast(pl.Int64)
    )
    for strategy in ("naive", "greedy", "random"):
        rows = players.filter(pl.col("strategy") == strategy).height
        goal = by_seat.filter(pl.col("strategy") == strategy).height
        assert est[(strategy, "goal_winner_rate")] == pytest.approx(goal / rows)
    tops = sum(
        est[(s, "top_score_rate")] * players.filter(pl.col("strategy") == s).height
        for s in ("naive", "greedy", "random")
    )
    assert tops == pytest.approx(400)
    not_top = by_seat.filter(pl.col("rank") != 1).height
    assert est[("all", "goal_winner_not_top_rate")] == pytest.approx(not_top / 400)


def test_no_two_strategy_scripts_of_a_game_are_the_same_knob_set() -> None:
    from simharness import strategies

    repo = Path(__file__).resolve().parent.parent
    seen: dict[tuple[str, str], str] = {}
    for s in strategies.available(None, repo):
        key = (s.game, repr(sorted(s.resolved_knobs().items())))
        assert key not in seen, f"{s.game}: {s.name} plays exactly as {seen[key]}"
        seen[key] = s.name


# A three-player Tenhou record cut short by hand (not a real game): the hand ends in an exhaustive
# draw after six draws.
SANMA_MJLOG = sanma_record("""<INIT seed="0,0,0,2,3,108" ten="350,350,350,0" oya="0"
 hai0="0,1,2,36,37,38,40,41,42,44,45,46,72" hai1="73,74,76,77,78,80,81,82,84,85,86,88,89"
 hai2="90,92,93,94,96,97,98,100,101,102,104,105,106" hai3=""/>
<T48/><D48/><U49/><E49/><V50/><F50/>
<RYUUKYOKU ba="0,0" sc="350,0,350,0,350,0,0,0" owari="350,0.0,350,0.0,350,0.0,0,0.0"/>""")
REAL_SANMA = Path(__file__).resolve().parent / "data" / "riichi" / "tenhou-sanma"


def test_replay_plays_three_player_records_and_reports_differences_without_a_traceback(
    tmp_path: Path,
) -> None:
    # Was an IndexError traceback (the deal rebuilt for four seats), then a refusal by name.
    runner = CliRunner()
    real = runner.invoke(app, ["replay", "riichi", "-q", *map(str, sorted(REAL_SANMA.glob("*.mjlog")))])
    assert real.exit_code == 0, real.output
    assert "11 hands in 1 games: 11 equal to the record, 0 differ" in real.output
    path = tmp_path / "sanma.mjlog"
    path.write_text(SANMA_MJLOG)
    cut = runner.invoke(app, ["replay", "riichi", str(path)])
    assert cut.exit_code == 1, cut.output
    assert cut.exception is None or isinstance(cut.exception, SystemExit)
    assert "E1-0" in cut.output and "DIFF" in cut.output and "seat 0 is to act after 3 discards" in cut.output


def _kan_counts(knobs: dict, rules: dict | None = None) -> dict[str, int]:
    out = _riichi({"event_log_every": 1, **(rules or {})}, [knobs] * 4, seed=1, count=100)
    ev, hands = out["events"], out["hands"]
    names = {6: "daiminkan", 7: "ankan", 8: "kakan"}
    counts = {name: int((ev["kind"] == k).sum()) for k, name in names.items()}
    return {**counts, "nagashi": int((hands["outcome"] == 3).sum())}


def test_native_strategies_declare_kans_by_the_kan_knob_and_chase_nagashi() -> None:
    never, safe, always = (_kan_counts({"kan": v}) for v in ("never", "safe", "always"))
    assert never == {"daiminkan": 0, "ankan": 0, "kakan": 0, "nagashi": never["nagashi"]}
    # The efficiency default (safe) declares closed kans but never opens a closed hand by a kan.
    assert safe["ankan"] > 0 and safe["daiminkan"] == 0
    assert always["daiminkan"] > 0 and always["ankan"] > safe["ankan"]
    caller = _kan_counts({"calls": "any"})
    assert caller["kakan"] > 0 and caller["daiminkan"] > 0
    chase = _kan_counts({"nagashi": True})
    assert chase["nagashi"] > 0 and chase["nagashi"] > safe["nagashi"]
    assert _kan_counts({"nagashi": True}, {"nagashi_mangan": "off"})["nagashi"] == 0


def test_bonus_pusher_plays_differently_when_the_dealer_bonus_changes() -> None:
    pusher = engine.resolve_knobs("suzume", {"fold": True, "ready_streak": 3, "dealer_push_bonus": 2})
    defensive = engine.resolve_knobs("suzume", {"fold": True, "ready_streak": 3})

    def hands(bonus: int, lineup: list[dict]) -> pl.DataFrame:
        rules = engine.resolve_rules("suzume", "default", {"dealer_bonus": bonus, "laps": 1})
        out = engine.play_batch("suzume", rules, lineup, seed=5, first_game=0, count=80)
        return out["hands"].select("game", "hand", "claim", "claims", "winner", "outcome")

    # Without the bonus knob, the bonus only rescales payments: the same hands are played.
    assert hands(0, [defensive] * 3).equals(hands(2, [defensive] * 3))
    assert not hands(0, [pusher, defensive, defensive]).equals(hands(2, [pusher, defensive, defensive]))
