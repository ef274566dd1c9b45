"""Competence under the rules, for every game: does a strategy play to win legally under the rules
it plays?

A game's competence module (``simharness.games.<game>.competence``) names the rule sets that change
what a good player aims for and plays each strategy in every seat under each; this module holds what
the games share: the row, its intervals, the table loop and the Markdown of the docs' tables.
A row's ready hands are the hands where the strategy's seat was ready (tenpai) at some point; those
that "cannot win legally" had no wait that wins under the rules (no yaku, under the minimum value);
``avoidable`` counts those where another discard of that turn kept a legal ready hand: the target of
a rule-aware strategy is none. Intervals are Wilson 95% intervals over hands (hands of a game are
taken as independent; Clopper-Pearson when none is counted, where Wilson's would be too narrow).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from simharness import _engine, engine, strategies
from simharness.stats.intervals import Interval, clopper_pearson_ci, proportion_ci

# name → (preset, overrides): one rule set of a game's table.
RuleSets = Mapping[str, tuple[str, dict[str, Any]]]


def share(k: int, n: int) -> Interval:
    """The 95% interval of the share ``k / n``."""
    return clopper_pearson_ci(k, n) if k == 0 else proportion_ci(k, n)


@dataclass(frozen=True)
class Row:
    """One strategy, in every seat, under one rule set."""

    rules: str
    strategy: str
    hands: int
    win_rate: float
    draw_rate: Interval
    mean_value: float
    ready_hands: int
    cannot_win: Interval
    avoidable: Interval
    avoidable_hands: int


@dataclass(frozen=True)
class Counts:
    """What a game's tables say of one row's wins: how many (one per winner) and their mean value
    (in the game's value unit)."""

    wins: int
    mean_value: float


def audit(
    game: str, rules: dict[str, Any], lineup: list[dict[str, Any]], *, seed: int, first_game: int, count: int
) -> list[dict[str, int]]:
    """Per lineup slot, its ready hands and how many could not win legally (the engine's
    ``competence_audit``, games played as ``play_batch`` plays them)."""
    args = (json.dumps(rules), json.dumps(lineup), seed, first_game, count)
    return list(_engine.competence_audit(game, *args))


def row(
    game: str,
    seats: int,
    counts: Callable[[dict[str, Any], dict[str, pl.DataFrame]], Counts],
    label: str,
    rules: dict[str, Any],
    name: str,
    games: int,
    seed: int,
) -> Row:
    """The built-in strategy ``name`` in all ``seats`` seats of ``games`` games of ``game`` under
    the resolved ``rules``, with the game's ``counts`` of its tables."""
    lineup = [knobs(game, name)] * seats
    tables = engine.play_batch(game, rules, lineup, seed=seed, first_game=0, count=games)
    c = counts(rules, tables)
    hands = tables["hands"]
    if "claim" in hands.columns:  # a multiple win makes one row per winner: a hand is its first row
        hands = hands.filter(pl.col("claim") == 0)
    draws = int((hands["outcome"] == engine.codes(game, "hands", "outcome")["exhaustive_draw"]).sum())
    tally = audit(game, rules, lineup, seed=seed, first_game=0, count=games)
    total = {k: sum(t[k] for t in tally) for k in tally[0]}
    ready = total["ready_hands"]
    return Row(
        rules=label,
        strategy=name,
        hands=hands.height,
        win_rate=c.wins / (len(lineup) * hands.height),
        draw_rate=share(draws, hands.height),
        mean_value=c.mean_value,
        ready_hands=ready,
        cannot_win=share(total["yakuless_hands"], ready),
        avoidable=share(total["avoidable_hands"], ready),
        avoidable_hands=total["avoidable_hands"],
    )


def knobs(game: str, name: str) -> dict[str, Any]:
    """The complete knob set of the built-in script ``strategies/<game>/<name>.toml``."""
    return strategies.load(strategies.BUILTIN / "strategies" / game / f"{name}.toml").resolved_knobs()


def table(
    row: Callable[[str, str, dict[str, Any], str, int, int], Row],
    rules: RuleSets,
    names: Sequence[str],
    games: int,
    seed: int,
) -> list[Row]:
    """Every rule set of ``rules`` × every strategy of ``names``, each row by the game's ``row``."""
    return [
        row(label, preset, overrides, name, games, seed)
        for label, (preset, overrides) in rules.items()
        for name in names
    ]


def markdown(rows: list[Row], value_unit: str = "points") -> str:
    """The table as Markdown (a game's competence table in the docs)."""

    def pct(iv: Interval) -> str:
        return f"{iv.estimate:.2%} [{iv.lo:.2%}, {iv.hi:.2%}]"

    lines = [
        f"| rules | strategy | win rate | draw rate | mean value ({value_unit}) | ready hands "
        "| cannot win legally | avoidable |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.rules} | {r.strategy} | {r.win_rate:.1%} | {pct(r.draw_rate)} "
            f"| {r.mean_value:,.1f} | {r.ready_hands:,} | {pct(r.cannot_win)} "
            f"| {r.avoidable_hands} ({pct(r.avoidable)}) |"
        )
    return "\n".join(lines)


__all__ = ["Counts", "Row", "RuleSets", "audit", "knobs", "markdown", "row", "share", "table"]
