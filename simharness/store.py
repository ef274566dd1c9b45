"""The run directory: a manifest, atomic Parquet shards with provenance, and reading a run back.

```
RUN_DIR/manifest.json
RUN_DIR/<table>/variant=<v>/part-<first game, 10 digits>.parquet
```
A shard is written to a hidden temporary name in its own folder, fsynced and renamed, so a final
name always holds a complete file. Each shard's Parquet metadata (key ``simharness``) says which run
(config hash), variant, table and games it holds; a file whose metadata is missing, unreadable or
from another run is reported by name and never overwritten.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq

from simharness.errors import RunDirError

META_KEY = b"simharness"
MANIFEST = "manifest.json"
# Version of the run-directory layout, bumped when an old reader could misread a new directory.
FORMAT = 1

_SHARD = re.compile(r"^part-(\d+)\.parquet$")
_TMP_SUFFIX = ".tmp"


def shard_path(run_dir: Path, table: str, variant: str, first_game: int) -> Path:
    return run_dir / table / f"variant={variant}" / f"part-{first_game:010d}.parquet"


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _atomic_write(path: Path, write: Any) -> None:
    """Calls ``write(file)`` on a temporary file beside ``path``, then renames it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}{_TMP_SUFFIX}")
    try:
        with open(tmp, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(e, OSError) and e.filename is None:
            e.filename = str(path)  # a full disk or file-size limit names no file by itself
        raise
    _fsync_dir(path.parent)


def shard_bytes(df: pl.DataFrame, meta: dict[str, Any]) -> bytes:
    """The Parquet file of one shard with ``meta`` (plus its row count) as its provenance."""
    table = df.to_arrow()
    meta = {**meta, "rows": df.height}
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), META_KEY: json.dumps(meta)})
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd")
    return buf.getvalue()


def write_shard(path: Path, data: bytes) -> None:
    """Writes one shard's file (:func:`shard_bytes`) atomically."""
    _atomic_write(path, lambda fh: fh.write(data))


def shard_meta(path: Path) -> dict[str, Any]:
    """The provenance of a shard; a file that is not a complete simharness shard is an error naming it."""
    try:
        md = pq.read_metadata(path)
    except Exception as e:
        raise RunDirError(
            f"corrupt Parquet file ({e}); move it away or delete it to re-run its games", file=path
        ) from None
    raw = (md.metadata or {}).get(META_KEY)
    if raw is None:
        raise RunDirError("not a simharness shard (no simharness metadata); move it away", file=path)
    try:
        meta = json.loads(raw)
    except ValueError:
        raise RunDirError("unreadable simharness metadata; move it away", file=path) from None
    if md.num_rows != meta.get("rows"):
        raise RunDirError(
            f"holds {md.num_rows} rows but was written with {meta.get('rows')}; "
            "delete it to re-run its games",
            file=path,
        )
    return meta


def write_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, indent=2, sort_keys=False).encode() + b"\n"
    _atomic_write(run_dir / MANIFEST, lambda fh: fh.write(text))


def read_manifest(run_dir: Path) -> dict[str, Any] | None:
    path = run_dir / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RunDirError(f"unreadable run manifest ({e})", file=path) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise RunDirError(f"not a simharness run manifest of format {FORMAT}", file=path)
    return manifest


def _parquet_files(run_dir: Path) -> list[Path]:
    return sorted(p for p in run_dir.rglob("*.parquet") if p.is_file())


def clear(run_dir: Path) -> None:
    """Removes a previous run's manifest, shards and temporary files (``--force``); other files stay."""
    for p in [*_parquet_files(run_dir), *run_dir.rglob(f".part-*{_TMP_SUFFIX}"), run_dir / MANIFEST]:
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


@dataclass(frozen=True)
class Plan:
    """The shards an experiment writes, computed from its size (never listed: a plan of 10^12 games
    is as small as one of ten)."""

    config_hash: str
    tables: tuple[str, ...]
    variants: tuple[str, ...]
    games: int
    shard_size: int

    @classmethod
    def of(cls, manifest: dict[str, Any]) -> Plan:
        return cls(
            manifest["config_hash"],
            tuple(manifest["tables"]),
            tuple(manifest["variants"]),
            int(manifest["games"]),
            int(manifest["shard_size"]),
        )

    def firsts(self, games: int | None = None) -> range:
        """The first game of every shard of one variant (of the first ``games`` games if given)."""
        return range(0, self.games if games is None else games, self.shard_size)

    def count(self, first: int) -> int | None:
        """Games in the shard starting at ``first``, or None if no shard starts there."""
        if first % self.shard_size or not 0 <= first < self.games:
            return None
        return min(self.shard_size, self.games - first)


Key = tuple[str, str, int]  # (table, variant, first game) of a shard


def _check(run_dir: Path, plan: Plan, foreign_hint: str) -> set[Key]:
    """The shards in ``run_dir``, each checked against ``plan`` (name, config hash, table, variant,
    games); any Parquet file that is not a valid shard of the plan is an error naming it."""
    done = set()
    for path in _parquet_files(run_dir):
        rel = path.relative_to(run_dir).parts
        m = _SHARD.match(path.name)
        key, count = None, None
        if m and len(rel) == 3 and rel[1].startswith("variant="):
            key = (rel[0], rel[1].removeprefix("variant="), int(m.group(1)))
            if key[0] in plan.tables and key[1] in plan.variants:
                count = plan.count(key[2])
        if key is None or count is None or path != shard_path(run_dir, *key):
            raise RunDirError(
                "not a shard of this run's plan (tables, variants, games, shard size); move it away",
                file=path,
            )
        meta = shard_meta(path)
        if meta.get("config_hash") != plan.config_hash:
            raise RunDirError(
                f"belongs to another experiment (config hash {meta.get('config_hash')}, this one "
                f"{plan.config_hash}); {foreign_hint}",
                file=path,
            )
        if (meta.get("table"), meta.get("variant"), meta.get("first_game"), meta.get("count")) != (
            *key,
            count,
        ):
            raise RunDirError("its metadata does not match its name; move it away", file=path)
        done.add(key)
    return done


def scan(run_dir: Path, plan: Plan) -> set[Key]:
    """The shards already complete in ``run_dir``.

    Temporary files of a killed run are removed (they never hold a finished shard). Any Parquet file
    that is not a valid shard of this run is an error naming it.
    """
    for tmp in run_dir.rglob(f".part-*{_TMP_SUFFIX}"):
        tmp.unlink()
    return _check(run_dir, plan, "use --force to replace that run or --out for a new directory")


@dataclass
class Run:
    """A run directory read back: the manifest and its tables.

    ``firsts`` are the shards (by first game) that every table reads: all of them for a finished
    run; for a partial one (``open_run(partial=True)``) those present in every variant and table, so
    that every comparison is between the same deals. ``warning`` then says what is missing.
    ``own`` overrides ``firsts`` for variants that played fewer games (a sweep stopped per variant).
    """

    path: Path
    manifest: dict[str, Any]
    firsts: Sequence[int]
    warning: str | None = None
    own: dict[str, Sequence[int]] = field(default_factory=dict)

    @property
    def tables(self) -> list[str]:
        return list(self.manifest["tables"])

    @property
    def variants(self) -> list[str]:
        return list(self.manifest["variants"])

    @property
    def complete(self) -> bool:
        return bool(self.manifest.get("complete"))

    def files(self, table: str, variant: str) -> list[Path]:
        return [shard_path(self.path, table, variant, first) for first in self.own.get(variant, self.firsts)]

    def shards(self) -> int:
        """Shards (files per table) this run reads, over every variant."""
        return sum(len(self.own.get(v, self.firsts)) for v in self.variants)

    def chunks(self, games: int) -> Iterator[tuple[Run, int]]:
        """The run as sub-runs of whole shards (about ``games`` games per variant each, at least one
        shard) and the shards each reads over every variant (:meth:`shards`). A deal never straddles
        a shard and the variants share their shards' games, so a chunk holds every row of its deals
        in every variant (a variant that stopped early has none in the later chunks)."""
        per = max(1, games // int(self.manifest["shard_size"]))
        firsts = sorted(set(self.firsts).union(*self.own.values()))
        for i in range(0, len(firsts), per):
            keep = set(firsts[i : i + per])
            sub = replace(
                self,
                firsts=tuple(f for f in self.firsts if f in keep),
                own={v: tuple(f for f in fs if f in keep) for v, fs in self.own.items()},
            )
            yield sub, sub.shards()

    def scan(self, name: str, variant: str) -> pl.LazyFrame:
        """A lazy scan of one variant's shards of table ``name`` (without the ``variant`` column)."""
        return pl.scan_parquet(self.files(name, variant))

    def table(self, name: str) -> pl.DataFrame:
        """Every shard of table ``name``, in variant (manifest) then game order, with a ``variant`` column."""
        if name not in self.tables:
            raise RunDirError(f'no table "{name}"; expected one of: {", ".join(self.tables)}', file=self.path)
        frames = []
        for v in self.variants:
            for path in self.files(name, v):
                try:
                    df = pl.read_parquet(path)
                except Exception as e:
                    raise RunDirError(f"corrupt Parquet file ({e})", file=path) from None
                frames.append(df.with_columns(variant=pl.lit(v, pl.String)))
        if not frames:
            raise RunDirError(f'table "{name}" has no shards yet', file=self.path)
        df = pl.concat(frames, how="vertical")
        return df.select("variant", pl.exclude("variant"))


def expected_games(manifest: dict[str, Any], variant: str | None = None) -> int:
    """Games per variant a finished run holds: all of them, or as many as its sequential test played;
    in a sweep stopped per variant (``sweep_sequential``), as many as ``variant``'s test played
    (the base and, without ``variant``, the most any variant played)."""
    if not manifest.get("complete"):
        return int(manifest["games"])
    seq = manifest.get("sequential") or manifest.get("sweep_sequential")
    if not seq:
        return int(manifest["games"])
    own = (seq.get("variants") or {}).get(variant)
    return int(own["games"] if own else seq["games"])


def _whole(plan: Plan, done: set[Key], variants: tuple[str, ...]) -> set[int]:
    """First games of the shards present in every table of every one of ``variants``."""
    return set.intersection(
        *({f for t2, v2, f in done if (t2, v2) == (t, v)} for t in plan.tables for v in variants)
    )


def missing(plan: Plan, manifest: dict[str, Any], done: set[Key]) -> str | None:
    """What a run lacks, per variant, or None if it is whole."""
    parts = []
    for v in plan.variants:
        want = expected_games(manifest, v)
        have = sum(plan.count(f) or 0 for f in _whole(plan, done, (v,)) if f < want)
        if have < want:
            parts.append(f"variant {v} has {have:,} of {want:,} games")
    if not parts and manifest.get("complete"):
        return None
    state = "finished" if manifest.get("complete") else "not finished (killed, failed or still running)"
    lacking = "; ".join(parts) or "every shard is there, but the manifest does not mark it complete"
    return f"the run is {state}: {lacking}"


def open_run(path: Path | str, *, partial: bool = False) -> Run:
    """The run in directory ``path`` (as written by ``simharness run``), every shard checked against
    the manifest (a file of another experiment, variant or game range is an error naming it).

    An unfinished run (killed, failed, still running, or missing shards) is an error unless
    ``partial``; then only the games present in every variant and table are read, and
    ``Run.warning`` says what is missing.
    """
    path = Path(path)
    manifest = read_manifest(path)
    if manifest is None:
        raise RunDirError(f"not a run directory (no {MANIFEST})", file=path)
    plan = Plan.of(manifest)
    done = _check(path, plan, "move it away: it is not part of this run")
    lacking = missing(plan, manifest, done)
    if lacking is None:
        own = {v: plan.firsts(expected_games(manifest, v)) for v in plan.variants}
        return Run(path, manifest, plan.firsts(expected_games(manifest)), own=own)
    if not partial:
        raise RunDirError(
            f"{lacking}. Finish it by running its config again, or read what is there with "
            "`report --partial` (Python: open_run(path, partial=True))",
            file=path,
        )
    firsts = tuple(sorted(_whole(plan, done, plan.variants)))
    games = sum(plan.count(f) or 0 for f in firsts)
    warning = (
        f"PARTIAL RUN: {lacking}. Every table and comparison uses only the {games:,} games per "
        "variant present in every variant and table."
    )
    return Run(path, manifest, firsts, warning)
