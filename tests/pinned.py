"""Games pinned to the byte: the tables of small reference batches hash to recorded values, so that a
refactoring of an engine (or of the Python strategy glue) that changes any game fails. Each game's
`test_<game>_pinned.py` lists its batches; a deliberate change of play updates the hashes in the same
commit and says why."""

from __future__ import annotations

import hashlib
from typing import Any

import polars as pl

from simharness import engine

# One reference batch: (preset, rule overrides, lineup of knob sets, games, duplicate play).
Batch = tuple[str, dict[str, Any], list[dict[str, Any]], int, bool]


def table_digest(tables: dict[str, pl.DataFrame]) -> str:
    """sha256 over every table's name and every column's name, dtype and little-endian values."""
    h = hashlib.sha256()
    for name in sorted(tables):
        h.update(name.encode())
        frame = tables[name]
        for column in frame.columns:
            values = frame[column].to_numpy()
            h.update(f"{column}:{values.dtype.newbyteorder('<').str}:{len(values)}".encode())
            h.update(values.astype(values.dtype.newbyteorder("<")).tobytes())
    return h.hexdigest()


def play(game: str, batch: Batch, seed: int = 11) -> dict[str, pl.DataFrame]:
    """The tables of `batch`, played by the engine as a run plays it."""
    preset, overrides, lineup, games, duplicate = batch
    rules = engine.resolve_rules(game, preset, overrides)
    return engine.play_batch(game, rules, lineup, seed=seed, first_game=0, count=games, duplicate=duplicate)
