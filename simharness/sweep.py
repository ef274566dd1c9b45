"""One-option-at-a-time designs around a base rule set (``[sweep]`` and ``simharness sweep``).

Each rule option gets one variant per value other than the base's: every other choice of an enum,
the other truth value, each member of a set switched on or off, and for numbers a few levels
(``numeric_levels``: half and double the base value, or a tenth of the range above a zero base,
clipped to the option's range) unless ``[sweep.levels]`` names them. A variant is named
``<option>-<value>`` (option names never contain ``-``, so the option is the part before the first
one), all share keyed chance with ``base``, so each effect is paired deal by deal. A value the
engine rejects with the base (a contradiction between options, a player count the lineup cannot
seat) is skipped with the engine's reason, never silently.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from simharness import engine

BASE = "base"


@dataclass(frozen=True)
class Design:
    """The variants of a sweep: ``variants`` maps a name to its overrides of the base rules (base: {}),
    ``option_of`` a variant to its option, ``skipped`` an option value the engine refused to its reason."""

    variants: dict[str, dict[str, Any]]
    option_of: dict[str, str]
    skipped: dict[str, str] = field(default_factory=dict)


def label(value: Any) -> str:
    """A value as it appears in a variant name."""
    if isinstance(value, list):
        return ".".join(label(x) for x in value) or "none"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def option_of(variant: str) -> str | None:
    """The option a sweep variant changes (None for the base)."""
    return None if variant == BASE else variant.split("-", 1)[0]


def numeric_levels(spec: engine.OptionSpec, base: Any) -> list[Any]:
    """The documented default levels of a numeric option around the base value ``base``."""
    lo = spec.min if spec.min is not None else -math.inf
    hi = spec.max if spec.max is not None else math.inf
    if base is None:  # an "int|none" option at none: its lowest allowed value stands in
        return [int(lo)] if math.isfinite(lo) else []
    if base == 0:
        step = (hi - lo) / 10 if math.isfinite(hi) and math.isfinite(lo) else 1
        raw = [lo + step if lo == 0 else lo]
    else:
        raw = [base / 2, base * 2]
    as_int = spec.type.startswith("int")
    out: list[Any] = []
    for x in raw:
        x = min(max(x, lo), hi)
        v: Any = round(x) if as_int else float(x)
        if as_int and v == base:  # a range too narrow for halving: the neighbours instead
            v = base + 1 if base + 1 <= hi else base - 1
        if v != base and v not in out:
            out.append(v)
    return out


def values(spec: engine.OptionSpec, base: Any) -> list[Any]:
    """Every value a sweep tries for ``spec`` whose base value is ``base``."""
    if spec.type == "bool":
        return [not base]
    if spec.type == "choice":
        return [c for c in spec.choices if c != base]
    if spec.type == "set":
        members = list(base)
        return [[m for m in members if m != c] if c in members else [*members, c] for c in spec.choices]
    return numeric_levels(spec, base)


def design(
    game: str,
    preset: str,
    base: dict[str, Any],
    options: Iterable[str] | None = None,
    levels: dict[str, list[Any]] | None = None,
) -> Design:
    """The one-option-at-a-time variants of ``options`` (None: every rule option) around the base
    (``preset`` with ``base`` overrides); ``levels`` replaces the values tried for an option."""
    specs = {s.name: s for s in engine.rule_options(game)}
    resolved = engine.resolve_rules(game, preset, base)
    variants: dict[str, dict[str, Any]] = {BASE: {}}
    owner: dict[str, str] = {}
    skipped: dict[str, str] = {}
    # An option that chooses the luck dealt, not the play (the engine marks it), would show luck as
    # a rule's effect: every rule option (`options=None`) leaves it out.
    for name in options if options is not None else [n for n, s in specs.items() if not s.chance]:
        spec = specs[name]
        tried = (levels or {}).get(name) or values(spec, resolved[name])
        for v in tried:
            vname = f"{name}-{label(v)}"
            try:
                engine.resolve_rules(game, preset, {**base, name: v})
            except engine.OptionError as e:
                skipped[vname] = e.message
                continue
            variants[vname] = {name: v}
            owner[vname] = name
    return Design(variants, owner, skipped)


def same_games(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two variants' tables (name → polars DataFrame, without the variant column) are equal
    row for row: the variant played exactly the base's games."""
    return a.keys() == b.keys() and all(a[t].equals(b[t]) for t in a)
