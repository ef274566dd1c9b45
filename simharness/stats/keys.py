"""Integer keys of a chunk's rows (groups, games, deals, values), counted rather than sorted.

The report reduces every chunk to sums per group and deal. Done as group-bys over string and
multi-column keys, that was most of its time; here each key becomes a dense integer in one
counting pass (``np.bincount`` over the key's range, which a chunk keeps small: its deals and games
are a few consecutive ranges), and sums per key are ``np.bincount`` with weights. A key of a range
too wide to count is sorted instead (``np.unique``), with the same result.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

# Below this many possible keys (beyond the rows), keys are counted in an array rather than sorted.
_COUNTED_KEYS = 1 << 20
# Up to this many distinct values, a column's rows are coded by comparing them with each value.
_COMPARED = 8


def dense(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.unique(keys, return_inverse=True, return_counts=True)`` of non-negative integers: the
    distinct keys (sorted), each key's index among them and their counts."""
    keys = np.asarray(keys, dtype=np.int64)
    if len(keys) and int(keys.max()) < 8 * len(keys) + _COUNTED_KEYS:
        counts = np.bincount(keys)
        present = counts > 0
        distinct = np.flatnonzero(present)
        return distinct, (np.cumsum(present) - 1)[keys], counts[distinct]
    distinct, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    return distinct, inverse.reshape(-1), counts


def _column(s: pl.Series) -> tuple[list[Any], np.ndarray]:
    """A column's distinct values and each row's index among them."""
    if s.dtype.is_integer() and s.null_count() == 0 and len(s):
        v = s.to_numpy().astype(np.int64)
        low = int(v.min())
        distinct, index, _ = dense(v - low)
        return (distinct + low).tolist(), index
    values = s.unique(maintain_order=True).to_list()
    if len(values) > _COMPARED:
        return values, s.replace_strict(values, np.arange(len(values)), return_dtype=pl.Int64).to_numpy()
    # A few values (variants, strategies): a comparison each is several times faster than a lookup.
    index = np.zeros(len(s), dtype=np.int64)
    for i, v in enumerate(values[1:], 1):
        index[(s.is_null() if v is None else (s == v).fill_null(False)).to_numpy()] = i
    return values, index


def _combined(frame: pl.DataFrame, by: list[str]) -> tuple[list[list[Any]], np.ndarray, np.ndarray]:
    """The ``by`` columns' distinct values, the distinct combinations (mixed-radix codes over them,
    sorted) and each row's index among the combinations."""
    code = np.zeros(frame.height, dtype=np.int64)
    values = []
    for c in by:
        distinct, index = _column(frame[c])
        values.append(distinct)
        code = code * len(distinct) + index
    distinct_codes, inverse, _ = dense(code)
    return values, distinct_codes, inverse


def row_groups(frame: pl.DataFrame, by: list[str]) -> tuple[np.ndarray, int]:
    """Each row's group among the distinct values of the ``by`` columns (numbered in no particular
    order) and the number of groups."""
    _values, codes, inverse = _combined(frame, by)
    return inverse, len(codes)


def group_codes(frame: pl.DataFrame, by: list[str]) -> tuple[list[tuple[Any, ...]], np.ndarray]:
    """The distinct values of the ``by`` columns of ``frame`` in order of first appearance (nulls
    are a value), and each row's index among them."""
    values, codes, inverse = _combined(frame, by)
    first = np.full(len(codes), frame.height, dtype=np.int64)
    np.minimum.at(first, inverse, np.arange(frame.height))
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    keys = []
    for code in codes[order].tolist():
        parts = []
        for distinct in reversed(values):
            code, i = divmod(code, len(distinct))
            parts.append(distinct[i])
        keys.append(tuple(reversed(parts)))
    return keys, rank[inverse]


def members(codes: np.ndarray, groups: int) -> list[np.ndarray]:
    """The rows of each of ``groups`` groups (``codes``: each row's group; a row of none is −1), in
    row order: one sort instead of a pass over every row per group."""
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(groups + 1))
    return [order[bounds[i] : bounds[i + 1]] for i in range(groups)]


def value_ranks(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of ``x`` (sorted) and each one's index among them; counted, without a
    sort, when every value is an integer of a modest range (scores, lengths)."""
    if len(x):
        lo, hi = float(x.min()), float(x.max())
        if math.isfinite(lo) and math.isfinite(hi) and hi - lo < 8 * len(x) + _COUNTED_KEYS:
            offset = (x - lo).astype(np.int64)
            if np.array_equal(offset + lo, x):
                present, index, _counts = dense(offset)
                return present + lo, index
    distinct, inverse = np.unique(x, return_inverse=True)
    return distinct, inverse.reshape(-1)


def shared_deals(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions in ``a`` and in ``b`` (each sorted and without repeats) of the deals both hold,
    in order (an inner join on the deal)."""
    if len(a) == len(b) and np.array_equal(a, b):
        both = np.arange(len(a))
        return both, both
    _common, ia, ib = np.intersect1d(a, b, assume_unique=True, return_indices=True)
    return ia, ib


def variant_index(frame: pl.DataFrame, variants: list[str]) -> np.ndarray:
    """Each row's variant as its index in ``variants`` (−1 for a variant not among them)."""
    found, index = _column(frame["variant"])
    position = {v: i for i, v in enumerate(variants)}
    return np.array([position.get(v, -1) for v in found], dtype=np.int64)[index]


class GameKeys:
    """The games of a chunk's rows (``variant``, ``game``) as positions 0, 1, ... in (variant, game)
    order, variants in the order of ``variants`` (default: as they first appear), and the positions
    of any other table's rows of the same games: a join by integer keys rather than on the columns.

    ``row`` is each row's game, ``sizes`` the rows of each game, ``variant`` each game's variant
    (its index in ``variants``).
    """

    def __init__(self, frame: pl.DataFrame, variants: list[str] | None = None) -> None:
        if variants is None:
            found, _index = _column(frame["variant"])
            variants = [str(v) for v in found]
        self.variants = variants
        game = frame["game"].to_numpy().astype(np.int64)
        self.low = int(game.min()) if len(game) else 0
        self.span = int(game.max()) - self.low + 1 if len(game) else 1
        key = variant_index(frame, variants) * self.span + game - self.low
        self.keys, self.row, self.sizes = dense(key)
        self.variant = self.keys // self.span

    def find(self, frame: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        """For the rows of ``frame`` whose game is among these: which rows, and the games' positions."""
        if not len(self.keys):
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        game = frame["game"].to_numpy().astype(np.int64) - self.low
        key = variant_index(frame, self.variants) * self.span + game
        at = np.minimum(np.searchsorted(self.keys, key), len(self.keys) - 1)
        rows = np.flatnonzero((game >= 0) & (game < self.span) & (self.keys[at] == key))
        return rows, at[rows]

    def columns(self, frame: pl.DataFrame, names: list[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each of ``frame``'s columns ``names`` per game (0 where the game has no row or a null) and
        whether each game has a value (1.0 or 0.0)."""
        rows, at = self.find(frame)
        out = {}
        for name in names:
            column = frame[name].cast(pl.Float64)
            known = column.is_not_null().to_numpy()[rows]
            values = np.zeros(len(self.keys))
            values[at[known]] = column.to_numpy()[rows][known]
            has = np.zeros(len(self.keys))
            has[at[known]] = 1.0
            out[name] = (values, has)
        return out
