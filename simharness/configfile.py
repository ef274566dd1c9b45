"""The structure of an experiment file: what each table and key of a TOML config may hold (pydantic
models, strict, unknown keys refused). Only the shape is checked here; what the values mean (rules,
strategies, designs) is checked by :mod:`simharness.config` and :mod:`simharness.designs`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from simharness import backends

# A run's (and a variant's) name; `sweep --name` checks it before writing a config.
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$"


# The engine releases the GIL while it plays and so do polars and pyarrow while they write, so threads
# use every core without the start-up cost of worker processes; "loky" isolates workers in processes
# and "dask" spreads shards over a cluster (backends.py).
DEFAULT_BACKEND = backends.Backend.THREADING.value


class PlayerEntry(BaseModel):
    """One lineup slot: a strategy script, optionally with knob overrides and its own label."""

    model_config = ConfigDict(extra="forbid", strict=True)

    strategy: str = Field(min_length=1)
    label: str | None = Field(default=None, min_length=1)
    knobs: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, v: Any) -> Any:
        return {"strategy": v} if isinstance(v, str) else v


class UntilFile(BaseModel):
    """``[until]``: stop adding shards when the three-outcome sequential test of strategy A vs B
    decides: A better by ≥ mu1, B better by ≥ mu1, or no difference as large as mu1."""

    model_config = ConfigDict(extra="forbid", strict=True)

    test: Literal["sprt"] = "sprt"
    a: str = Field(min_length=1, description="strategy A (as named in the players table)")
    b: str = Field(min_length=1, description="strategy B")
    metric: Literal["win", "final_points", "rank", "rank_points"] = "win"
    variant: str | None = None
    mu0: float = Field(default=0.0, description="the null difference: 0 (kept for older configs)")
    mu1: float = Field(gt=0, description="the difference (either sign) the test must tell from none")
    alpha: float = Field(default=0.05, gt=0, lt=0.5)
    beta: float = Field(default=0.05, gt=0, lt=0.5)
    look_every: int | None = Field(default=None, gt=0, description="games per variant between looks")


class SweepUntilFile(BaseModel):
    """``[sweep.until]``: stop playing each variant when its two-sided sequential test against the
    base decides (see :mod:`simharness.sweep_until`)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    metric: str = Field(
        min_length=1,
        description='a sweep metric: "win[<strategy>]", "final_points[<strategy>]" or '
        '"rank_points[<strategy>]"',
    )
    mu1: float = Field(gt=0, description="the effect (either sign) the test must tell from none")
    alpha: float = Field(default=0.05, gt=0, lt=0.5, description="error rate over the whole sweep")
    beta: float = Field(default=0.05, gt=0, lt=0.5)
    look_every: int | None = Field(default=None, gt=0, description="games per variant between looks")


class ChallengersFile(BaseModel):
    """``[challengers]``: each challenger in every seat of every deal against copies of the field
    (one variant per challenger and the field's own variant; see :func:`simharness.designs.challengers`)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    field: PlayerEntry = Field(description="the strategy of the other seats (and of the field variant)")
    strategies: list[PlayerEntry] = Field(min_length=1, description="the challengers")
    seats: int | None = Field(default=None, gt=0, description="seats per table; default the game's count")


class MetaFile(BaseModel):
    """``[meta]``: every profile (multiset of ``strategies`` over the seats) as a lineup variant, under
    each rule variant of ``[variants]``/``[grid]`` (see :func:`simharness.designs.meta`); the last
    four fields say how the run is read (``report.meta``), never what is played."""

    model_config = ConfigDict(extra="forbid", strict=True)

    strategies: list[PlayerEntry] = Field(min_length=2, description="the strategies of the metagame")
    seats: int | None = Field(default=None, gt=0, description="seats per table; default the game's count")
    metric: Literal["first_place", "rank_points", "final_points"] = Field(
        default="rank_points", description="the payoff of a player in a game"
    )
    alpha: float = Field(
        default=100.0, gt=0, description="α-Rank's selection intensity (payoffs in range units)"
    )
    resamples: int = Field(default=200, ge=20, le=10_000, description="bootstrap resamples of the deals")
    seed: int = Field(default=0, ge=0, lt=2**64, description="the bootstrap's seed")


class SweepFile(BaseModel):
    """``[sweep]``: one variant per non-base value of each option (see :mod:`simharness.sweep`)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    options: Literal["all"] | list[str] = "all"
    levels: dict[str, list[Any]] = Field(default_factory=dict, description="values tried per option")
    exempt: dict[str, str] = Field(
        default_factory=dict, description="options expected to play the base's games, with the reason"
    )
    until: SweepUntilFile | None = None


class ExperimentFile(BaseModel):
    """The structure of an experiment TOML file."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(pattern=NAME_PATTERN, description="run directory name under --out")
    game: str = Field(min_length=1)
    games: int = Field(gt=0, lt=2**64, description="games per variant (game indices are 64-bit)")
    seed: int = Field(ge=0, lt=2**64)
    description: str = ""
    duplicate: bool = False
    shard_size: int | None = Field(default=None, gt=0, description="games per shard; default by game cost")
    backend: str = Field(default=DEFAULT_BACKEND, min_length=1)
    # Required unless [challengers] makes the lineups.
    players: list[PlayerEntry] | None = Field(default=None, min_length=1)
    rank_points: list[float | int] | None = Field(default=None, description="points of 1st, 2nd, ... place")
    rules: dict[str, Any] = Field(default_factory=dict)
    variants: dict[str, dict[str, Any]] = Field(default_factory=dict)
    grid: dict[str, list[Any]] = Field(default_factory=dict)
    until: UntilFile | None = None
    sweep: SweepFile | None = None
    challengers: ChallengersFile | None = None
    meta: MetaFile | None = None
