"""Typed access to the Rust engine.

Metadata (games, rule options, presets, strategy knobs, table schemas) comes from the engine's
declarations, so the catalogue a user reads is the one the engine enforces. Batches come back as
polars DataFrames built from the engine's column buffers without a Python object per row.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa

from simharness import _engine

# A Python strategy's view is a read-only mapping built as it is read (engine/src/python/protocol.rs).
Mapping.register(_engine._View)


class OptionError(ValueError):
    """A rule option, strategy knob or other engine input was wrong.

    ``field`` names the offending option; ``message`` says what was expected.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def _call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return fn(*args, **kwargs)
    except ValueError as e:
        if len(e.args) == 2 and all(isinstance(a, str) for a in e.args):
            raise OptionError(e.args[0], e.args[1]) from None
        raise


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    min_players: int
    max_players: int
    spec: str

    @property
    def python_strategies(self) -> bool:
        """Whether the game can seat Python-protocol strategies (its engine layer implements the
        protocol: ``_engine.python_games()``)."""
        return self.name in _engine.python_games()


@dataclass(frozen=True)
class OptionSpec:
    """One house-rule option or strategy knob as the engine declares it."""

    name: str
    type: str
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    min: float | None = None
    max: float | None = None
    # Chooses which luck is dealt (a keyed-chance recipe), not how the game is played.
    chance: bool = False


@dataclass(frozen=True)
class Preset:
    name: str
    doc: str
    overrides: dict[str, Any]


@dataclass(frozen=True)
class ColumnSpec:
    """A column as the engine documents it. A coded column says what its values mean (the engine's
    own names, so no reader keeps a copy): ``labels`` (value i is ``labels[i]``), ``bits`` (bit i set
    means ``bits[i]`` is in), ``seat`` (a seat; negative or 255 is none) or ``seats`` (bit s per seat)."""

    name: str
    dtype: str
    doc: str
    labels: tuple[str, ...] | None = None
    bits: tuple[str, ...] | None = None
    seat: bool = False
    seats: bool = False


@dataclass(frozen=True)
class TableSchema:
    name: str
    doc: str
    columns: tuple[ColumnSpec, ...]


@cache
def games() -> tuple[GameInfo, ...]:
    """Every game the engine plays."""
    return tuple(GameInfo(**g) for g in json.loads(_engine.games_json()))


def game_names() -> list[str]:
    return [g.name for g in games()]


def game_info(game: str) -> GameInfo:
    for g in games():
        if g.name == game:
            return g
    raise OptionError("game", f'unknown game "{game}"; expected one of: {", ".join(game_names())}')


def _specs(raw: str) -> tuple[OptionSpec, ...]:
    out = []
    for s in json.loads(raw):
        s["choices"] = tuple(s.get("choices", ()))
        out.append(OptionSpec(**s))
    return tuple(out)


@cache
def rule_options(game: str) -> tuple[OptionSpec, ...]:
    """The house-rule options of ``game``, with types, defaults and meanings."""
    return _specs(_call(_engine.rule_options_json, game))


@cache
def knob_options(game: str) -> tuple[OptionSpec, ...]:
    """The strategy knobs of ``game``."""
    return _specs(_call(_engine.knob_options_json, game))


@cache
def presets(game: str) -> tuple[Preset, ...]:
    """Named base rule sets of ``game`` (``default`` is implicit: the spec's recommended defaults)."""
    return tuple(Preset(**p) for p in json.loads(_call(_engine.presets_json, game)))


@cache
def _tables(found: str) -> tuple[TableSchema, ...]:
    def column(c: dict[str, Any]) -> ColumnSpec:
        names: dict[str, Any] = {k: tuple(c[k]) for k in ("labels", "bits") if k in c}
        return ColumnSpec(**{**c, **names})

    return tuple(
        TableSchema(t["name"], t["doc"], tuple(column(c) for c in t["columns"])) for t in json.loads(found)
    )


@cache
def schema(game: str) -> tuple[TableSchema, ...]:
    """The tables a batch of ``game`` returns, with documented columns."""
    return _tables(_call(_engine.schema_json, game))


@cache
def show_schema(game: str) -> tuple[TableSchema, ...]:
    """The tables ``show`` adds to those of :func:`schema` (the events of a shown game), documented
    the same way."""
    return _tables(_call(_engine.show_schema_json, game))


def column(game: str, table: str, name: str) -> ColumnSpec:
    """The column ``name`` of ``game``'s table ``table`` (a batch's or a show's)."""
    for t in schema(game) + show_schema(game):
        for c in t.columns:
            if (t.name, c.name) == (table, name):
                return c
    raise KeyError(f"{game} has no column {table}.{name}")


def labels(game: str, table: str, name: str) -> tuple[str, ...]:
    """The names of a coded column's values (or bits), in code order, as the engine declares them."""
    c = column(game, table, name)
    names = c.labels or c.bits
    if names is None:
        raise KeyError(f"{game}'s {table}.{name} is not a coded column")
    return names


def codes(game: str, table: str, name: str) -> dict[str, int]:
    """Each name of a coded column (see :func:`labels`) → its code."""
    return {label: i for i, label in enumerate(labels(game, table, name))}


def resolve_rules(
    game: str, preset: str = "default", overrides: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The complete, validated rule set for ``preset`` plus ``overrides``.

    Raises :class:`OptionError` for an unknown preset or option, a bad value or a contradiction.
    """
    return json.loads(_call(_engine.resolve_rules, game, preset, json.dumps(overrides or {})))


def resolve_knobs(game: str, knobs: dict[str, Any] | None = None) -> dict[str, Any]:
    """The complete, validated strategy knob set for ``knobs`` over the defaults."""
    return json.loads(_call(_engine.resolve_knobs, game, json.dumps(knobs or {})))


# A table as the engine returns it: its rows and its columns (name, NumPy dtype, little-endian bytes).
RawTable = tuple[int, list[tuple[str, str, bytes]]]


def _frame(columns: list[tuple[str, str, bytes]]) -> pl.DataFrame:
    data = {
        name: pl.Series(name, np.frombuffer(buf, dtype=np.dtype(dtype).newbyteorder("<")))
        for name, dtype, buf in columns
    }
    return pl.DataFrame(data)


def arrow_table(parts: list[RawTable]) -> pa.Table:
    """One table of consecutive batches (:func:`play_columns`) as a single-chunk Arrow table, the
    Arrow types polars gives the same columns (a bool column becomes Arrow's bit-packed boolean).
    The runner writes shards from it: no DataFrame is built to be converted again."""
    rows = sum(n for n, _cols in parts)
    names = [name for name, _dtype, _buf in parts[0][1]]
    arrays = []
    for i, (name, dtype, _buf) in enumerate(parts[0][1]):
        data = b"".join(cols[i][2] for _n, cols in parts)
        if dtype == "bool" or sys.byteorder != "little":
            values = np.frombuffer(data, dtype=np.dtype(dtype).newbyteorder("<"))
            arrays.append(pa.array(values.astype(values.dtype.newbyteorder("="), copy=False)))
        else:  # the engine's bytes as they are: a tenth of the cost of going through NumPy
            arrow = _ARROW_TYPES[dtype]
            if len(data) != rows * arrow.bit_width // 8:  # from_buffers would read past its end
                raise ValueError(f"engine column {name}: {len(data)} bytes for {rows} rows of {dtype}")
            arrays.append(pa.Array.from_buffers(arrow, rows, [None, pa.py_buffer(data)]))
    return pa.Table.from_arrays(arrays, names=names)


_ARROW_TYPES = {
    t: pa.from_numpy_dtype(np.dtype(t))
    for t in ("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float32", "float64")
}


PYTHON_KEY = "python"
# The folder of a Python strategy's module when it is not on the import path (found beside its
# config or script): put on the path of whichever process imports the module.
PYTHON_DIR_KEY = "python_dir"


def importable(folder: str) -> None:
    """Puts ``folder`` on the import path (after what is there) unless it is on it: a strategy's
    module and the sibling modules it imports load from it, in this process, for good."""
    if folder not in sys.path:
        sys.path.append(folder)


# Python strategy classes given as objects (the Python API's `strategies=`), by their `module:Class`:
# found here before any import, so a class defined in a notebook plays in this process.
_CLASSES: dict[str, type] = {}


def register_class(cls: type) -> str:
    """Makes ``cls`` playable as a lineup slot's Python strategy in this process; returns its spec."""
    spec = f"{cls.__module__}:{cls.__qualname__}"
    _CLASSES[spec] = cls
    return spec


def importable_class(spec: str) -> bool:
    """Whether another process can import the class ``spec`` names (a class defined in ``__main__``
    or inside a function cannot be)."""
    module, _, name = spec.partition(":")
    return module != "__main__" and "<locals>" not in name and importlib.util.find_spec(module) is not None


def identity_knobs(knobs: dict[str, Any]) -> dict[str, Any]:
    """A slot's knobs as a run's identity holds them: where a Python strategy's module was found is
    not what it is (its source's hash is), so a run moved with its config is the same run."""
    return {k: v for k, v in knobs.items() if k != PYTHON_DIR_KEY}


def _native(slot: dict[str, Any]) -> dict[str, Any]:
    """A slot's knobs without what only the Python side reads."""
    return {k: v for k, v in slot.items() if k not in (PYTHON_KEY, PYTHON_DIR_KEY)}


# Where the example strategies lived before one package per game; scripts and run manifests that
# name the old modules still load (the name in the manifest stays as written, so resuming such a
# run sees no change).
MOVED_MODULES = {
    f"simharness.games.{g}_python": f"simharness.games.{g}.python" for g in ("riichi", "suzume", "sugoroku")
}


def _python_strategies(game: str, lineup: list[dict[str, Any]]) -> list[Any] | None:
    """One instance per slot of the ``module:Class`` a knob set names under ``python`` (or None).

    A module or class that cannot be found is an :class:`OptionError`; a module or ``__init__`` that
    raises is told as the engine tells a failing ``decide`` (where it happened, then the strategy's
    own exception, of its own type, as the cause)."""
    specs = [k.get(PYTHON_KEY) for k in lineup]
    if not any(specs):
        return None
    out: list[Any] = []
    for i, (spec, knobs) in enumerate(zip(specs, lineup, strict=True)):
        if not spec:
            out.append(None)
            continue
        if PYTHON_DIR_KEY in knobs:
            importable(str(knobs[PYTHON_DIR_KEY]))
        module, _, name = str(spec).partition(":")
        where = f"{game}: Python strategy of lineup slot {i} ({spec}) at"
        try:
            cls = _CLASSES.get(str(spec)) or getattr(
                importlib.import_module(MOVED_MODULES.get(module, module)), name
            )
        except (ImportError, AttributeError) as e:
            raise OptionError(f"lineup[{i}].python", f"cannot load {spec!r}: {e}") from None
        except Exception as e:
            raise _strategy_error(f"{where} import", e) from e
        try:
            out.append(cls())
        except Exception as e:
            raise _strategy_error(f"{where} __init__", e) from e
    return out


def _strategy_error(where: str, e: Exception) -> Exception:
    """``e`` told ``where`` it happened, of ``e``'s own type when that type takes a message (so
    that a caller can catch what the strategy raised); this module's and the import machinery's
    frames are dropped from ``e``'s traceback, which then holds only the strategy's own."""
    tb = e.__traceback__
    while tb is not None and (
        tb.tb_frame.f_code.co_filename == __file__ or tb.tb_frame.f_code.co_filename.startswith("<frozen ")
    ):
        tb = tb.tb_next
    e.__traceback__ = tb
    message = f"{where}: {type(e).__name__}: {e}"
    try:
        return type(e)(message)
    except Exception:
        return RuntimeError(message)


def require_python_strategies(game: str) -> None:
    """Raises :class:`OptionError` (field ``python``) unless ``game`` can seat Python strategies."""
    if not game_info(game).python_strategies:
        able = ", ".join(g.name for g in games() if g.python_strategies)
        raise OptionError("python", f"{game} has no Python strategy protocol; games with one: {able}")


def play_batch(
    game: str,
    rules: dict[str, Any],
    lineup: list[dict[str, Any]],
    *,
    seed: int,
    first_game: int,
    count: int,
    duplicate: bool = False,
    cancel: threading.Event | None = None,
) -> dict[str, pl.DataFrame]:
    """Plays games ``first_game .. first_game + count - 1`` in Rust; one DataFrame per table.

    ``rules`` is a rule set (overrides of the defaults are enough), ``lineup`` one knob set per
    player in seat order. The result depends only on the arguments, never on how games are batched.
    Once ``cancel`` is set, a batch with Python strategies stops with ``KeyboardInterrupt`` before
    their next decision (a native batch runs to its end).
    """
    raw = play_columns(
        game, rules, lineup, seed=seed, first_game=first_game, count=count, duplicate=duplicate, cancel=cancel
    )
    return {name: _frame(cols) for name, (_rows, cols) in raw.items()}


def play_columns(
    game: str,
    rules: dict[str, Any],
    lineup: list[dict[str, Any]],
    *,
    seed: int,
    first_game: int,
    count: int,
    duplicate: bool = False,
    cancel: threading.Event | None = None,
) -> dict[str, RawTable]:
    """:func:`play_batch`'s games as the engine returns them, each table's column buffers (no copy)."""
    python = _python_strategies(game, lineup)
    if python is not None:
        require_python_strategies(game)
        knobs = [_native(slot) for slot in lineup]
        raw = _call(
            _engine.play_batch_python, game, json.dumps(rules), json.dumps(knobs), python, seed,
            first_game, count, duplicate, cancel,
        )  # fmt: skip
    else:
        raw = _call(
            _engine.play_batch,
            game,
            json.dumps(rules),
            json.dumps(lineup),
            seed,
            first_game,
            count,
            duplicate,
        )
    return raw


def show_game(
    game: str,
    rules: dict[str, Any],
    lineup: list[dict[str, Any]],
    *,
    seed: int,
    index: int,
    duplicate: bool = False,
) -> dict[str, pl.DataFrame]:
    """Game ``index`` played again alone with every event logged (the engine's ``Game::show``):
    the tables of :func:`play_batch` for that game plus the game's event tables. Python
    strategies decide again through ``_engine.show_python``."""
    python = _python_strategies(game, lineup)
    if python is None:
        raw = _call(_engine.show_game, game, json.dumps(rules), json.dumps(lineup), seed, index, duplicate)
    else:
        require_python_strategies(game)
        knobs = [_native(slot) for slot in lineup]
        raw = _call(
            _engine.show_python, game, json.dumps(rules), json.dumps(knobs), python, seed, index, duplicate
        )
    return {name: _frame(cols) for name, (_rows, cols) in raw.items()}
