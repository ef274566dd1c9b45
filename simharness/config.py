"""Experiment configs: a TOML file → a validated, fully resolved :class:`Experiment`.

Everything that can be wrong with a config is found by :func:`load`, before any game runs: the
file's own structure (:mod:`simharness.configfile`), the designs that make its variants
(:mod:`simharness.designs`), then every variant's rules and every lineup slot's knobs through the engine,
whose errors are re-labelled with the file and the config path of the offending value
(``rules.payout_cap``, ``variants.no-cap.payout_cap``, ``players[1].knobs.x``).
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from simharness import backends, designs, engine, strategies, tomlfile
from simharness import sweep as sweep_design
from simharness.configfile import (
    ExperimentFile,
    MetaFile,
    PlayerEntry,
    SweepUntilFile,
    UntilFile,
)
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
    challengers = designs.challengers(f, info, preset, base, path) if f.challengers is not None else None
    meta = designs.meta(f, info, preset, base, path) if f.meta is not None else None
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

    design = designs.sweep(f, preset, base, n, path) if f.sweep is not None else None
    own_lineups: dict[str, tuple[list[Any], str]] = {}
    overrides: dict[str, tuple[dict[str, Any], str]]
    if challengers is not None:
        overrides = {name: ({}, "rules") for name in (designs.FIELD_VARIANT, *challengers.lineups)}
        own_lineups = challengers.lineups
    elif meta is not None:
        overrides, own_lineups = meta.overrides, meta.lineups
    elif design is not None:
        overrides = {name: (over, "sweep") for name, over in design.variants.items()}
    else:
        overrides = designs.variant_overrides(f, path)
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
            resolved[key] = designs.resolve_rules(f.game, preset, base, over, where, path)
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
    until = designs.until(f.until, shard_size, variants, lineup, path) if f.until is not None else None
    sweep_until = (
        designs.sweep_until(per_variant, shard_size, variants, lineup, path) if per_variant else None
    )
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
            shown = [
                f"{k} = {designs.value_label(seen.knobs.get(k))} vs {designs.value_label(s.knobs.get(k))}"
                for k in keys[:4]
            ]
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
        label += "(" + ",".join(f"{k}={designs.value_label(v)}" for k, v in p.knobs.items()) + ")"
    source = strategies.source(script.python, knobs.get(engine.PYTHON_DIR_KEY)) if script.python else None
    return Slot(i, label, script.name, script.version, knobs, str(script_path), source)
