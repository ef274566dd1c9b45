"""A run's manifest (``RUN_DIR/manifest.json``) as one typed, frozen record, and its single loader.

The runner makes a :class:`Manifest` and writes its JSON (:meth:`Manifest.to_json`); everything that
reads a run gets one from :func:`load`, which refuses a manifest that is unreadable, of another
format, missing a field or holding one of the wrong type (the message names the file, the field and
what was expected), or whose identity fields are not those its ``config_hash`` is the hash of. The
records of a sequential test inside it (``sequential``, ``sweep_sequential``) are
:mod:`simharness.stats.looks`'s.

The JSON is the one earlier releases wrote and read: a manifest written before a field was recorded
(``identity``, ``rank_points``, ``stages``) loads with that field None.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, TypeAdapter, ValidationError

from simharness import engine
from simharness.errors import RunDirError
from simharness.stats.looks import SweepRecord, UntilRecord
from simharness.tomlfile import field_path

# Version of the run-directory layout, bumped when an old reader could misread a new directory.
FORMAT = 1

Positive = Annotated[int, Field(gt=0)]


@dataclass(frozen=True, kw_only=True)
class Slot:
    """A lineup slot as played: ``strategy`` is the name the players table shows for it, ``knobs``
    the resolved knobs (a Python strategy's module among them) and ``source`` a Python strategy's
    file and the hash of its bytes (``strategies.source``)."""

    slot: int
    strategy: str
    knobs: Mapping[str, Any]
    script: str | None = None
    version: int | None = None
    source: Mapping[str, str] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "slot": self.slot,
            "strategy": self.strategy,
            **({"script": self.script} if self.script is not None else {}),
            **({"version": self.version} if self.version is not None else {}),
            "knobs": self.knobs,
            **({"source": self.source} if self.source else {}),
        }


@dataclass(frozen=True)
class Stage:
    """The games a run had after one of its stages (a run grows by stages: ``simharness run`` with
    more games), cut into shards of ``shard_size`` and written under ``config_hash``; in a
    manifest, also when and at which commit the stage was started."""

    games: Positive
    shard_size: Positive
    config_hash: str
    started: str | None = None
    git_commit: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "shard_size": self.shard_size,
            "config_hash": self.config_hash,
            "started": self.started,
            "git_commit": self.git_commit,
        }


@dataclass(frozen=True, kw_only=True)
class Manifest:
    """What a run is: its config resolved (``variants``: each variant's rules; ``lineup``, and
    ``lineups`` for the variants that seat their own), its size and shards, its identity and
    provenance, whether it is ``complete``, and how it grew (``stages``) or stopped (``sequential``,
    ``sweep_sequential``). ``challengers``, ``meta``, ``config`` and ``provenance`` are the records
    their own modules read (``report/challengers.py``, ``report/meta.py``, the config as written)."""

    name: str
    game: str
    description: str | None = None
    seed: Annotated[int, Field(ge=0)]
    games: Positive
    duplicate: bool
    shard_size: Positive
    preset: str | None = None
    variants: Annotated[Mapping[str, Mapping[str, Any]], Field(min_length=1)]
    lineup: Annotated[tuple[Slot, ...], Field(min_length=1)]
    lineups: Mapping[str, tuple[Slot, ...]] | None = None
    challengers: Mapping[str, Any] | None = None
    meta: Mapping[str, Any] | None = None
    rank_points: tuple[float, ...] | None = None
    tables: Annotated[tuple[str, ...], Field(min_length=1)]
    config_hash: str
    # What config_hash is the hash of: reading the run checks the fields above against it.
    identity: Mapping[str, Any] | None = None
    config_path: str | None = None
    config: Mapping[str, Any] | None = None
    provenance: Mapping[str, Any]
    complete: bool
    stages: Annotated[tuple[Stage, ...], Field(min_length=2)] | None = None
    sequential: UntilRecord | None = None
    sweep_sequential: SweepRecord | None = None

    def lineup_of(self, variant: str) -> tuple[Slot, ...]:
        """The lineup slots ``variant`` seats: its own (``lineups``: a lineup variant, a challenger),
        else the run's ``lineup``."""
        own = (self.lineups or {}).get(variant)
        return own if own is not None else self.lineup

    def expected_games(self, variant: str | None = None) -> int:
        """Games per variant a finished run holds: all of them, or as many as its sequential test
        played; in a sweep stopped per variant (``sweep_sequential``), as many as ``variant``'s test
        played (the base and, without ``variant``, the most any variant played)."""
        if not self.complete:
            return self.games
        if self.sequential is not None:
            return self.sequential.games
        if self.sweep_sequential is not None:
            return self.sweep_sequential.games_of(variant)
        return self.games

    @property
    def planned_deals(self) -> int:
        """Deals of the run's plan: its games per variant, over the lineup's seats under duplicate play."""
        return self.games // max(len(self.lineup), 1) if self.duplicate else self.games

    @property
    def look_every(self) -> int:
        """Games per variant between the looks of its sequential test (without one: a shard)."""
        test = self.sequential or self.sweep_sequential
        return (test.look_every if test is not None else None) or self.shard_size

    def to_json(self) -> dict[str, Any]:
        """The manifest as its file holds it (the keys in the order the runner writes them)."""

        def some(key: str, value: Any) -> dict[str, Any]:
            return {key: value} if value is not None else {}

        return {
            "format": FORMAT,
            "name": self.name,
            "game": self.game,
            **some("description", self.description),
            "seed": self.seed,
            "games": self.games,
            "duplicate": self.duplicate,
            "shard_size": self.shard_size,
            **some("preset", self.preset),
            "variants": self.variants,
            "lineup": [s.to_json() for s in self.lineup],
            **some("lineups", _lineups_json(self.lineups)),
            **some("challengers", self.challengers),
            **some("meta", self.meta),
            **some("rank_points", list(self.rank_points) if self.rank_points is not None else None),
            "tables": list(self.tables),
            "config_hash": self.config_hash,
            **some("identity", self.identity),
            **some("config_path", self.config_path),
            **some("config", self.config),
            "provenance": self.provenance,
            "complete": self.complete,
            **some("stages", [s.to_json() for s in self.stages] if self.stages is not None else None),
            **some("sequential", self.sequential.to_json() if self.sequential is not None else None),
            **some(
                "sweep_sequential",
                self.sweep_sequential.to_json() if self.sweep_sequential is not None else None,
            ),
        }


def _lineups_json(lineups: Mapping[str, tuple[Slot, ...]] | None) -> dict[str, Any] | None:
    if lineups is None:
        return None
    return {v: [s.to_json() for s in slots] for v, slots in lineups.items()}


@functools.cache
def _adapter() -> TypeAdapter[Manifest]:
    return TypeAdapter(Manifest)


def load(path: Path) -> Manifest:
    """The manifest in file ``path``: one that is unreadable, of another format, missing a field or
    holding one of the wrong type, or whose identity fields do not match its config hash is a
    :class:`RunDirError` naming the file and the field, and saying what was expected."""
    try:
        text = path.read_text(encoding="utf-8")
        fields = json.loads(text)
    except (OSError, ValueError) as e:
        raise RunDirError(f"unreadable run manifest ({e})", file=path) from None
    if not isinstance(fields, dict) or fields.get("format") != FORMAT:
        raise RunDirError(f"not a simharness run manifest of format {FORMAT}", file=path)
    try:
        manifest = _adapter().validate_json(text, strict=True)
    except ValidationError as e:
        err = e.errors()[0]
        got = f", got {err['input']!r}" if err["type"] != "missing" else ""
        raise RunDirError(
            f"malformed run manifest: {err['msg']}{got}", file=path, field=field_path(tuple(err["loc"]))
        ) from None
    _check_identity(path, fields)
    return manifest


IDENTITY = ("game", "games", "seed", "duplicate", "shard_size", "variants", "lineup", "lineups")


def identity_hash(identity: dict[str, Any]) -> str:
    """The config hash: of everything that determines the data (``config.Experiment.identity``)."""
    canonical = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def diff_paths(path: str, a: Any, b: Any) -> list[str]:
    """The paths below ``path`` where ``a`` and ``b`` differ, down to the option:
    ``variants.cap-500.payout_cap``, ``lineup[2].knobs.offset``, ``variants.fast`` (added or gone)."""
    if a == b:
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        return [p for k in dict.fromkeys([*a, *b]) for p in diff_paths(f"{path}.{k}", a.get(k), b.get(k))]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            p for i, (x, y) in enumerate(zip(a, b, strict=True)) for p in diff_paths(f"{path}[{i}]", x, y)
        ]
    return [path]


def changed_paths(old: Manifest, new: Manifest) -> list[str]:
    """The config paths whose values differ between two manifests' identity fields, down to the
    option: ``seed``, ``variants.cap-500.payout_cap``, ``lineup[2].knobs.offset``."""
    a, b = old.to_json(), new.to_json()
    return [p for k in IDENTITY for p in diff_paths(k, a.get(k), b.get(k))]


def _knobs(knobs: Any) -> Any:
    return engine.identity_knobs(knobs) if isinstance(knobs, dict) else knobs


def _identity(fields: dict[str, Any]) -> dict[str, Any]:
    """The identity fields of a manifest or of its recorded ``identity``, with each lineup slot's
    strategy and knobs (a recorded slot may hold more that makes its data: the manifest states these)."""
    # `lineups` is part of an identity only when a variant seats its own lineup (config.identity).
    own = {k: fields.get(k) for k in IDENTITY if k != "lineups" or k in fields}

    def slots(lineup: Any) -> Any:
        if not isinstance(lineup, list):
            return lineup
        return [
            {"strategy": s.get("strategy"), "knobs": _knobs(s.get("knobs"))} if isinstance(s, dict) else s
            for s in lineup
        ]

    own["lineup"] = slots(own["lineup"])
    lineups = own.get("lineups")
    if isinstance(lineups, dict):
        own["lineups"] = {v: slots(lineup) for v, lineup in lineups.items()}
    return own


_EDITED = "the manifest was edited or damaged; restore it, or run the config again with --force"


def _check_identity(path: Path, fields: dict[str, Any]) -> None:
    """Refuses a manifest whose identity fields are not those its ``config_hash`` was computed from:
    the recorded ``identity`` (in a manifest written before it was recorded: its own ``fields``)."""
    recorded = fields.get("identity") or _identity(fields)
    if identity_hash(recorded) != fields["config_hash"]:
        raise RunDirError(
            f"is {fields['config_hash']}, not the hash of the experiment the manifest records "
            f"({identity_hash(recorded)}): {_EDITED}",
            file=path,
            field="config_hash",
        )
    changed = diff_paths("", _identity(fields), _identity(recorded))
    changed += [f"lineup[{i}].slot" for i, s in enumerate(fields["lineup"]) if s["slot"] != i]
    changed += _stages_changed(fields, recorded)
    if changed:
        raise RunDirError(
            f"differs from the experiment the manifest's config_hash was computed from: {_EDITED}",
            file=path,
            field=changed[0].lstrip("."),
        )


def _stages_changed(fields: dict[str, Any], recorded: dict[str, Any]) -> list[str]:
    """The stages of a grown run (its manifest's ``fields``) that are not the recorded experiment at
    their size: each stage's config hash is the hash of the same experiment with its own games and
    shard size, the games grow from stage to stage, and the last stage is the manifest's own."""
    stages = fields.get("stages") or []
    bad, below = [], 0
    for i, st in enumerate(stages):
        own = identity_hash({**recorded, "games": st["games"], "shard_size": st["shard_size"]})
        if st["config_hash"] != own or st["games"] <= below:
            bad.append(f"stages[{i}]")
        below = st["games"]
    if stages and [stages[-1][k] for k in ("games", "shard_size", "config_hash")] != [
        fields[k] for k in ("games", "shard_size", "config_hash")
    ]:
        bad.append(f"stages[{len(stages) - 1}]")
    return bad
