"""The metagame of a rule set from real runs (#29): `simharness meta` and a config's `[meta]` play every
profile seat-rotated on the same keyed deals; a strategy dominant by construction is flagged; the
payoff table of `meta` is the table of the same profiles written by hand as lineup variants (one code
path for profile play); the table and the answer do not depend on the workers."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from rich.console import Console
from typer.testing import CliRunner

from simharness import store
from simharness.cli import app
from simharness.report import meta
from simharness.report.meta_html import meta_page
from simharness.stats import metagame as mg
from tests.harness_helpers import in_repo, play

__all__ = ["in_repo"]

# Suzume-jong, 4 seats: `fastest` against `random`, which discards at random, wins nearly every hand
# it can; `defensive` sits between them.
STRATEGIES = ["fastest", "defensive", "random"]


def _meta(tmp_path: Path, *args: str) -> dict:
    result = CliRunner().invoke(
        app,
        ["meta", "suzume", "--seats", "4", "--out", str(tmp_path), "--quiet", "--json", *args],
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_strategy_dominant_by_construction_is_flagged_under_every_rule_variant(tmp_path: Path) -> None:
    # `random` discards a random tile: against it `fastest` is a strict best response to any seating.
    study = tmp_path / "rules.toml"
    study.write_text("[variants.base]\n[variants.no-dora]\ndora = false\n")
    out = _meta(
        tmp_path,
        "--strategies",
        "fastest,random",
        "--games-per-profile",
        "80",
        "--metric",
        "first_place",
        "--variants",
        str(study),
    )
    assert list(out["rules"]) == ["base", "no-dora"]
    assert out["rule_labels"]["no-dora"] == "dora=false"
    for rule, a in out["rules"].items():
        assert a["dominant"] == {"strategy": "fastest", "share": 1.0}, rule
        assert a["equilibria"][a["headline"]]["support"] == ["fastest"]
        assert a["alpharank"]["mass"]["fastest"]["estimate"] > 0.99
        # Restricted play: one random player among three fastest wins less than its fair quarter.
        (row,) = a["restricted"]["rows"]
        assert a["restricted"]["best"] == "fastest" and row["strategy"] == "random"
        assert row["payoff"]["estimate"] < 0.25 and row["loss"]["lo"] > 0
    assert out["answer"][0].startswith("under base: fastest dominant")
    assert out["comparisons"][0]["summary"].startswith("no change detected")
    # The run is an ordinary run directory: every profile a variant, each seat-rotated on one deal.
    run = store.open_run(tmp_path / "meta-suzume-rules")
    assert len(run.variants) == 2 * 5 and run.manifest.duplicate is True
    players = run.table("players").filter(pl.col("variant") == "no-dora.fastest+random+random+random")
    seats = players.filter(pl.col("strategy") == "fastest").group_by("deal").agg(pl.col("seat").sort())
    assert all(s.to_list() == [0, 1, 2, 3] for s in seats["seat"])


def test_the_payoff_table_of_meta_is_the_table_of_the_same_lineup_variants_written_by_hand(
    tmp_path: Path,
) -> None:
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
    head = 'game = "suzume"\ngames = 40\nshard_size = 40\n'
    body = head + '[meta]\nstrategies = ["fastest", "defensive", "random"]\nseats = 4\n'
    by_meta = store.open_run(play(tmp_path / "a", "m", body))
    # The same profiles by hand: one lineup variant each, in another order and under other names.
    lineups = [
        [s for s, c in zip(STRATEGIES, counts, strict=True) for _ in range(c)]
        for counts in reversed(mg.profiles(3, 4))
    ]
    variants = "".join(f"[variants.p{i}]\nplayers = {json.dumps(lu)}\n" for i, lu in enumerate(lineups))
    by_hand = store.open_run(
        play(
            tmp_path / "b",
            "h",
            f"{head}duplicate = true\nplayers = {json.dumps(lineups[0])}\n{variants}",
        )
    )
    designs = [meta.design_of(by_meta.manifest), meta.design_of(by_hand.manifest, STRATEGIES)]
    assert designs[0].strategies == designs[1].strategies == tuple(STRATEGIES)
    for metric in meta.COLUMNS:
        tables = [
            meta.read_payoffs(r, d, metric, resamples=20)["base"]
            for r, d in zip((by_meta, by_hand), designs, strict=True)
        ]
        a, b = tables
        assert np.array_equal(a.table.payoffs, b.table.payoffs, equal_nan=True), metric
        assert np.array_equal(a.replicates, b.replicates, equal_nan=True), metric
        assert a.deals == b.deals == 10
    # A run that misses a profile is refused, naming it.
    with pytest.raises(Exception, match="missing fastest\\+fastest\\+fastest\\+fastest"):
        meta.design_of(
            replace(
                by_hand.manifest,
                variants={k: v for k, v in by_hand.manifest.variants.items() if k != "p14"},
            )
        )


def test_the_metagame_does_not_depend_on_the_workers(tmp_path: Path) -> None:
    results = []
    for jobs in ("1", "2"):
        out = _meta(tmp_path / jobs, "--strategies", ",".join(STRATEGIES), "-n", "40", "--jobs", jobs)
        out.pop("run")
        results.append(out)
    assert results[0] == results[1]


def test_a_meta_config_runs_prints_the_answer_first_and_draws_its_page_and_report_reads_it_so(
    tmp_path: Path,
) -> None:
    cfg = tmp_path / "m.toml"
    cfg.write_text(
        'name = "m"\ngame = "trump"\ngames = 30\nseed = 2\n'
        '[meta]\nstrategies = ["always-riichi", "dama", "random"]\nmetric = "final_points"\nresamples = 50\n'
    )
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path), "--quiet", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(app, ["run", str(cfg), "--out", str(tmp_path), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("under base: ")
    assert "heuristic payoff table (final points" in result.stdout
    built = meta.build(store.open_run(tmp_path / "m"), "final_points", resamples=50)
    assert built["profiles"] == 10 and built["rules"]["base"]["resamples"] == 50
    page = meta_page(built)
    assert page.count("<figure") == 3 and "α-Rank response graph" in page
    console = Console(record=True, width=100)
    meta.print_meta(built, console)
    assert console.export_text().startswith("under base: ")
    # `report` on the run reads it as its config said (final points, 50 resamples): the metagame
    # first, then every profile's numbers; its JSON and its page carry the same metagame.
    result = CliRunner().invoke(app, ["report", str(tmp_path / "m")])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("under base: ")
    assert result.stdout.index("heuristic payoff table") < result.stdout.index("every profile's numbers")
    assert "always-riichi+dama+random" in result.stdout.split("every profile's numbers")[1]
    result = CliRunner().invoke(
        app, ["report", str(tmp_path / "m"), "--json", "--html", str(tmp_path / "r.html")]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["metagame"] == json.loads(json.dumps(meta.public(built)))
    assert "always-riichi+dama+random" in data["variants"]
    assert (tmp_path / "r.html").read_text(encoding="utf-8") == page


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ('players = ["fastest", "fastest", "fastest", "fastest"]\n', "players"),
        ("duplicate = false\n", "duplicate"),
    ],
)
def test_a_meta_config_refuses_what_it_makes_itself(tmp_path: Path, extra: str, field: str) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text(
        f'name = "bad"\ngame = "suzume"\ngames = 40\nseed = 0\n{extra}'
        '[meta]\nstrategies = ["fastest", "random"]\nseats = 4\n'
    )
    result = CliRunner().invoke(app, ["validate", str(cfg)])
    assert result.exit_code == 2
    assert f"{field}: [meta]" in result.output.replace("\n", " ")
