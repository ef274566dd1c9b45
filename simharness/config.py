"""Experiment configs: a TOML file → a validated, fully resolved :class:`Experiment`.

Everything that can be wrong with a config is found here, before any game runs: the file's own
structure (pydantic), then every variant's rules and every lineup slot's knobs through the engine,
whose errors are re-labelled with the file and the config path of the offending value
(``rules.payout_cap``, ``variants.no-cap.payout_cap``, ``players[1].knobs.x``).
"""

from __future__ import annotations

import difflib
import hashlib
import inspect
import itertools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from simharness import backends, engine, strategies, tomlfile
from simharness import sweep as sweep_design
from simharness.errors import ConfigError
from simharness.games import registry
from simharness.manifest import identity_hash

# When the config does not set shard_size, the experiment is cut into about this many shards (all
# variants together), so that up to 64 workers have work whatever the game; a shard is never smaller
# than the game's MIN_SHARD (its games must outweigh writing a Parquet file) nor larger than
# MAX_SHARD (a killed run loses little). Derived from the config alone, never from --jobs.
TARGET_SHARDS = 64
MAX_SHARD = 5000
# An explicit shard_size is at most this: a worker holds a shard's tables in memory until it has
# written them (measured: Hong Kong mahjong, the largest per game, peaks at 0.65 GB with one
# worker at 50,000 games), and a larger shard only loses more games to an interruption.
MAX_SHARD_SIZE = 50_000
# [variants] and the combinations of [grid] together make at most this many variants (each is
# resolved by the engine when the config is read and has a folder per table).
MAX_VARIANTS = 10_000
# The engine releases the GIL while it plays and so do polars and pyarrow while they write, so threads
# use every core without the start-up cost of worker processes; "loky" isolates workers in processes
# and "dask" spreads shards over a cluster (backends.py).
DEFAULT_BACKEND = backends.Backend.THREADING.value

_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$"
NAME_PATTERN = _NAME  # a run's (and a variant's) name; `sweep --name` checks it before writing a config


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
    (one variant per challenger and the field's own variant; see :func:`_challengers`)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    field: PlayerEntry = Field(description="the strategy of the other seats (and of the field variant)")
    strategies: list[PlayerEntry] = Field(min_length=1, description="the challengers")
    seats: int | None = Field(default=None, gt=0, description="seats per table; default the game's count")


class MetaFile(BaseModel):
    """``[meta]``: every profile (multiset of ``strategies`` over the seats) as a lineup variant, under
    each rule variant of ``[variants]``/``[grid]`` (see :func:`_meta`); the last four fields say how
    the run is read (``report.meta``), never what is played."""

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

    name: str = Field(pattern=_NAME, description="run directory name under --out")
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


@dataclass(frozen=True)
class Slot:
    """A lineup slot as played: ``strategy`` is the name the players table shows for it."""

    slot: int
    strategy: str
    script: str
    version: int
    knobs: dict[str, Any]
    path: str
    # A Python strategy's module file and the hash of its bytes (strategies.source): part of identity().
    source: dict[str, str] | None = None


@dataclass(frozen=True)
class Experiment:
    path: Path
    name: str
    game: str
    description: str
    games: int
    seed: int
    duplicate: bool
    shard_size: int
    backend: backends.Backend
    preset: str
    variants: dict[str, dict[str, Any]]
    lineup: list[Slot]
    raw: dict[str, Any] = field(repr=False)
    # The sequential stopping rule (resolved [until]); not part of identity(): it decides how many
    # shards are played, never what a shard contains.
    until: dict[str, Any] | None = None
    # [sweep]: each variant's option, the option values skipped (with the reason) and the options
    # exempt from the coverage test (with the reason); the variants themselves are in `variants`.
    sweep: sweep_design.Design | None = None
    exempt: dict[str, str] = field(default_factory=dict)
    # [sweep.until] resolved: like `until`, not part of identity().
    sweep_until: dict[str, Any] | None = None
    # The variants that seat a lineup of their own (`players` in [variants.<v>], or [challengers]);
    # every other variant seats `lineup`. Same seat count everywhere, so deals pair seat by seat.
    lineups: dict[str, list[Slot]] = field(default_factory=dict)
    # [challengers] resolved: the field's name, the challengers' names and each one's variant.
    challengers: dict[str, Any] | None = None
    # Points of 1st, 2nd, ... place (the config's, else the game's default): how the reports score
    # a rank; not part of identity(), since the games do not depend on it.
    rank_points: list[float] = field(default_factory=list)
    # [meta] resolved: the strategies, seats, each rule variant's profile variants and each profile
    # variant's rule variant and counts (the manifest's `meta`); and how the run is read (`metric`,
    # `alpha`, `resamples`, `seed`: not part of identity(), nor of the manifest).
    meta: dict[str, Any] | None = None
    meta_reading: dict[str, Any] | None = None

    def lineup_of(self, variant: str) -> list[Slot]:
        """The lineup ``variant`` seats."""
        return self.lineups.get(variant, self.lineup)

    def identity(self) -> dict[str, Any]:
        """Everything that determines the data; two runs with equal identity write equal shards."""
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "shard_size": self.shard_size,
            "variants": self.variants,
            "lineup": [_slot_identity(s) for s in self.lineup],
            # Only when a variant seats its own lineup, so that the hash of every older run stands.
            **(
                {"lineups": {v: [_slot_identity(s) for s in slots] for v, slots in self.lineups.items()}}
                if self.lineups
                else {}
            ),
        }

    @property
    def config_hash(self) -> str:
        return identity_hash(self.identity())

    @property
    def shard_count(self) -> int:
        """Shards per variant."""
        return -(-self.games // self.shard_size)


def _slot_identity(s: Slot) -> dict[str, Any]:
    knobs = engine.identity_knobs(s.knobs)
    return {"strategy": s.strategy, "knobs": knobs, **({"source": s.source["sha256"]} if s.source else {})}


def load(
    path: Path | str, *, games: int | None = None, seed: int | None = None, text: str | None = None
) -> Experiment:
    """Reads, validates and resolves the experiment at ``path``; ``games``/``seed`` override the file's.
    ``text`` is the config to be written at ``path``, checked as if it were there already.

    Raises :class:`ConfigError` naming the file, the field and what was expected.
    """
    path = Path(path)
    return from_dict(tomlfile.load(path, text), path, games=games, seed=seed)


# What a config given as a dict is called in messages; its strategies and Python modules are looked
# up from the current folder, as a file's are from its own.
DICT_CONFIG = Path("<config dict>")


def from_dict(
    data: dict[str, Any],
    path: Path = DICT_CONFIG,
    *,
    games: int | None = None,
    seed: int | None = None,
    classes: Mapping[str, type] | None = None,
) -> Experiment:
    """The experiment of a config's contents (the tables of a TOML file as a dict), validated exactly as
    :func:`load` validates the file: errors name ``path`` and the field. ``classes`` are Python
    strategies given as objects: a lineup entry that names one is played by that class."""
    data = dict(data)
    rules = data.get("rules")
    if isinstance(rules, dict) and isinstance(rules.get("players"), list):
        # `players = [...]` written after the [rules] header lands in that table in TOML (an
        # integer `players` there is a rule option, e.g. Riichi's player count).
        if "players" in data:
            raise ConfigError(
                "players is given twice (top level and in [rules]); keep one",
                file=path,
                field="rules.players",
            )
        data = {
            **data,
            "rules": {k: v for k, v in rules.items() if k != "players"},
            "players": rules["players"],
        }
    if games is not None:
        data["games"] = games
    if seed is not None:
        data["seed"] = seed
    f: ExperimentFile = tomlfile.validate(ExperimentFile, data, path)

    def fail(field: str, message: str) -> ConfigError:
        return ConfigError(message, file=path, field=field)

    try:
        info = engine.game_info(f.game)
    except engine.OptionError as e:
        raise fail("game", e.message) from None
    preset = f.rules.get("preset", "default")
    if not isinstance(preset, str):
        raise fail("rules.preset", f"expected a preset name, got {preset!r}")
    base = {k: v for k, v in f.rules.items() if k != "preset"}
    challengers = _challengers(f, info, preset, base, path) if f.challengers is not None else None
    meta = _meta(f, info, preset, base, path) if f.meta is not None else None
    entries: list[PlayerEntry] = (
        challengers.field_lineup
        if challengers is not None
        else meta.first_lineup
        if meta is not None
        else f.players or []
    )
    if not entries:
        raise fail("players", "expected a lineup: a list of strategy names (or [challengers] or [meta])")
    n = len(entries)
    if not info.min_players <= n <= info.max_players:
        raise fail("players", f"{f.game} takes {info.min_players} to {info.max_players} players, got {n}")
    duplicate = f.duplicate or challengers is not None or meta is not None
    if duplicate and f.games % n:
        raise fail("games", f"with duplicate = true, expected a multiple of the {n} players, got {f.games}")

    design = _sweep(f, preset, base, n, path) if f.sweep is not None else None
    own_lineups: dict[str, tuple[list[Any], str]] = {}
    overrides: dict[str, tuple[dict[str, Any], str]]
    if challengers is not None:
        overrides = {name: ({}, "rules") for name in (FIELD_VARIANT, *challengers.lineups)}
        own_lineups = challengers.lineups
    elif meta is not None:
        overrides, own_lineups = meta.overrides, meta.lineups
    elif design is not None:
        overrides = {name: (over, "sweep") for name, over in design.variants.items()}
    else:
        overrides = _variant_overrides(f, path)
        own_lineups = {name: _lineup_of(over, where, path) for name, (over, where) in overrides.items()}
        own_lineups = {name: lineup for name, lineup in own_lineups.items() if lineup[0]}
        overrides = {
            name: ({k: v for k, v in over.items() if name not in own_lineups or k != "players"}, where)
            for name, (over, where) in overrides.items()
        }
    # Resolved once per distinct set of overrides: a metagame's profiles share their rule variant's.
    resolved: dict[str, dict[str, Any]] = {}
    variants = {}
    for name, (over, where) in overrides.items():
        key = repr(sorted(over.items()))
        if key not in resolved:
            resolved[key] = _resolve(f.game, preset, base, over, where, path)
        variants[name] = resolved[key]
    for name, resolved in variants.items():
        # A rule option `players` fixes the seat count (Riichi: 3 = sanma).
        seats = resolved.get("players")
        if isinstance(seats, int) and seats != n:
            raise fail(
                "challengers.seats"
                if challengers is not None
                else "meta.seats"
                if meta is not None
                else "players",
                f'the rules of variant "{name}" set players = {seats}: expected {seats} strategies, got {n}',
            )
    top = (
        "challengers.field"
        if challengers is not None
        else "meta.strategies"
        if meta is not None
        else "players"
    )

    def at(where: str, i: int) -> str:
        """The config path of slot ``i`` of a lineup written at ``where`` ([challengers] writes one
        entry per lineup, not a list; [meta] writes each strategy once)."""
        return where if challengers is not None or meta is not None else f"{where}[{i}]"

    def slot(i: int, p: PlayerEntry, where: str) -> Slot:
        if classes and p.strategy in classes:
            return _object_slot(f.game, i, p, classes[p.strategy], path, where)
        return _slot(f.game, i, p, path, where)

    lineup = [slot(i, p, at(top, i)) for i, p in enumerate(entries)]
    lineups: dict[str, list[Slot]] = {}
    for name, (players, where) in own_lineups.items():
        if len(players) != n:
            raise fail(
                where,
                f"expected {n} strategies (the seats of every variant, so that deals pair seat by seat), "
                f"got {len(players)}",
            )
        lineups[name] = [slot(i, p, at(where, i)) for i, p in enumerate(players)]
    named = [(at(top, s.slot), s) for s in lineup]
    for name, slots in lineups.items():
        named += [(at(own_lineups[name][1], s.slot), s) for s in slots]
    _check_names(named, path)
    rank_points = _rank_points(f, n, path)
    per_variant = f.sweep.until if f.sweep is not None else None
    if f.until is not None and per_variant is not None:
        raise fail("sweep.until", "a run stops on [until] or on [sweep.until], not both; keep one")
    # Under duplicate play the n games of a deal are one unit: a shard or a look never splits them.
    deal_games = n if duplicate else 1
    if f.shard_size is not None and f.shard_size > MAX_SHARD_SIZE:
        raise fail(
            "shard_size",
            f"expected at most {MAX_SHARD_SIZE:,} games per shard (a worker holds a shard's tables in "
            f"memory until they are written), got {f.shard_size:,}",
        )
    if f.shard_size is not None and f.shard_size % deal_games:
        raise fail(
            "shard_size",
            f"with duplicate = true, expected a multiple of the {n} players (the games of one deal), "
            f"got {f.shard_size}",
        )
    shard_size = f.shard_size or default_shard_size(
        f.game, f.games, len(variants), f.until or per_variant, deal_games
    )
    until = _until(f.until, shard_size, variants, lineup, path) if f.until is not None else None
    sweep_until = _sweep_until(per_variant, shard_size, variants, lineup, path) if per_variant else None
    return Experiment(
        path=path,
        name=f.name,
        game=f.game,
        description=f.description,
        games=f.games,
        seed=f.seed,
        duplicate=duplicate,
        shard_size=shard_size,
        backend=backends.parse(f.backend, file=path),
        preset=preset,
        variants=variants,
        lineup=lineup,
        raw=data,
        until=until,
        sweep=design,
        exempt=dict(f.sweep.exempt) if f.sweep is not None else {},
        sweep_until=sweep_until,
        lineups=lineups,
        challengers=challengers.record(lineup[0].strategy, lineups) if challengers is not None else None,
        rank_points=rank_points,
        meta=meta.record if meta is not None else None,
        meta_reading=meta_reading(f.meta) if f.meta is not None else None,
    )


def meta_reading(meta: MetaFile | dict[str, Any]) -> dict[str, Any]:
    """How a metagame run is read (``report.meta.build``'s options): a ``[meta]`` section, checked,
    or as a run's manifest recorded it."""
    m = meta if isinstance(meta, MetaFile) else MetaFile.model_validate(meta)
    return {k: getattr(m, k) for k in ("metric", "alpha", "resamples", "seed")}


def _rank_points(f: ExperimentFile, seats: int, path: Path) -> list[float]:
    """``rank_points`` checked (one value per seat, never rising from 1st to last), else the game's."""
    if f.rank_points is None:
        return registry.rank_points(f.game, seats)
    points = [float(x) for x in f.rank_points]
    if len(points) != seats:
        raise ConfigError(
            f"expected one value per place, {seats} for this lineup, got {len(points)}",
            file=path,
            field="rank_points",
        )
    if any(b > a for a, b in itertools.pairwise(points)):
        raise ConfigError(
            f"expected points that never rise from 1st to last place, got {f.rank_points}",
            file=path,
            field="rank_points",
        )
    return points


def _lineup_of(over: dict[str, Any], where: str, path: Path) -> tuple[list[Any], str]:
    """A variant's own lineup (``players = [...]`` among its overrides; an integer ``players`` is a
    rule option, the seat count), checked as the top-level ``players``; empty when it has none."""
    players = over.get("players")
    if not isinstance(players, list):
        return [], f"{where}.players"
    field = f"{where}.players"
    if where == "grid":
        raise ConfigError("a grid varies rules; write a lineup in [variants.<name>]", file=path, field=field)
    if not players:
        raise ConfigError("expected a lineup: a list of strategy names", file=path, field=field)
    entries = []
    for i, p in enumerate(players):
        try:
            entries.append(PlayerEntry.model_validate(p))
        except ValidationError as e:
            err = e.errors()[0]
            raise ConfigError(
                f"expected a strategy name or a {{ strategy = ..., knobs = ... }} table: {err['msg']}",
                file=path,
                field=f"{field}[{i}]",
            ) from None
    return entries, field


@dataclass(frozen=True)
class _Challengers:
    """``[challengers]`` as variants: ``field`` (the field in every seat: the top-level lineup) and
    one per challenger (``lineups``: the challenger in slot 0, the field in the others); duplicate
    play seats slot 0 in every seat of every deal, and all variants share the keyed deals."""

    field_lineup: list[PlayerEntry]
    lineups: dict[str, tuple[list[PlayerEntry], str]]

    def record(self, field_name: str, lineups: dict[str, list[Slot]]) -> dict[str, Any]:
        return {
            "field": field_name,
            "field_variant": FIELD_VARIANT,
            "challengers": {name: slots[0].strategy for name, slots in lineups.items()},
        }


FIELD_VARIANT = "field"


def _seats(
    seats: int | None,
    f: ExperimentFile,
    info: engine.GameInfo,
    preset: str,
    base: dict[str, Any],
    path: Path,
    field: str,
) -> int:
    """The seats per table of a design that makes its own lineups: ``seats`` if given, else the rules'
    player count, else the game's fixed count."""
    if seats is not None:
        return seats
    rule = _resolve(f.game, preset, base, {}, "rules", path).get("players")
    if isinstance(rule, int):
        return rule
    if info.min_players == info.max_players:
        return info.min_players
    raise ConfigError(
        f"{f.game} takes {info.min_players} to {info.max_players} players: expected the seats per table",
        file=path,
        field=field,
    )


@dataclass(frozen=True)
class _Meta:
    """``[meta]`` as variants: one per (rule variant, profile), each seating its profile's lineup
    (strategies in the order of ``strategies``, each as many times as the profile counts it)."""

    first_lineup: list[PlayerEntry]
    lineups: dict[str, tuple[list[PlayerEntry], str]]
    overrides: dict[str, tuple[dict[str, Any], str]]
    record: dict[str, Any]


def meta_variant(rule: str | None, lineup: list[str]) -> str:
    """The name of a profile's variant: its seats' strategies joined by ``+``, after its rule
    variant's name and a dot when the study has several rule variants."""
    profile = "+".join(lineup)
    return profile if rule is None else f"{rule}.{profile}"


def _meta(f: ExperimentFile, info: engine.GameInfo, preset: str, base: dict[str, Any], path: Path) -> _Meta:
    from simharness.stats.metagame import profiles

    m = f.meta
    assert m is not None
    for other, present in (
        ("players", f.players is not None),
        ("challengers", f.challengers is not None),
        ("sweep", f.sweep is not None),
        ("until", f.until is not None),
    ):
        if present:
            raise ConfigError(
                f"[meta] makes the lineups itself and reads rule variants from [variants] and [grid]; "
                f"remove {other}",
                file=path,
                field=other,
            )
    if f.duplicate is False and "duplicate" in f.model_fields_set:
        raise ConfigError(
            "[meta] plays each profile seat-rotated (duplicate play); remove duplicate = false",
            file=path,
            field="duplicate",
        )
    seats = _seats(m.seats, f, info, preset, base, path, "meta.seats")
    names: list[str] = []
    for i, entry in enumerate(m.strategies):
        name = entry.label or entry.strategy
        where = f"meta.strategies[{i}]"
        if not re.match(_NAME, name) or "+" in name or name in names:
            why = "is given twice" if name in names else "may use letters, digits and _ . - only"
            raise ConfigError(
                f'the strategy "{name}" names the profiles\' variants, and that name {why}: '
                "give it a `label`",
                file=path,
                field=where,
            )
        names.append(name)
    rules = _variant_overrides(f, path)
    for over, where in rules.values():
        if "players" in over and isinstance(over["players"], list):
            raise ConfigError(
                "[meta] seats every profile itself: a rule variant sets rules only",
                file=path,
                field=f"{where}.players",
            )
    counts = profiles(len(names), seats)
    total = len(counts) * len(rules)
    if total > MAX_VARIANTS:
        raise ConfigError(
            f"expected at most {MAX_VARIANTS:,} variants in all, got {total:,} ({len(counts):,} profiles of "
            f"{len(names)} strategies over {seats} seats × {len(rules)} rule variants)",
            file=path,
            field="meta.strategies",
        )
    several = len(rules) > 1 or next(iter(rules)) != "base"
    lineups: dict[str, tuple[list[PlayerEntry], str]] = {}
    overrides: dict[str, tuple[dict[str, Any], str]] = {}
    record: dict[str, Any] = {"strategies": names, "seats": seats, "rules": {}, "profiles": {}}
    for rule, (over, where) in rules.items():
        record["rules"][rule] = []
        for c in counts:
            seated = [i for i, n in enumerate(c) for _ in range(n)]
            name = meta_variant(rule if several else None, [names[i] for i in seated])
            if name in overrides:
                raise ConfigError(
                    f'two profiles make the variant name "{name}"; rename a rule variant',
                    file=path,
                    field=where,
                )
            lineups[name] = ([m.strategies[i] for i in seated], "meta.strategies")
            overrides[name] = (over, where)
            record["rules"][rule].append(name)
            record["profiles"][name] = {"rules": rule, "counts": list(c)}
    first = next(iter(lineups.values()))[0]
    return _Meta(first, lineups, overrides, record)


def _challengers(
    f: ExperimentFile, info: engine.GameInfo, preset: str, base: dict[str, Any], path: Path
) -> _Challengers:
    c = f.challengers
    assert c is not None
    for other, present in (
        ("players", f.players is not None),
        ("variants", bool(f.variants)),
        ("grid", bool(f.grid)),
        ("sweep", f.sweep is not None),
        ("until", f.until is not None),
    ):
        if present:
            raise ConfigError(
                f"[challengers] makes the lineups and variants itself; remove {other}", file=path, field=other
            )
    if f.duplicate is False and "duplicate" in f.model_fields_set:
        raise ConfigError(
            "[challengers] seats each challenger in every seat of every deal (duplicate play); "
            "remove duplicate = false",
            file=path,
            field="duplicate",
        )
    seats = _seats(c.seats, f, info, preset, base, path, "challengers.seats")
    lineups: dict[str, tuple[list[PlayerEntry], str]] = {}
    for i, entry in enumerate(c.strategies):
        where = f"challengers.strategies[{i}]"
        name = entry.label or entry.strategy
        if not re.match(_NAME, name) or name in (FIELD_VARIANT, *lineups):
            why = "is taken" if re.match(_NAME, name) else "may use letters, digits and _ . + - only"
            raise ConfigError(
                f'the challenger "{name}" names its variant, and that name {why}: give it a `label`',
                file=path,
                field=where,
            )
        lineups[name] = ([entry, *[c.field] * (seats - 1)], where)
    return _Challengers([c.field] * seats, lineups)


def default_shard_size(
    game: str,
    games: int,
    variants: int,
    until: UntilFile | SweepUntilFile | None = None,
    deal_games: int = 1,
) -> int:
    """Games per shard for a config without ``shard_size`` (see TARGET_SHARDS); a multiple of
    ``deal_games`` (the games of one deal: the players under duplicate play), so that no deal
    straddles two shards; with ``[until]`` (or ``[sweep.until]``) and its ``look_every``, a divisor
    of it, so that looks fall between shards."""
    want = -(-games * variants // TARGET_SHARDS)
    size = min(games, max(registry.min_shard(game), min(MAX_SHARD, want)))
    size = max(deal_games, size - size % deal_games)
    look = until.look_every if until is not None else None
    if look and look % deal_games == 0:
        size = max(d for d in range(deal_games, min(size, look) + 1, deal_games) if look % d == 0)
    return size


def _sweep(
    f: ExperimentFile, preset: str, base: dict[str, Any], seats: int, path: Path
) -> sweep_design.Design:
    """The ``[sweep]`` design, its option names checked; values that would change the seat count
    are skipped (the lineup fixes it)."""
    assert f.sweep is not None
    if f.variants or f.grid:
        raise ConfigError(
            "a [sweep] makes the variants itself; remove [variants] and [grid]", file=path, field="sweep"
        )
    known = [s.name for s in engine.rule_options(f.game)]
    named = f.sweep.options if isinstance(f.sweep.options, list) else []
    for where, names in (
        ("options", named),
        ("levels", list(f.sweep.levels)),
        ("exempt", list(f.sweep.exempt)),
    ):
        for name in names:
            if name not in known:
                hint = difflib.get_close_matches(name, known, n=1)
                extra = f' (did you mean "{hint[0]}"?)' if hint else ""
                raise ConfigError(
                    f'unknown rule option "{name}" of {f.game}{extra}', file=path, field=f"sweep.{where}"
                )
    try:
        d = sweep_design.design(f.game, preset, base, named or None, f.sweep.levels)
    except engine.OptionError as e:
        raise ConfigError(e.message, file=path, field=f"sweep.levels.{e.field}") from None
    for name, over in list(d.variants.items()):
        seats_rule = over.get("players")
        if isinstance(seats_rule, int) and seats_rule != seats:
            d.skipped[name] = f"players = {seats_rule} needs a lineup of {seats_rule}; this one seats {seats}"
            del d.variants[name], d.option_of[name]
    return d


def _until(
    u: UntilFile, shard_size: int, variants: dict[str, Any], lineup: list[Slot], path: Path
) -> dict[str, Any]:
    """The ``[until]`` section checked against the lineup and variants, with defaults filled in."""
    names = sorted({s.strategy for s in lineup})
    for key in ("a", "b"):
        if getattr(u, key) not in names:
            raise ConfigError(
                f'expected a strategy of the lineup ({", ".join(names)}), got "{getattr(u, key)}"',
                file=path,
                field=f"until.{key}",
            )
    if u.a == u.b:
        raise ConfigError("expected a strategy different from until.a", file=path, field="until.b")
    variant = u.variant or next(iter(variants))
    if variant not in variants:
        raise ConfigError(
            f'expected one of the variants ({", ".join(variants)}), got "{variant}"',
            file=path,
            field="until.variant",
        )
    if u.mu0 != 0:
        raise ConfigError(
            "expected 0 (or no mu0): the test tells a difference of ±mu1 either way from none",
            file=path,
            field="until.mu0",
        )
    return {**u.model_dump(), "variant": variant, "look_every": _look_every(u, shard_size, "until", path)}


def _look_every(u: UntilFile | SweepUntilFile, shard_size: int, where: str, path: Path) -> int:
    """``look_every`` (default: one shard), a multiple of the shard size so that looks fall between shards."""
    look = u.look_every or shard_size
    if look % shard_size:
        raise ConfigError(
            f"expected a multiple of shard_size ({shard_size}), so looks fall between shards; got {look}",
            file=path,
            field=f"{where}.look_every",
        )
    return look


def _sweep_until(
    u: SweepUntilFile, shard_size: int, variants: dict[str, Any], lineup: list[Slot], path: Path
) -> dict[str, Any]:
    """``[sweep.until]`` checked against the lineup, with the metric split and defaults filled in."""
    from simharness.sweep_until import parse_metric

    names = sorted({s.strategy for s in lineup})
    try:
        metric, strategy = parse_metric(u.metric, names)
    except ValueError as e:
        raise ConfigError(str(e), file=path, field="sweep.until.metric") from None
    if len(variants) < 2:
        raise ConfigError("the sweep has no variant besides the base to test", file=path, field="sweep.until")
    return {
        **u.model_dump(),
        "measure": metric,
        "strategy": strategy,
        "look_every": _look_every(u, shard_size, "sweep.until", path),
    }


def _variant_overrides(f: ExperimentFile, path: Path) -> dict[str, tuple[dict[str, Any], str]]:
    """Each variant's overrides of [rules], from [variants.*] and the combinations of [grid], with
    the config path they were written under."""
    out: dict[str, tuple[dict[str, Any], str]] = {}
    for name, over in f.variants.items():
        if not re.match(_NAME, name):
            raise ConfigError(
                "a variant name may use letters, digits and _ . + - only", file=path, field=f"variants.{name}"
            )
        out[name] = (over, f"variants.{name}")
    if f.grid:
        for key, values in f.grid.items():
            if not values:
                raise ConfigError("expected a non-empty list of values", file=path, field=f"grid.{key}")
        combinations = math.prod(len(values) for values in f.grid.values())
        if len(out) + combinations > MAX_VARIANTS:
            sizes = " × ".join(str(len(values)) for values in f.grid.values())
            raise ConfigError(
                f"expected at most {MAX_VARIANTS:,} variants in all, got {len(out) + combinations:,} "
                f"({len(out)} in [variants] and {sizes} = {combinations:,} combinations)",
                file=path,
                field="grid",
            )
        for combo in itertools.product(*f.grid.values()):
            over = dict(zip(f.grid, combo, strict=True))
            name = "+".join(f"{k}-{_label(v)}" for k, v in over.items())
            if not re.match(_NAME, name):
                raise ConfigError(
                    f'the combination gives the variant name "{name}", which may use letters, '
                    "digits and _ . + - only",
                    file=path,
                    field="grid",
                )
            if name in out:
                raise ConfigError(
                    f'the grid makes a variant "{name}" that [variants] already defines',
                    file=path,
                    field="grid",
                )
            out[name] = (over, "grid")
    return out or {"base": ({}, "rules")}


def _label(v: Any) -> str:
    if isinstance(v, list):  # a set option's value: its members
        return ".".join(_label(x) for x in v) or "none"
    return str(v).lower() if isinstance(v, bool) else str(v)


def _resolve(
    game: str, preset: str, base: dict[str, Any], over: dict[str, Any], where: str, path: Path
) -> dict[str, Any]:
    try:
        return engine.resolve_rules(game, preset, {**base, **over})
    except engine.OptionError as e:
        # A contradiction names several options ("a+b"): blame the variant if it set any of them.
        parts = e.field.split("+")
        if e.field == "preset":
            field = "rules.preset"
        elif any(p in over for p in parts) or not any(p in base for p in parts):
            field = f"{where}.{e.field}"
        else:
            field = f"rules.{e.field}"
        raise ConfigError(e.message, file=path, field=field) from None


def _check_names(named: list[tuple[str, Slot]], path: Path) -> None:
    """Every strategy name (a row of the players table, of the report, of ``compare``) is one script
    with one set of knobs, in every variant's lineup: two different ones under one name would be
    merged into one row. The same strategy in several seats is the usual mirror lineup. ``named``:
    each slot with its config path."""
    first: dict[str, tuple[str, Slot]] = {}
    for where, s in named:
        seen_at, seen = first.setdefault(s.strategy, (where, s))
        if (seen.path, seen.knobs) == (s.path, s.knobs):
            continue
        if seen.path != s.path:
            how = f"script {seen.path} vs {s.path}"
        else:
            keys = [k for k in dict.fromkeys([*seen.knobs, *s.knobs]) if seen.knobs.get(k) != s.knobs.get(k)]
            shown = [f"{k} = {_label(seen.knobs.get(k))} vs {_label(s.knobs.get(k))}" for k in keys[:4]]
            more = f" and {len(keys) - 4} more" if len(keys) > 4 else ""
            how = f"script {s.path}, knobs {', '.join(shown)}{more}"
        raise ConfigError(
            f'{seen_at} and {where} are both named "{s.strategy}" but play '
            f"differently ({how}), so the players table and the report would merge them into one row; "
            "give one of them its own `label`",
            file=path,
            field=where,
        )


def _object_slot(game: str, i: int, p: PlayerEntry, cls: type, path: Path, where: str) -> Slot:
    """A lineup slot played by a Python strategy class given as an object (``sh.run(...,
    strategies={name: cls})``): the knobs' defaults answer what its protocol leaves to knobs; its
    source's hash (or, without a source, its qualified name) is its identity."""
    try:
        engine.require_python_strategies(game)
        knobs = engine.resolve_knobs(game, p.knobs)
    except engine.OptionError as e:
        raise ConfigError(e.message, file=path, field=f"{where}.{e.field}") from None
    if not callable(getattr(cls, "decide", None)):
        raise ConfigError(f"{cls!r} has no decide method; expected a strategy class", file=path, field=where)
    spec = engine.register_class(cls)
    try:
        file, text = inspect.getsourcefile(cls) or "<object>", inspect.getsource(cls)
    except (OSError, TypeError):
        file, text = "<object>", spec
    source = {"file": file, "sha256": hashlib.sha256(text.encode()).hexdigest()[:16]}
    return Slot(
        i, p.label or p.strategy, p.strategy, 1, {**knobs, engine.PYTHON_KEY: spec}, "<object>", source
    )


def _slot(game: str, i: int, p: PlayerEntry, path: Path, where: str) -> Slot:
    """Lineup slot ``i`` from entry ``p``, written at config path ``where``."""
    try:
        script_path = strategies.find(game, p.strategy, path.parent)
        script = strategies.load(script_path)
    except ConfigError as e:
        if e.file is None:
            raise ConfigError(
                e.message, file=path, field=f"{where}.strategy" if e.field is None else e.field
            ) from None
        raise
    if script.game != game:
        raise ConfigError(
            f'the strategy "{p.strategy}" is for {script.game}, not {game} ({script_path})',
            file=path,
            field=where,
        )
    try:
        knobs = script.resolved_knobs(p.knobs, field=f"{where}.knobs", near=[path.parent])
    except ConfigError as e:
        if e.file is None:
            raise ConfigError(e.message, file=path, field=e.field) from None
        raise
    label = p.label or script.name
    if p.knobs and p.label is None:
        label += "(" + ",".join(f"{k}={_label(v)}" for k, v in p.knobs.items()) + ")"
    source = strategies.source(script.python, knobs.get(engine.PYTHON_DIR_KEY)) if script.python else None
    return Slot(i, label, script.name, script.version, knobs, str(script_path), source)
