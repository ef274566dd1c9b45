"""The run directory: a manifest, atomic Parquet shards with provenance, and reading a run back.

```
RUN_DIR/manifest.json
RUN_DIR/<table>/variant=<v>/part-<first game, 10 digits>.parquet
```
A shard is written to a hidden temporary name in its own folder, fsynced and renamed, so a final
name always holds a complete file. Each shard's Parquet metadata (key ``simharness``) says which run
(config hash), variant, table and games it holds; a file whose metadata is missing, unreadable or
from another run is reported by name and never overwritten.

Every shard carries the SHA-256 of its own bytes (key ``simharness.sha256`` of the footer, computed
with those 64 digits written as zeros), checked each time the shard is read: a flipped bit anywhere
in the file, data pages or footer, is reported as corruption naming it, never decoded as data. The
manifest (:mod:`simharness.manifest`) holds the experiment's identity (what its ``config_hash`` is
the hash of) and is checked against it on every read, so that an edited field is refused rather
than reported.

Nothing in a run directory is written through a symbolic link: the files simharness creates there
(shards, manifest, lock, ``show`` pages) refuse a link in their place or on their way.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from polars.exceptions import PanicException

from simharness.errors import RunDirError
from simharness.manifest import Manifest, Stage
from simharness.manifest import load as load_manifest

META_KEY = b"simharness"
CHECKSUM_KEY = b"simharness.sha256"
MANIFEST = "manifest.json"
LOCK = ".lock"

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


@contextlib.contextmanager
def naming(path: Path) -> Iterator[None]:
    """Names ``path`` in an OSError raised inside that names no file (a full disk or a file-size
    limit fails a write, which knows no path), so that the message says which file."""
    try:
        yield
    except OSError as e:
        if e.filename is None:
            e.filename = str(path)
        raise


def no_link(path: Path) -> None:
    """Refuses a symbolic link at ``path``: writing through it would change a file outside the run."""
    if path.is_symlink():
        raise RunDirError(
            "is a symbolic link; simharness writes only its own files in a run directory: remove the link",
            file=path,
        )


def _make_dirs(root: Path, folder: Path) -> None:
    """Creates ``folder`` and the folders between it and ``root``, refusing a link among them."""
    root.mkdir(parents=True, exist_ok=True)
    here = root
    for part in folder.relative_to(root).parts:
        here = here / part
        # One lstat for a folder that is there (every shard after a folder's first): it is neither
        # made again nor a link.
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISDIR(os.lstat(here).st_mode):
                continue
        no_link(here)
        with contextlib.suppress(FileExistsError):
            here.mkdir()


def write_file(path: Path, data: bytes, root: Path, *, sync_folder: bool = True) -> None:
    """Writes ``data`` to ``path`` (inside the run directory ``root``) atomically: a temporary file
    beside it, fsynced, then renamed into place, and the rename made durable by fsyncing the folder
    (unless ``sync_folder`` is False: the caller fsyncs it later, :func:`sync_folders`). A link at
    ``path`` or among the folders between it and ``root`` is refused."""
    with naming(path):
        _make_dirs(root, path.parent)
        no_link(path)
        tmp = path.with_name(f".{path.name}.{os.getpid()}{_TMP_SUFFIX}")
        # A killed run's temporary file, or a link planted under its name: unlink removes the link
        # itself, and O_EXCL | O_NOFOLLOW then creates a new file or fails.
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise
        if sync_folder:
            _fsync_dir(path.parent)


# The SHA-256 of a shard is of its bytes with its own 64 hex digits written as zeros. In the footer
# they follow the key in Thrift's compact encoding of a key/value pair (the value field's header
# 0x18, then its length 64 = 0x40), so they are found without parsing the footer: a damaged footer is
# told by its checksum before any Parquet reader sees it.
_UNSET = b"0" * 64
_DIGEST = re.compile(re.escape(CHECKSUM_KEY) + rb"\x18\x40([0-9a-f]{64})")


def _digest_at(data: bytes) -> tuple[int, bytes] | None:
    """Where the footer of a Parquet file's bytes holds its SHA-256, and the digits; None if it holds none."""
    if len(data) < 12 or data[-4:] != b"PAR1":
        return None
    start = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    found = list(_DIGEST.finditer(data, max(start, 0), len(data) - 8))
    return (found[0].start(1), found[0].group(1)) if len(found) == 1 else None


def _sha256(data: bytes, at: int) -> bytes:
    view = memoryview(data)
    h = hashlib.sha256(view[:at])
    h.update(_UNSET)
    h.update(view[at + len(_UNSET) :])
    return h.hexdigest().encode()


def shard_bytes(table: pa.Table, meta: dict[str, Any]) -> bytes:
    """The Parquet file of one shard with ``meta`` (plus its row count) as its provenance and the
    SHA-256 of its bytes in its footer."""
    meta = {**meta, "rows": table.num_rows, "checksum": "sha256"}
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), META_KEY: json.dumps(meta)})
    # An Arrow stream, not a BytesIO: each page is written without a call back into Python.
    buf = pa.BufferOutputStream()
    with pq.ParquetWriter(buf, table.schema, compression="zstd") as writer:
        writer.write_table(table)
        writer.add_key_value_metadata({CHECKSUM_KEY: _UNSET})
    data = buf.getvalue().to_pybytes()
    found = _digest_at(data)
    assert found is not None and found[1] == _UNSET, "the footer holds the checksum's place once"
    at = found[0]
    return data[:at] + _sha256(data, at) + data[at + len(_UNSET) :]


def write_shard(path: Path, data: bytes) -> None:
    """Writes one shard's file (:func:`shard_bytes`) atomically; ``path`` is a :func:`shard_path`.

    Its folder is fsynced once for all its shards (:func:`sync_folders`), not once per shard (as
    long again as writing the file, on a fast game): until then a crash of the machine may lose the
    rename, never the file's content, so the shard is either whole under its name or played again.
    """
    write_file(path, data, root=path.parents[2], sync_folder=False)


def sync_folders(run_dir: Path, tables: Sequence[str], variants: Sequence[str]) -> None:
    """Makes the renames of :func:`write_shard` in ``run_dir`` durable: fsyncs every shard folder
    there is."""
    for table in tables:
        for variant in variants:
            folder = shard_path(run_dir, table, variant, 0).parent
            with contextlib.suppress(FileNotFoundError):
                _fsync_dir(folder)


@contextlib.contextmanager
def folders_synced(run_dir: Path, tables: Sequence[str], variants: Sequence[str]) -> Iterator[None]:
    """Around the writing of a run's shards: :func:`sync_folders` when it ends, so that what the
    manifest then says is on disk is, and when it stops (Ctrl-C, an error), so that the shards kept
    stay; the error that stopped it is the one raised, not a failing fsync's."""
    try:
        yield
    except BaseException:
        with contextlib.suppress(OSError):
            sync_folders(run_dir, tables, variants)
        raise
    sync_folders(run_dir, tables, variants)


def _corrupt(path: Path, why: object) -> RunDirError:
    return RunDirError(
        f"corrupt Parquet file ({why}); move it away or delete it to re-run its games", file=path
    )


def _footer_meta(path: Path, source: Any) -> tuple[dict[str, Any], bool]:
    """The provenance in a shard's footer and whether the shard carries a checksum (a shard written
    before simharness wrote them does not); a file that is not a complete simharness shard is an
    error naming it."""
    try:
        md = pq.read_metadata(source)
    except Exception as e:
        raise _corrupt(path, e) from None
    kv = md.metadata or {}
    raw = kv.get(META_KEY)
    if raw is None:
        raise RunDirError("not a simharness shard (no simharness metadata); move it away", file=path)
    try:
        meta = json.loads(raw)
    except ValueError:
        meta = None
    if not isinstance(meta, dict):
        raise RunDirError("unreadable simharness metadata; move it away", file=path)
    if md.num_rows != meta.get("rows"):
        raise RunDirError(
            f"holds {md.num_rows} rows but was written with {meta.get('rows')}; "
            "delete it to re-run its games",
            file=path,
        )
    return meta, CHECKSUM_KEY in kv or "checksum" in meta


def shard_meta(path: Path) -> dict[str, Any]:
    """The provenance of a shard, from its footer alone (its data is checked when it is read)."""
    return _footer_meta(path, path)[0]


def _verified(path: Path) -> tuple[bytes, dict[str, Any], bool]:
    """A shard's bytes and provenance, its checksum verified, and whether it had one (a shard
    written before checksums is read as it is: a flipped bit in it cannot be told from data)."""
    data = path.read_bytes()
    found = _digest_at(data)
    if found is not None and _sha256(data, found[0]) != found[1]:
        raise _corrupt(path, "its SHA-256 does not match its bytes: it changed after it was written")
    meta, checked = _footer_meta(path, pa.BufferReader(data))
    if checked and found is None:
        raise _corrupt(path, "its SHA-256 is missing or damaged")
    return data, meta, checked


def _decode(path: Path, data: bytes, checked: bool) -> pl.DataFrame:
    """The rows of a shard's bytes (:func:`_verified`). Bytes without a checksum may be damaged, and
    polars panics or aborts on some damaged files: pyarrow reads them, and refuses what it can tell."""
    try:
        if checked:
            return pl.read_parquet(data)
        table = pq.read_table(pa.BufferReader(data))
        table.validate(full=True)  # e.g. a string that is not UTF-8, which polars would panic on
        df = pl.from_arrow(table.replace_schema_metadata(None))  # a damaged key too
    except (Exception, PanicException) as e:
        raise _corrupt(path, e) from None
    assert isinstance(df, pl.DataFrame)
    return df


def write_manifest(run_dir: Path, manifest: Manifest) -> None:
    text = json.dumps(manifest.to_json(), indent=2, sort_keys=False).encode() + b"\n"
    write_file(run_dir / MANIFEST, text, root=run_dir)


def read_manifest(run_dir: Path) -> Manifest | None:
    """The run's manifest, or None if there is none; one that is unreadable, malformed or whose
    identity fields do not match its config hash is an error naming the field (:func:`manifest.load`)."""
    path = run_dir / MANIFEST
    if not path.exists():
        return None
    return load_manifest(path)


def _parquet_files(run_dir: Path) -> list[Path]:
    return sorted(p for p in run_dir.rglob("*.parquet") if p.is_file())


# The temporary files of write_file in a run directory: a shard's or the manifest's.
_TMP = re.compile(r"^\.(part-\d+\.parquet|manifest\.json)\.\d+\.tmp$")


def clear(run_dir: Path, plans: Sequence[Plan]) -> list[Path]:
    """Removes the manifest, temporary files and the shards of ``plans`` (``--force``: the run being
    replaced and the one replacing it), each known by its name, and the folders left empty; returns
    what stays (the lock aside): a user's file, a ``show`` page. Links are removed, never followed.

    A Parquet file that is neither plan's shard is refused before anything is removed: it would stop
    the run anyway (:func:`scan`), and only the run's own files are ``--force``'s to delete.
    """
    remove: list[Path] = []
    left: list[Path] = []
    for top, dirs, files in os.walk(run_dir):
        here = Path(top)
        left += [here / d for d in dirs if (here / d).is_symlink()]  # not walked into
        for name in files:
            path = here / name
            if _TMP.match(name) or any(_key(run_dir, plan, path) is not None for plan in plans):
                remove.append(path)
            elif path not in (run_dir / LOCK, run_dir / MANIFEST):
                left.append(path)
    stray = next((p for p in sorted(left) if p.suffix == ".parquet"), None)
    if stray is not None:
        raise RunDirError(
            "not a shard of the run in this directory nor of the one replacing it; move it away "
            "(--force removes only the run's own files)",
            file=stray,
        )
    with contextlib.suppress(FileNotFoundError):
        (run_dir / MANIFEST).unlink()
    for path in remove:
        path.unlink()
    for folder in sorted({p.parent for p in remove}, key=lambda p: -len(p.parts)):
        while folder != run_dir:
            try:
                folder.rmdir()
            except OSError:  # not empty: what is left in it is listed
                break
            folder = folder.parent
    return sorted(left)


@dataclass(frozen=True)
class Plan:
    """The shards an experiment writes, computed from its size (never listed: a plan of 10^12 games
    is as small as one of ten).

    A run that grew keeps the shards of its earlier stages as they were written: ``earlier`` are
    those stages, in order (stage k holds the games from the end of stage k−1 to its own ``games``,
    in its own shards, each carrying its stage's config hash); the last stage is the plan's own
    ``games``, ``shard_size`` and ``config_hash``. Game i is the same in every stage (keyed chance),
    so the grown run holds the rows of a fresh run of its games, in other shards.
    """

    config_hash: str
    tables: tuple[str, ...]
    variants: tuple[str, ...]
    games: int
    shard_size: int
    earlier: tuple[Stage, ...] = ()

    @classmethod
    def of(cls, manifest: Manifest) -> Plan:
        return cls(
            manifest.config_hash,
            manifest.tables,
            tuple(manifest.variants),
            manifest.games,
            manifest.shard_size,
            (manifest.stages or ())[:-1],
        )

    def stages(self) -> list[tuple[int, Stage]]:
        """Each stage with the first game it holds."""
        out, lo = [], 0
        for stage in (*self.earlier, Stage(self.games, self.shard_size, self.config_hash)):
            out.append((lo, stage))
            lo = stage.games
        return out

    def between(self, lo: int, hi: int) -> Sequence[int]:
        """The first games of the shards (of one variant) that start in games [lo, hi)."""
        if not self.earlier:
            return range(-(-lo // self.shard_size) * self.shard_size, min(hi, self.games), self.shard_size)
        firsts: list[int] = []
        for start, stage in self.stages():
            step = stage.shard_size
            first = start + -(-max(lo - start, 0) // step) * step
            firsts += range(first, min(hi, stage.games), step)
        return firsts

    def firsts(self, games: int | None = None) -> Sequence[int]:
        """The first game of every shard of one variant (of the first ``games`` games if given)."""
        return self.between(0, self.games if games is None else games)

    def _stage(self, first: int) -> tuple[int, Stage] | None:
        """The stage whose shard starts at ``first``, with its first game; None if no shard starts there."""
        for start, stage in self.stages():
            if start <= first < stage.games:
                return None if (first - start) % stage.shard_size else (start, stage)
        return None

    def count(self, first: int) -> int | None:
        """Games in the shard starting at ``first``, or None if no shard starts there."""
        found = self._stage(first)
        return None if found is None else min(found[1].shard_size, found[1].games - first)

    def hash_at(self, first: int) -> str | None:
        """The config hash the shard starting at ``first`` was written under (its stage's)."""
        found = self._stage(first)
        return None if found is None else found[1].config_hash

    def first_of(self, game: int) -> int:
        """The first game of the shard that holds ``game`` (past the plan: as if its last stage went on)."""
        start, stage = next(((lo, st) for lo, st in self.stages() if game < st.games), self.stages()[-1])
        return game - (game - start) % stage.shard_size


Key = tuple[str, str, int]  # (table, variant, first game) of a shard
_FOREIGN = "move it away: it is not part of this run"


def _key(run_dir: Path, plan: Plan, path: Path) -> Key | None:
    """The shard of ``plan`` that ``path`` names, or None if it names none."""
    rel = path.relative_to(run_dir).parts
    m = _SHARD.match(path.name)
    if not (m and len(rel) == 3 and rel[1].startswith("variant=")):
        return None
    key = (rel[0], rel[1].removeprefix("variant="), int(m.group(1)))
    if key[0] not in plan.tables or key[1] not in plan.variants or plan.count(key[2]) is None:
        return None
    return key if path == shard_path(run_dir, *key) else None


def _check_meta(path: Path, plan: Plan, key: Key, meta: dict[str, Any], foreign_hint: str) -> None:
    """Refuses a shard whose provenance is not of ``plan``'s experiment or not the shard its name says."""
    if meta.get("config_hash") != plan.hash_at(key[2]):
        raise RunDirError(
            f"belongs to another experiment (config hash {meta.get('config_hash')}, this one "
            f"{plan.hash_at(key[2])}); {foreign_hint}",
            file=path,
        )
    stated = (meta.get("table"), meta.get("variant"), meta.get("first_game"), meta.get("count"))
    if stated != (*key, plan.count(key[2])):
        raise RunDirError("its metadata does not match its name; move it away", file=path)


def _check(run_dir: Path, plan: Plan, foreign_hint: str, *, verify: bool = False) -> tuple[set[Key], int]:
    """The shards in ``run_dir``, each checked against ``plan`` (name, config hash, table, variant,
    games), and how many of them carry no checksum; any Parquet file that is not a valid shard of the
    plan is an error naming it. ``verify`` reads every shard whole and checks its SHA-256 too (else
    only its footer is read, and its data is checked when it is read)."""
    done, unchecked = set(), 0
    for path in _parquet_files(run_dir):
        key = _key(run_dir, plan, path)
        if key is None:
            raise RunDirError(
                "not a shard of this run's plan (tables, variants, games, shard size); move it away",
                file=path,
            )
        meta, checked = _verified(path)[1:] if verify else _footer_meta(path, path)
        _check_meta(path, plan, key, meta, foreign_hint)
        done.add(key)
        unchecked += not checked
    return done, unchecked


def unchecked_note(count: int) -> str | None:
    """What to say of a run's shards written without a checksum (by a simharness before them)."""
    if not count:
        return None
    return (
        f"{count:,} shard{'s' if count > 1 else ''} of this run carry no checksum (written by an "
        "earlier simharness): they are read as they are, and a damaged one cannot be told from data"
    )


def scan(run_dir: Path, plan: Plan) -> tuple[set[Key], int]:
    """The shards already complete in ``run_dir``, every one's checksum verified, and how many carry
    none (:func:`unchecked_note`).

    Temporary files of a killed run are removed (they never hold a finished shard). Any Parquet file
    that is not a valid shard of this run, or whose bytes changed since it was written, is an error
    naming it.
    """
    for tmp in run_dir.rglob(f".part-*{_TMP_SUFFIX}"):
        tmp.unlink()
    hint = "use --force to replace that run or --out for a new directory"
    return _check(run_dir, plan, hint, verify=True)


def read_shard(run_dir: Path, plan: Plan, key: Key) -> pl.DataFrame:
    """The rows of shard ``key`` of ``plan`` in ``run_dir``, its checksum and its provenance
    checked: a changed, foreign or misplaced file is an error naming it, never read as data."""
    path = shard_path(run_dir, *key)
    data, meta, checked = _verified(path)
    _check_meta(path, plan, key, meta, _FOREIGN)
    return _decode(path, data, checked)


@dataclass
class Run:
    """A run directory read back: the manifest and its tables.

    ``firsts`` are the shards (by first game) that every table reads: all of them for a finished
    run; for a partial one (``open_run(partial=True)``) those present in every variant and table, so
    that every comparison is between the same deals. ``warning`` then says what is missing.
    ``own`` overrides ``firsts`` for variants that played fewer games (a sweep stopped per variant).
    ``note`` says how many shards carry no checksum (:func:`unchecked_note`).

    Every shard is checked as it is read (its SHA-256 and provenance): a changed file is an error
    naming it.
    """

    path: Path
    manifest: Manifest
    firsts: Sequence[int]
    warning: str | None = None
    own: dict[str, Sequence[int]] = field(default_factory=dict)
    note: str | None = None

    @property
    def tables(self) -> list[str]:
        return list(self.manifest.tables)

    @property
    def variants(self) -> list[str]:
        return list(self.manifest.variants)

    @property
    def complete(self) -> bool:
        return self.manifest.complete

    @property
    def plan(self) -> Plan:
        return Plan.of(self.manifest)

    def _firsts(self, variant: str) -> Sequence[int]:
        return self.own.get(variant, self.firsts)

    def files(self, table: str, variant: str) -> list[Path]:
        return [shard_path(self.path, table, variant, first) for first in self._firsts(variant)]

    def shards(self) -> int:
        """Shards (files per table) this run reads, over every variant."""
        return sum(len(self._firsts(v)) for v in self.variants)

    def chunks(self, games: int) -> Iterator[tuple[Run, int]]:
        """The run as sub-runs of whole shards (about ``games`` games per variant each, at least one
        shard) and the shards each reads over every variant (:meth:`shards`). A deal never straddles
        a shard and the variants share their shards' games, so a chunk holds every row of its deals
        in every variant (a variant that stopped early has none in the later chunks)."""
        per = max(1, games // self.manifest.shard_size)
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
        """A lazy scan of one variant's shards of table ``name`` (without the ``variant`` column),
        each shard checked first (read whole once, then scanned)."""
        plan = self.plan
        for first in self._firsts(variant):
            key = (name, variant, first)
            path = shard_path(self.path, *key)
            data, meta, checked = _verified(path)
            _check_meta(path, plan, key, meta, _FOREIGN)
            if not checked:  # pyarrow reads it first: polars never decodes unchecked bytes first
                _decode(path, data, checked)
        return pl.scan_parquet(self.files(name, variant))

    def table(self, name: str) -> pl.DataFrame:
        """Every shard of table ``name``, in variant (manifest) then game order, with a ``variant`` column."""
        if name not in self.tables:
            raise RunDirError(f'no table "{name}"; expected one of: {", ".join(self.tables)}', file=self.path)
        frames = []
        plan = self.plan
        for v in self.variants:
            for first in self._firsts(v):
                df = read_shard(self.path, plan, (name, v, first))
                frames.append(df.with_columns(variant=pl.lit(v, pl.String)))
        if not frames:
            raise RunDirError(f'table "{name}" has no shards yet', file=self.path)
        df = pl.concat(frames, how="vertical")
        return df.select("variant", pl.exclude("variant"))


def _whole(plan: Plan, done: set[Key], variants: tuple[str, ...]) -> set[int]:
    """First games of the shards present in every table of every one of ``variants``."""
    return set.intersection(
        *({f for t2, v2, f in done if (t2, v2) == (t, v)} for t in plan.tables for v in variants)
    )


def missing(plan: Plan, manifest: Manifest, done: set[Key]) -> str | None:
    """What a run lacks, per variant, or None if it is whole."""
    parts = []
    for v in plan.variants:
        want = manifest.expected_games(v)
        have = sum(plan.count(f) or 0 for f in _whole(plan, done, (v,)) if f < want)
        if have < want:
            parts.append(f"variant {v} has {have:,} of {want:,} games")
    if not parts and manifest.complete:
        return None
    state = "finished" if manifest.complete else "not finished (killed, failed or still running)"
    lacking = "; ".join(parts) or "every shard is there, but the manifest does not mark it complete"
    return f"the run is {state}: {lacking}"


def open_run(path: Path | str, *, partial: bool = False) -> Run:
    """The run in directory ``path`` (as written by ``simharness run``), every shard checked against
    the manifest (a file of another experiment, variant or game range is an error naming it).

    An unfinished run (killed, failed, still running, or missing shards) is an error unless
    ``partial``; then only the games present in every variant and table are read, and
    ``Run.warning`` says what is missing (none at all is an error).
    """
    path = Path(path)
    manifest = read_manifest(path)
    if manifest is None:
        raise RunDirError(f"not a run directory (no {MANIFEST})", file=path)
    plan = Plan.of(manifest)
    done, unchecked = _check(path, plan, _FOREIGN)
    note = unchecked_note(unchecked)
    lacking = missing(plan, manifest, done)
    if lacking is None:
        own = {v: plan.firsts(manifest.expected_games(v)) for v in plan.variants}
        return Run(path, manifest, plan.firsts(manifest.expected_games()), own=own, note=note)
    if not partial:
        raise RunDirError(
            f"{lacking}. Finish it by running its config again, or read what is there with "
            "`report --partial` (Python: open_run(path, partial=True))",
            file=path,
        )
    firsts = tuple(sorted(_whole(plan, done, plan.variants)))
    if not firsts:
        raise RunDirError(
            f"{lacking}; no game is in every variant and table yet, so there is nothing to read",
            file=path,
        )
    games = sum(plan.count(f) or 0 for f in firsts)
    warning = (
        f"PARTIAL RUN: {lacking}. Every table and comparison uses only the {games:,} games per "
        "variant present in every variant and table."
    )
    return Run(path, manifest, firsts, warning, note=note)
