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
    values = s.unique(maintain_order=True)
    index = s.replace_strict(values, np.arange(len(values)), return_dtype=pl.Int64).to_numpy()
    return values.to_list(), index


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
