"""The sugoroku engine through `simharness.engine`: catalogue, strict options, tables."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
import tomllib

from simharness import engine

STRATEGIES = Path(__file__).resolve().parents[1] / "strategies" / "sugoroku"

SPEC_OPTIONS = {  # §13 of rules/sugoroku.md, minus `layout` (no effect) and `players` (the lineup)
    "dora_count",
    "dora_mode",
    "payout_cap",
    "progressive_over_cap",
    "cap_scope",
    "rest_rule",
    "opening_pochi",
    "red_5m",
    "red_5p",
    "red_5s",
    "gold_5p",
    "gold_5s",
    "pochi_count",
    "blue_5p",
    "winner_bonus",
    "lap_penalty",
    "distance_rate",
    "rest_cap_base",
    "max_turns",
    "rate",
    "pinzoro_reroll",
    "sixzoro_reroll",
}


def test_catalogue_lists_every_spec_option_with_docs() -> None:
    specs = {s.name: s for s in engine.rule_options("sugoroku")}
    assert specs.keys() >= SPEC_OPTIONS
    assert "layout" not in specs
    assert specs["dora_count"].default == 20 and (specs["dora_count"].min, specs["dora_count"].max) == (0, 40)
    assert specs["payout_cap"].default == 500
    assert specs["dora_mode"].choices == ("self", "next")
    assert all(s.doc for s in specs.values())
    knobs = {k.name for k in engine.knob_options("sugoroku")}
    assert {"pinzoro_reroll", "sixzoro_reroll", "offset", "agree_end"} <= knobs
    assert {p.name for p in engine.presets("sugoroku")} >= {"addendum", "no-cap"}
    assert engine.resolve_rules("sugoroku", "addendum")["rest_rule"] == "penalty4"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"dora_cout": 3}, "dora_cout"),
        ({"dora_count": 41}, "dora_count"),
        ({"payout_cap": "lots"}, "payout_cap"),
        ({"rest_rule": "max5"}, "rest_rule"),
        ({"payout_cap": "none", "progressive_over_cap": True}, "progressive_over_cap+payout_cap"),
    ],
)
def test_bad_rules_name_the_field(overrides: dict[str, object], field: str) -> None:
    with pytest.raises(engine.OptionError) as e:
        engine.resolve_rules("sugoroku", "default", overrides)
    assert e.value.field == field


def test_bad_knob_and_lineup_are_option_errors() -> None:
    with pytest.raises(engine.OptionError) as e:
        engine.play_batch("sugoroku", {}, [{"offset": "sometimes"}] * 4, seed=1, first_game=0, count=1)
    assert e.value.field == "offset"
    with pytest.raises(engine.OptionError) as e:
        engine.play_batch("sugoroku", {}, [{}] * 6, seed=1, first_game=0, count=1)
    assert e.value.field == "players"


def test_batch_returns_documented_zero_sum_tables() -> None:
    tables = engine.play_batch(
        "sugoroku",
        {"rest_rule": "penalty4"},
        [{}, {"offset": "always"}, {"agree_end": "always"}],
        seed=5,
        first_game=10,
        count=300,
    )
    schema = {t.name: [c.name for c in t.columns] for t in engine.schema("sugoroku")}
    for name in ("games", "players"):
        assert tables[name].columns == schema[name]
    games, players = tables["games"], tables["players"]
    assert games.columns[:3] == ["game", "deal", "rotation"]
    assert players.columns[:6] == ["game", "deal", "seat", "player", "final_points", "rank"]
    assert games["game"].to_list() == list(range(10, 310))
    assert players.height == 3 * 300
    sums = players.group_by("game").agg(pl.col("final_points").sum())
    assert (sums["final_points"] == 0).all()
    winners = games.filter(pl.col("early_end") == 0)
    assert (winners["winner"] >= 0).all()


def test_strategy_scripts_resolve_to_valid_knobs() -> None:
    scripts = {p.stem: tomllib.loads(p.read_text()) for p in STRATEGIES.glob("*.toml")}
    assert scripts.keys() >= {"naive", "always-offset", "no-back-roll", "greedy", "agreeable", "random"}
    for stem, script in scripts.items():
        assert (script["name"], script["game"], script["version"]) == (stem, "sugoroku", 1)
        assert script["description"]
        if "python" in script:  # a Python-protocol script decides in Python; its knobs may be omitted
            assert script["python"].startswith("simharness.games.sugoroku.python:")
        knobs = engine.resolve_knobs("sugoroku", script.get("knobs", {}))
        assert {k: knobs[k] for k in script.get("knobs", {})} == script.get("knobs", {})
    assert engine.resolve_knobs("sugoroku", {}) == engine.resolve_knobs("sugoroku", scripts["naive"]["knobs"])
