"""The designs that make a config's variants and lineups: ``[variants]`` and ``[grid]`` (rule
overrides), ``[challengers]``, ``[meta]`` and ``[sweep]``, and the sequential stopping rules
``[until]`` and ``[sweep.until]``, each checked against the game and the lineup with errors naming
the file and the field. :mod:`simharness.config` calls them while it resolves an experiment.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simharness import engine
from simharness import sweep as sweep_design
from simharness.configfile import (
    NAME_PATTERN,
    ExperimentFile,
    PlayerEntry,
    SweepUntilFile,
    UntilFile,
)
from simharness.errors import ConfigError

if TYPE_CHECKING:
    from simharness.config import Slot

# [variants] and the combinations of [grid] together make at most this many variants (each is
# resolved by the engine when the config is read and has a folder per table).
MAX_VARIANTS = 10_000


@dataclass(frozen=True)
class Challengers:
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
    rule = resolve_rules(f.game, preset, base, {}, "rules", path).get("players")
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
class Meta:
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


def meta(f: ExperimentFile, info: engine.GameInfo, preset: str, base: dict[str, Any], path: Path) -> Meta:
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
        if not re.match(NAME_PATTERN, name) or "+" in name or name in names:
            why = "is given twice" if name in names else "may use letters, digits and _ . - only"
            raise ConfigError(
                f'the strategy "{name}" names the profiles\' variants, and that name {why}: '
                "give it a `label`",
                file=path,
                field=where,
            )
        names.append(name)
    rules = variant_overrides(f, path)
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
    return Meta(first, lineups, overrides, record)


def challengers(
    f: ExperimentFile, info: engine.GameInfo, preset: str, base: dict[str, Any], path: Path
) -> Challengers:
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
        if not re.match(NAME_PATTERN, name) or name in (FIELD_VARIANT, *lineups):
            why = "is taken" if re.match(NAME_PATTERN, name) else "may use letters, digits and _ . + - only"
            raise ConfigError(
                f'the challenger "{name}" names its variant, and that name {why}: give it a `label`',
                file=path,
                field=where,
            )
        lineups[name] = ([entry, *[c.field] * (seats - 1)], where)
    return Challengers([c.field] * seats, lineups)


def sweep(
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


def until(
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


def sweep_until(
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


def variant_overrides(f: ExperimentFile, path: Path) -> dict[str, tuple[dict[str, Any], str]]:
    """Each variant's overrides of [rules], from [variants.*] and the combinations of [grid], with
    the config path they were written under."""
    out: dict[str, tuple[dict[str, Any], str]] = {}
    for name, over in f.variants.items():
        if not re.match(NAME_PATTERN, name):
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
            name = "+".join(f"{k}-{value_label(v)}" for k, v in over.items())
            if not re.match(NAME_PATTERN, name):
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


def value_label(v: Any) -> str:
    if isinstance(v, list):  # a set option's value: its members
        return ".".join(value_label(x) for x in v) or "none"
    return str(v).lower() if isinstance(v, bool) else str(v)


def resolve_rules(
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
