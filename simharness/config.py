"""Experiment configs: a TOML file → a validated, fully resolved :class:`Experiment`.

Everything that can be wrong with a config is found here, before any game runs: the file's own
structure (pydantic), then every variant's rules and every lineup slot's knobs through the engine,
whose errors are re-labelled with the file and the config path of the offending value
(``rules.payout_cap``, ``variants.no-cap.payout_cap``, ``players[1].knobs.x``).
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from simharness import backends, engine, store, strategies, tomlfile
from simharness import sweep as sweep_design
from simharness.errors import ConfigError
from simharness.games import registry

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
    metric: Literal["win", "final_points", "rank"] = "win"
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
        min_length=1, description='a sweep metric: "win[<strategy>]" or "final_points[<strategy>]"'
    )
    mu1: float = Field(gt=0, description="the effect (either sign) the test must tell from none")
    alpha: float = Field(default=0.05, gt=0, lt=0.5, description="error rate over the whole sweep")
    beta: float = Field(default=0.05, gt=0, lt=0.5)
    look_every: int | None = Field(default=None, gt=0, description="games per variant between looks")


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
    players: list[PlayerEntry] = Field(min_length=1)
    rules: dict[str, Any] = Field(default_factory=dict)
    variants: dict[str, dict[str, Any]] = Field(default_factory=dict)
    grid: dict[str, list[Any]] = Field(default_factory=dict)
    until: UntilFile | None = None
    sweep: SweepFile | None = None


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

    def identity(self) -> dict[str, Any]:
        """Everything that determines the data; two runs with equal identity write equal shards."""
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "shard_size": self.shard_size,
            "variants": self.variants,
            "lineup": [
                {
                    "strategy": s.strategy,
                    "knobs": s.knobs,
                    **({"source": s.source["sha256"]} if s.source else {}),
                }
                for s in self.lineup
            ],
        }

    @property
    def config_hash(self) -> str:
        return store.identity_hash(self.identity())

    @property
    def shard_count(self) -> int:
        """Shards per variant."""
        return -(-self.games // self.shard_size)


def load(
    path: Path | str, *, games: int | None = None, seed: int | None = None, text: str | None = None
) -> Experiment:
    """Reads, validates and resolves the experiment at ``path``; ``games``/``seed`` override the file's.
    ``text`` is the config to be written at ``path``, checked as if it were there already.

    Raises :class:`ConfigError` naming the file, the field and what was expected.
    """
    path = Path(path)
    data = tomlfile.load(path, text)
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
    n = len(f.players)
    if not info.min_players <= n <= info.max_players:
        raise fail("players", f"{f.game} takes {info.min_players} to {info.max_players} players, got {n}")
    if f.duplicate and f.games % n:
        raise fail("games", f"with duplicate = true, expected a multiple of the {n} players, got {f.games}")

    preset = f.rules.get("preset", "default")
    if not isinstance(preset, str):
        raise fail("rules.preset", f"expected a preset name, got {preset!r}")
    base = {k: v for k, v in f.rules.items() if k != "preset"}
    design = _sweep(f, preset, base, len(f.players), path) if f.sweep is not None else None
    overrides = (
        {name: (over, "sweep") for name, over in design.variants.items()}
        if design is not None
        else _variant_overrides(f, path)
    )
    variants = {
        name: _resolve(f.game, preset, base, over, where, path) for name, (over, where) in overrides.items()
    }
    for name, resolved in variants.items():
        # A rule option `players` fixes the seat count (Riichi: 3 = sanma).
        seats = resolved.get("players")
        if isinstance(seats, int) and seats != n:
            raise fail(
                "players",
                f'the rules of variant "{name}" set players = {seats}: expected {seats} strategies, got {n}',
            )
    lineup = [_slot(f.game, i, p, path) for i, p in enumerate(f.players)]
    _check_names(lineup, path)
    per_variant = f.sweep.until if f.sweep is not None else None
    if f.until is not None and per_variant is not None:
        raise fail("sweep.until", "a run stops on [until] or on [sweep.until], not both; keep one")
    # Under duplicate play the n games of a deal are one unit: a shard or a look never splits them.
    deal_games = n if f.duplicate else 1
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
        duplicate=f.duplicate,
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
    )


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


def _check_names(lineup: list[Slot], path: Path) -> None:
    """Every strategy name (a row of the players table, of the report, of ``compare``) is one script
    with one set of knobs: two different ones under one name would be merged into one row. The same
    strategy in several seats is the usual mirror lineup."""
    first: dict[str, Slot] = {}
    for s in lineup:
        seen = first.setdefault(s.strategy, s)
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
            f'players[{seen.slot}] and players[{s.slot}] are both named "{s.strategy}" but play '
            f"differently ({how}), so the players table and the report would merge them into one row; "
            "give one of them its own `label`",
            file=path,
            field=f"players[{s.slot}]",
        )


def _slot(game: str, i: int, p: PlayerEntry, path: Path) -> Slot:
    where = f"players[{i}]"
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
        knobs = script.resolved_knobs(p.knobs, field=f"{where}.knobs")
    except ConfigError as e:
        if e.file is None:
            raise ConfigError(e.message, file=path, field=e.field) from None
        raise
    label = p.label or script.name
    if p.knobs and p.label is None:
        label += "(" + ",".join(f"{k}={_label(v)}" for k, v in p.knobs.items()) + ")"
    source = strategies.source(script.python) if script.python else None
    return Slot(i, label, script.name, script.version, knobs, str(script_path), source)
