"""One vocabulary: every metric has one name, one unit and one definition, in every game and on
every page; the glossary of docs/statistics.md is the one the report uses."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from harness_helpers import play

from simharness import engine, store, vocabulary
from simharness.games import registry
from simharness.report.glance import label

GAMES = [g.name for g in engine.games()]
DOC = Path(__file__).resolve().parent.parent / "docs" / "statistics.md"


def _every_term() -> list[tuple[str, vocabulary.Term]]:
    """(game, term) for the harness's terms (game "") and each game's own."""
    return [("", t) for t in vocabulary.HARNESS] + [(g, t) for g in GAMES for t in registry.metric_terms(g)]


def test_no_name_stands_for_two_metrics_nor_a_metric_for_two_names() -> None:
    """Across the harness and every game: a name (with its unit, as tables show it) is one metric's,
    a metric has one name and one unit, and within one game one definition (a game may say how its
    own rules count a shared metric, e.g. what its exhaustive draw is)."""
    keys_of_label: dict[str, set[str]] = defaultdict(set)
    keys_of_name: dict[str, set[str]] = defaultdict(set)
    looks: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for _game, t in _every_term():
        keys_of_label[t.label].add(t.key)
        keys_of_name[t.name].add(t.key)
        looks[t.key].add((t.name, t.unit))
    assert {n: k for n, k in keys_of_label.items() if len(k) > 1} == {}
    assert {n: k for n, k in keys_of_name.items() if len(k) > 1} == {}
    assert {k: v for k, v in looks.items() if len(v) > 1} == {}
    harness = {t.key for t in vocabulary.HARNESS}
    assert len(harness) == len(vocabulary.HARNESS)
    for game in GAMES:
        own = [t.key for t in registry.metric_terms(game)]
        assert len(own) == len(set(own)), game  # one definition per metric within the game
        assert not set(own) & harness, f"{game} redefines a metric of every game"


# The unit each metric's identifier promises (registry: a `_rate` or `_share` is a proportion), and
# the units that the issue found wrong, one by one.
SUFFIXES = {"_rate": True, "_share": True, "_per_hand": False}
UNITS = {
    ("hongkong", "claims_per_hand"): "count per hand",  # was "claim rate 109.7%"
    ("hongkong", "refused_per_hand"): "count per hand",
    ("hongkong", "bonus_fan_share"): "% of the winner's fan",
    ("hongkong", "fan_3"): "% of wins",  # was a fraction
    ("trump", "riichi_success"): "% of riichi declarations",  # was a fraction
    ("trump", "jokers_per_hand"): "count per hand",
    ("trump", "mean_win_points"): "points per win",  # was "mean points", as the final points
    ("riichi", "busted_rate"): "% of games",  # was "bust rate", as the scorecard's other bust rate
    ("riichi", "draw_rate"): "% of hands",  # the exhaustive draws; the scorecard's draw is a tie
    ("", "tied_first_rate"): "% of games",
    ("", "bust_rate"): "% of games",
    ("", "final_points"): "points",
    ("", "lead_changes_per_hand"): "count per hand",
    ("", "winner_led_fraction"): "% of hands",
    ("sugoroku", "offsets"): "count per game",
}


def test_every_unit_is_known_and_is_the_one_its_name_promises() -> None:
    for game, t in _every_term():
        assert t.unit in vocabulary.UNITS, (game, t)
        for suffix, share in SUFFIXES.items():
            if t.key.endswith(suffix):
                assert t.percent is share, (game, t)
        assert t.percent == t.unit.startswith(("%", "percentage")), (game, t)
        # A count is labelled as one: per hand or game, never "rate" in its name.
        if t.unit.startswith("count"):
            assert "rate" not in t.name and not t.key.endswith("_rate"), (game, t)
    for (game, key), unit in UNITS.items():
        assert vocabulary.terms(game)[key].unit == unit, (game, key)
        assert label(game, key).endswith(f"({unit})") or label(game, key).endswith(unit)


def test_the_docs_glossary_is_the_reports() -> None:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- glossary:start -->\n(.*?)<!-- glossary:end -->", text, re.S)
    assert found is not None, "docs/statistics.md has no glossary section"
    assert found.group(1) == vocabulary.glossary_markdown(), "run: python -m simharness.vocabulary"


TINY = {
    "sugoroku": 'game = "sugoroku"\ngames = 8\nplayers = ["naive", "greedy", "naive", "random"]\n',
    "suzume": 'game = "suzume"\ngames = 4\nplayers = ["fastest", "max-points", "defensive", "tsumo-only"]\n',
    "hongkong": (
        'game = "hongkong"\ngames = 2\nplayers = ["chicken-fast", "min-fan", "pung-hunter", "defensive"]\n'
    ),
    "riichi": (
        'game = "riichi"\ngames = 4\nduplicate = true\n'
        'players = ["efficiency", "call-happy", "fold-on-riichi", "yakuhai-caller"]\n'
    ),
    "trump": (
        'game = "trump"\ngames = 3\nplayers = ["always-riichi", "dama", "fold-on-riichi"]\n'
        "[rules]\nmistake_rate = 0.05\n"
    ),
}


@pytest.mark.parametrize("game", sorted(TINY))
def test_every_metric_a_game_reports_is_in_the_vocabulary(game: str, tmp_path: Path) -> None:
    """What a run of each game reports (its own metrics and the scorecard's) is named by the
    vocabulary, so no number reaches a page unnamed or in an unknown unit."""
    from simharness.report.full import build_report

    run = store.open_run(play(tmp_path, "tiny", TINY[game]))
    report = build_report(run)
    reported = {r["metric"] for r in report["game_metrics"]}
    reported |= {m["name"] for m in report["scorecard"]["metrics"]}
    assert reported - set(vocabulary.terms(game)) == set()
    # The JSON names each with its unit, as the pages do.
    assert set(report["glossary"]) >= reported
    for key in reported:
        t = vocabulary.terms(game)[key]
        assert report["glossary"][key] == {"name": t.name, "unit": t.unit, "definition": t.definition}
