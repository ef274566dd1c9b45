"""The records a sequential test leaves in a run's manifest, owned here: each look, a test's state,
and the ``[until]`` (manifest ``sequential``) and ``[sweep.until]`` (``sweep_sequential``) records,
with their JSON as the manifest holds it.

The test itself is :mod:`simharness.stats.sequential` (``ThreeOutcome.look`` moves a
:class:`State` by one look); the runner, :mod:`simharness.sweep_until` and the report read and
write the records only through these types. This module loads no statistics library, so that
reading a manifest does not slow the CLI's start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Any

from pydantic import Field

CONTINUE = "continue"
# The ``design`` of a three-outcome record. An ``[until]`` record without it was written by the
# one-sided SPRT of mu0 against mu1 that ``[until]`` ran before (``stats.sequential.until_result``).
THREE_OUTCOME = "three-outcome"

Count = Annotated[int, Field(ge=0)]


@dataclass(frozen=True, kw_only=True)
class Look:
    """One look: after ``games`` games per variant, ``n`` paired scores (one per deal), their
    ``mean`` (None without any), each side's LLR and the decision then. A look of the one-sided
    SPRT that ``[until]`` ran before the three-outcome test has one ``llr`` and its bounds instead."""

    games: Count
    n: Count
    mean: float | None
    decision: str
    llr_up: float | None = None
    llr_down: float | None = None
    llr: float | None = None
    lower: float | None = None
    upper: float | None = None

    def to_json(self) -> dict[str, Any]:
        if self.llr is not None:
            one_sided = {"llr": self.llr, "lower": self.lower, "upper": self.upper}
            return {
                "games": self.games,
                "decision": self.decision,
                **one_sided,
                "n": self.n,
                "mean": self.mean,
            }
        sides = {"llr_up": self.llr_up, "llr_down": self.llr_down}
        return {"games": self.games, "n": self.n, "mean": self.mean, **sides, "decision": self.decision}


@dataclass(frozen=True, kw_only=True)
class State:
    """A three-outcome test's state: its verdict (``decision``), the games per variant it looked at
    last, each side's decision (``continue``, ``H0``, ``H1``: frozen once made) and its looks."""

    decision: str = CONTINUE
    games: Count = 0
    up: str = CONTINUE
    down: str = CONTINUE
    looks: tuple[Look, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "decision": self.decision,
            "games": self.games,
            "up": self.up,
            "down": self.down,
            "looks": [k.to_json() for k in self.looks],
        }


@dataclass(frozen=True, kw_only=True)
class UntilRecord:
    """``[until]``'s record: its settings (A − B in ``metric`` within ``variant``, ±``mu1``, α, β, a
    look every ``look_every`` games), the design with its α per side and LLR bounds, and the state.

    A record of the one-sided SPRT from before (``design`` None) has no ``up``/``down`` and its
    looks are one-sided (:class:`Look`)."""

    test: str = "sprt"
    a: str
    b: str
    metric: str
    variant: str
    mu0: float = 0.0
    mu1: float
    alpha: float
    beta: float
    look_every: int | None = None
    design: str | None = None
    alpha_per_side: float | None = None
    bounds: tuple[float, float] | None = None
    decision: str = CONTINUE
    games: Count = 0
    up: str | None = None
    down: str | None = None
    looks: tuple[Look, ...] = ()

    @classmethod
    def start(
        cls, until: Mapping[str, Any], alpha_per_side: float, bounds: tuple[float, float]
    ) -> UntilRecord:
        """The record of a three-outcome test of the resolved ``[until]`` (``config.Experiment.until``)
        before its first look."""
        fresh = State()
        return cls(
            **until,
            design=THREE_OUTCOME,
            alpha_per_side=alpha_per_side,
            bounds=bounds,
            decision=fresh.decision,
            up=fresh.up,
            down=fresh.down,
        )

    @property
    def state(self) -> State:
        """The test's state (of a three-outcome record)."""
        assert self.up is not None and self.down is not None, "a one-sided record moves no more"
        return State(decision=self.decision, games=self.games, up=self.up, down=self.down, looks=self.looks)

    def moved(self, state: State) -> UntilRecord:
        """The record with the state after a look."""
        return replace(
            self,
            decision=state.decision,
            games=state.games,
            up=state.up,
            down=state.down,
            looks=state.looks,
        )

    @property
    def comparison(self) -> tuple[str, str, str, str]:
        """What the test compared: (a, b, metric, variant)."""
        return self.a, self.b, self.metric, self.variant

    def to_json(self) -> dict[str, Any]:
        settings = {
            "test": self.test,
            "a": self.a,
            "b": self.b,
            "metric": self.metric,
            "variant": self.variant,
            "mu0": self.mu0,
            "mu1": self.mu1,
            "alpha": self.alpha,
            "beta": self.beta,
            "look_every": self.look_every,
        }
        looks = [k.to_json() for k in self.looks]
        if self.design is None:
            return {**settings, "looks": looks, "decision": self.decision, "games": self.games}
        return {
            **settings,
            "design": self.design,
            "alpha_per_side": self.alpha_per_side,
            "bounds": list(self.bounds) if self.bounds is not None else None,
            "decision": self.decision,
            "games": self.games,
            "up": self.up,
            "down": self.down,
            "looks": looks,
        }


@dataclass(frozen=True, kw_only=True)
class SweepRecord:
    """``[sweep.until]``'s record: its settings (``measure`` of ``strategy``, the sweep's ``metric``
    name, ±``mu1``, α over the sweep, β, ``look_every``), α per side and the LLR bounds, the games
    the base played (as many as the longest variant) and each tested variant's :class:`State`."""

    metric: str
    measure: str
    strategy: str
    mu1: float
    alpha: float
    beta: float
    look_every: int
    design: str | None = None
    alpha_per_side: float
    bounds: tuple[float, float]
    games: Count = 0
    variants: Mapping[str, State]

    @classmethod
    def start(
        cls,
        until: Mapping[str, Any],
        tested: list[str],
        alpha_per_side: float,
        bounds: tuple[float, float],
    ) -> SweepRecord:
        """The record of the resolved ``[sweep.until]`` (``config.Experiment.sweep_until``) of the
        variants ``tested`` before their first look."""
        keys = ("metric", "measure", "strategy", "mu1", "alpha", "beta", "look_every")
        return cls(
            **{k: until[k] for k in keys},
            design=THREE_OUTCOME,
            alpha_per_side=alpha_per_side,
            bounds=bounds,
            variants={v: State() for v in tested},
        )

    def games_of(self, variant: str | None) -> int:
        """Games per variant ``variant`` played (the base, and without ``variant``: the most any did)."""
        own = self.variants.get(variant) if variant is not None else None
        return own.games if own is not None else self.games

    def to_json(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "measure": self.measure,
            "strategy": self.strategy,
            "mu1": self.mu1,
            "alpha": self.alpha,
            "beta": self.beta,
            "look_every": self.look_every,
            **({"design": self.design} if self.design is not None else {}),
            "alpha_per_side": self.alpha_per_side,
            "bounds": list(self.bounds),
            "games": self.games,
            "variants": {v: s.to_json() for v, s in self.variants.items()},
        }
