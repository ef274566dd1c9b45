"""Sequential stopping per variant of a sweep (``[sweep.until]``, ``simharness sweep --until``).

Each variant ``<option>-<value>`` is tested against ``base`` on one sweep metric of one strategy
(``win[<strategy>]``: its share of first places; ``final_points[<strategy>]``: its mean final
points; ``rank_points[<strategy>]``: its mean rank points, scored with the config's
``rank_points``), on the per-deal paired differences variant − base as the sweep's effects are
computed (``report/sweep.py``): the strategy's mean over its rows of a deal in the variant minus
the same in the base, on the deals both played. Keyed chance makes deal k of a variant deal k of the
base whatever the other variants do, so a variant's looks depend only on its own games and the base's.

The test is the three-outcome test of ``[until]`` (``stats.sequential.ThreeOutcome``, Sobel and
Wald's pair of one-sided generalised SPRTs): ``up`` tests δ = 0 against δ = +mu1, ``down`` δ = 0
against δ = −mu1. A side that decides keeps its decision. The variant has an effect when either side
accepts its H1 (the sign tells which), no effect at the alternative when both accepted H0; either
way it gets no more shards. The error rate over the sweep is split by Bonferroni: with m variants
tested, each side runs at α/(2m), so P(any variant declared to have an effect | no variant has
one) ≤ m · 2 · α/(2m) = α, whatever the dependence between the tests (they share the base's
games). Holm's step-down would raise a variant's level when others decide, making its bounds depend
on the other variants; keeping them fixed makes each variant's decision a function of its own data.
β is per variant (the power of each test at |δ| = mu1), not split.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import numpy as np
import polars as pl

from simharness.stats.looks import CONTINUE, SweepRecord
from simharness.stats.paired import METRIC_EXPRS, per_deal
from simharness.stats.sequential import ThreeOutcome
from simharness.sweep import BASE

# The sweep metrics a variant can be stopped on: a strategy's per-row outcome (names as in the sweep).
MEASURES = ("win", "final_points", "rank_points")
_METRIC = re.compile(r"^(\w+)\[(.+)\]$")


def parse_metric(text: str, strategies: list[str]) -> tuple[str, str]:
    """``win[greedy]`` → ("win", "greedy"); ValueError saying what was expected."""
    m = _METRIC.match(text.strip())
    want = f"expected {' or '.join(f'{k}[<strategy>]' for k in MEASURES)} with a strategy of the lineup"
    if m is None or m.group(1) not in MEASURES:
        raise ValueError(f'{want} ({", ".join(strategies)}), got "{text}"')
    if m.group(2) not in strategies:
        raise ValueError(f'{want}: {", ".join(strategies)}; got "{m.group(2)}"')
    return m.group(1), m.group(2)


def variant_scores(base: pl.DataFrame, variant: pl.DataFrame, strategy: str, measure: str) -> np.ndarray:
    """Per deal both played (in deal order): the strategy's mean ``measure`` in the variant minus in
    the base. Each frame is one variant's players rows (with ``rank_points`` for that measure); the
    first-place share is computed per game within its own variant (games are numbered per variant)."""

    def per(rows: pl.DataFrame) -> pl.DataFrame:
        y = rows.with_columns(METRIC_EXPRS[measure].alias("y")).filter(pl.col("strategy") == strategy)
        return per_deal(y, "y")

    joined = per(variant).join(per(base), on="deal", suffix="_base").sort("deal")
    return (joined["y"] - joined["y_base"]).to_numpy()


class Looks:
    """The sequential test of every variant of a sweep, look by look.

    ``read(variant, games)`` returns a variant's players rows of the games below ``games``.
    ``record`` is the manifest's ``sweep_sequential`` (:class:`~simharness.stats.looks.SweepRecord`):
    the test's settings, the bounds of each side, and per variant its looks, decision and games
    played (base: as many as the longest).
    """

    def __init__(
        self, until: Mapping[str, Any], variants: list[str], read: Callable[[str, int], pl.DataFrame]
    ) -> None:
        self.base = BASE
        tested = [v for v in variants if v != BASE]
        self.until = until
        self.read = read
        self.test = ThreeOutcome.of(
            float(until["mu1"]), float(until["alpha"]), float(until["beta"]), len(tested)
        )
        self.record = SweepRecord.start(until, tested, self.test.up.alpha, self.test.up.bounds)

    @property
    def active(self) -> set[str]:
        """The variants still playing: the base while any other is, and every undecided variant."""
        live = {v for v, r in self.record.variants.items() if r.decision == CONTINUE}
        return live | {self.base} if live else set()

    def after(self, games: int) -> bool:
        """Takes the look after ``games`` games per variant; True when every variant has decided."""
        live = sorted(self.active - {self.base})
        base = self.read(self.base, games)
        states = dict(self.record.variants)
        for v in live:
            d = variant_scores(base, self.read(v, games), self.until["strategy"], self.until["measure"])
            states[v] = self.test.look(d, states[v], games)
        self.record = replace(self.record, games=games, variants=states)
        return not self.active
