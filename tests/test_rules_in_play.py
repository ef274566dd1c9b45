"""Rule-in-play counters and the dealer's advantage per hand: each game says which rule options it
counts (``RULE_COUNTERS``, shown by ``simharness rules``), and each counter equals the same count
made again here from the logged tables, row by row in plain Python (not the packages' polars)."""

from __future__ import annotations

import itertools
import json
import math
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness_helpers import play
from typer.testing import CliRunner

from simharness import _engine, engine, store, vocabulary
from simharness.cli import app
from simharness.games import registry
from simharness.games.hongkong.metrics import FAN_ITEMS, LIMIT_HANDS
from simharness.games.riichi.scoring import yaku_names

GAMES = [g.name for g in engine.games()]


@pytest.mark.parametrize("game", GAMES)
def test_each_counter_names_a_real_option_and_a_known_metric(game: str) -> None:
    options = {s.name for s in engine.rule_options(game)}
    counters = registry.rule_counters(game)
    assert counters, f"{game} counts no rule in play"
    terms = vocabulary.terms(game)
    for option, keys in counters.items():
        assert option in options, (game, option)
        assert keys and all(k in terms for k in keys), (game, option, keys)
    for title, bins in registry.distributions(game).items():
        assert len(bins) > 2 and all(terms[b].unit == "% of wins" for b in bins), (game, title)


def test_rules_says_which_options_have_a_counter() -> None:
    result = CliRunner().invoke(app, ["rules", "riichi"])
    assert result.exit_code == 0
    block = result.output.split("\nkuitan ")[1].split("\natozuke ")[0]
    assert "in play: open tanyao (% of wins) [open_tanyao_share]" in block
    options = json.loads(CliRunner().invoke(app, ["rules", "riichi", "--json"]).output)["options"]
    in_play = {o["name"]: o["in_play"] for o in options}
    assert in_play["kuitan"] == ["open_tanyao_share"] and in_play["min_han"] == []


def _bit(mask: int, i: int) -> bool:
    return (mask >> i) & 1 == 1


def _dealer(hands: list[dict[str, Any]], won: Callable[[dict[str, Any]], bool]) -> dict[str, float]:
    """The dealer's win rate, mean result and keep rate from hand rows (several rows per hand add up)."""
    by_hand: dict[tuple[int, int], dict[str, Any]] = {}
    for h in hands:
        k = (h["game"], h["hand"])
        agg = by_hand.setdefault(k, {"dealer": h["dealer"], "won": False, "result": 0})
        agg["won"] = agg["won"] or won(h)
        agg["result"] += h[f"delta_{h['dealer']}"]
    keys = sorted(by_hand)
    kept = [by_hand[k]["dealer"] == by_hand[n]["dealer"] for k, n in itertools.pairwise(keys) if k[0] == n[0]]
    return {
        "dealer_win_rate": sum(a["won"] for a in by_hand.values()) / len(by_hand),
        "dealer_mean_result": sum(a["result"] for a in by_hand.values()) / len(by_hand),
        "dealer_keep_rate": sum(kept) / len(kept),
    }


def _share(rows: list[dict[str, Any]], flag: Callable[[dict[str, Any]], bool]) -> float:
    """The share of ``rows`` that ``flag`` holds for; NaN without rows (nothing to count over)."""
    return sum(1 for r in rows if flag(r)) / len(rows) if rows else math.nan


def _riichi(t: dict[str, list[dict[str, Any]]]) -> dict[str, float]:
    names = yaku_names()
    seats = 4

    def first(h: dict[str, Any]) -> int:
        d, w = h["discarder"], h["winners"]
        order = [(d + k) % seats for k in range(1, seats)] if d >= 0 else list(range(seats))
        return next(s for s in order if _bit(w, s))

    won = [h for h in t["hands"] if h["outcome"] in (0, 1)]
    drawn = [h for h in t["hands"] if h["outcome"] == 2]
    out = _dealer(t["hands"], lambda h: _bit(h["winners"], h["dealer"]))
    out["open_tanyao_share"] = _share(
        won, lambda h: _bit(h["yaku"], names.index("tanyao")) and _bit(h["open"], first(h))
    )
    out["ippatsu_share"] = _share(won, lambda h: _bit(h["yaku"], names.index("ippatsu")))
    out["multi_ron_rate"] = _share(t["hands"], lambda h: bin(h["winners"]).count("1") >= 2)
    out["kyuushu_rate"] = _share(t["hands"], lambda h: h["outcome"] == 4)
    out["noten_declared_rate"] = _share(drawn, lambda h: h["noten_declared"] != 0)
    out["tobi_end_rate"] = _share(t["games"], lambda g: g["busted"])
    out["extension_rate"] = _share(t["games"], lambda g: g["extended"])
    out["han_3"] = _share(won, lambda h: h["han"] == 3)
    out["han_13plus"] = _share(won, lambda h: h["han"] >= 13)
    return out


def _hongkong(t: dict[str, list[dict[str, Any]]]) -> dict[str, float]:
    first = [h for h in t["hands"] if h["claim"] == 0]
    won = [h for h in t["hands"] if h["winner"] >= 0 and h["outcome"] != 4]
    plain = [h for h in won if h["limit"] < 0]
    out = _dealer(t["hands"], lambda h: h["outcome"] in (1, 2, 3) and h["winner"] == h["dealer"])
    out["refused_hand_rate"] = _share(first, lambda h: h["refused"] > 0)
    out["multi_win_rate"] = _share(first, lambda h: h["winners"] >= 2)
    out["bao_share"] = _share(won, lambda h: h["liable"] >= 0)
    out["seven_pairs_share"] = _share(won, lambda h: _bit(h["items"], FAN_ITEMS.index("seven_pairs")))
    out["flowers_win_share"] = _share(
        won,
        lambda h: (
            _bit(h["items"], FAN_ITEMS.index("seven_flowers"))
            or h["limit"] == LIMIT_HANDS.index("eight_flowers")
        ),
    )
    out["fan_3"] = _share(plain, lambda h: h["fan"] == 3)
    return out


def _suzume(t: dict[str, list[dict[str, Any]]]) -> dict[str, float]:
    won = [h for h in t["hands"] if h["claims"] > 0]
    out = _dealer(t["hands"], lambda h: h["claims"] > 0 and h["winner"] == h["dealer"])
    del out["dealer_keep_rate"]  # the dealer rotates every hand: not reported
    for key in ("red", "dora", "tanyao", "chanta"):
        out[f"{key}_share"] = _share(won, lambda h, k=key: h[k] > 0)
    out["points_5_9"] = _share(won, lambda h: 5 <= h["points"] <= 9)
    return out


def _trump(t: dict[str, list[dict[str, Any]]]) -> dict[str, float]:
    yaku = list(_engine.trump_yaku_names())
    first = [h for h in t["hands"] if h["claim"] == 0]
    won = [h for h in t["hands"] if h["outcome"] in (1, 2)]
    out = _dealer(t["hands"], lambda h: h["outcome"] in (1, 2) and h["winner"] == h["dealer"])
    out["dealer_keep_rate"] = _share(first, lambda h: h["dealer_keeps"])  # as the log says
    out["multi_ron_rate"] = _share(first, lambda h: h["claims"] >= 2)
    out["held_joker_share"] = _share(won, lambda h: h["jokers"] > 0)
    out["double_riichi_share"] = _share(won, lambda h: _bit(h["yaku"], yaku.index("double_riichi")))
    out["han_2"] = _share(won, lambda h: h["han"] == 2)
    return out


def _sugoroku(t: dict[str, list[dict[str, Any]]]) -> dict[str, float]:
    return {
        "capped_game_rate": _share(t["games"], lambda g: g["capped_payments"] > 0),
        "pinzoro_game_rate": _share(t["games"], lambda g: g["pinzoro"] > 0),
        "goal_bounce_game_rate": _share(t["games"], lambda g: g["goal_bounces"] > 0),
        "loop_game_rate": _share(t["games"], lambda g: g["loops"] > 0),
    }


# A small run of each game whose variants make the counters differ (a rule on in one, off in the
# other), and the counts made again from its tables.
CASES: dict[str, tuple[str, Callable[[dict[str, list[dict[str, Any]]]], dict[str, float]]]] = {
    "riichi": (
        'game = "riichi"\ngames = 8\nduplicate = true\n'
        'players = ["efficiency", "call-happy", "yakuhai-caller", "call-happy"]\n'
        '[rules]\npreset = "tenhou"\ngame_length = "tonpuu"\n'
        '[variants.base]\n[variants.no-kuitan]\nkuitan = false\n[variants.tobi-off]\ntobi = "off"\n',
        _riichi,
    ),
    "hongkong": (
        'game = "hongkong"\ngames = 24\nduplicate = true\n'
        'players = ["chicken-fast", "min-fan", "pung-hunter", "defensive"]\n'
        '[rules]\npreset = "default"\n[variants.base]\n'
        '[variants.old]\nmin_fan = 3\nbao = "third_set"\nmulti_win = "all"\n',
        _hongkong,
    ),
    "suzume": (
        'game = "suzume"\ngames = 16\nplayers = ["fastest", "max-points", "defensive", "tsumo-only"]\n'
        "[variants.base]\n[variants.no-red]\nred_tiles = false\n",
        _suzume,
    ),
    "trump": (
        'game = "trump"\ngames = 12\nplayers = ["always-riichi", "dama", "max-han"]\n'
        '[variants.base]\n[variants.head-bump]\nmulti_ron = "head_bump"\n',
        _trump,
    ),
    "sugoroku": (
        'game = "sugoroku"\ngames = 300\nplayers = ["naive", "greedy", "naive", "random"]\n'
        '[variants.cap]\npayout_cap = 500\n[variants.no-cap]\npayout_cap = "none"\n',
        _sugoroku,
    ),
}


@pytest.mark.parametrize("game", sorted(CASES))
def test_counters_equal_the_counts_made_again_from_the_logs(game: str, tmp_path: Path) -> None:
    body, recount = CASES[game]
    run = store.open_run(play(tmp_path, "counted", body))
    fn = registry.summary_metrics(game)
    assert fn is not None
    reported = {
        (r["variant"], r["metric"]): r["estimate"]
        for r in fn(run).iter_rows(named=True)
        if r["strategy"] == "all"
    }
    nonzero = defaultdict(bool)
    for v in run.manifest.variants:
        tables = {
            name: run.table(name).filter(variant=v).to_dicts()
            for name in ("games", "hands")
            if name != "hands" or game != "sugoroku"
        }
        for key, value in recount(tables).items():
            got = reported[(v, key)]
            assert (math.nan if got is None else got) == pytest.approx(value, abs=1e-12, nan_ok=True), (
                v,
                key,
            )
            nonzero[key] |= value > 0
    # The runs are big enough that most counters fire: the equality is not of zeros alone.
    assert 3 * sum(nonzero.values()) >= 2 * len(nonzero), dict(nonzero)
