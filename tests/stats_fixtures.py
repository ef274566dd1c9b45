"""A synthetic run with known structure, for testing statistics and reports without an engine.

Four seats play ``hands`` hands; each hand moves points between seats with keyed normal luck
(a pure function of deal, hand and seat, so duplicate tables and variants share it) plus a skill
term per strategy and a planted seat-0 edge. A game ends early when someone drops below zero.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simharness.manifest import Manifest, Slot

LINEUP = ["strong", "weak", "weak", "random"]
SKILL = {"strong": 900.0, "weak": 0.0, "random": -600.0}


def fake_manifest(**fields: Any) -> Manifest:
    """The manifest of a run made in memory: ``fields``, the rest those of a small finished run."""
    small: dict[str, Any] = {
        "name": "synthetic-test",
        "game": "synthetic",
        "seed": 0,
        "games": 1,
        "duplicate": False,
        "shard_size": 1,
        "variants": {"base": {}},
        "lineup": (),
        "tables": ("games", "players"),
        "config_hash": "cafe",
        "provenance": {},
        "complete": True,
    }
    return Manifest(**(small | fields))


@dataclass
class FakeRun:
    path: Path
    manifest: Manifest
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)

    def table(self, name: str) -> pl.DataFrame:
        return self.tables[name]

    def chunks(self, games: int) -> Iterator[tuple[FakeRun, int]]:
        """The run cut along deal boundaries into runs of about ``games`` games per variant, as
        ``store.Run.chunks`` cuts a run into whole shards."""
        deals = self.tables["players"]["deal"].unique().sort().to_numpy()
        per_deal = self.tables["games"].filter(pl.col("deal") == deals[0])["game"].n_unique()
        step = max(1, games // max(per_deal, 1))
        for i in range(0, len(deals), step):
            lo, hi = int(deals[i]), int(deals[min(i + step, len(deals)) - 1])
            part = {k: t.filter(pl.col("deal").is_between(lo, hi)) for k, t in self.tables.items()}
            yield FakeRun(self.path, self.manifest, part), 1


def _play(
    variant: str, scale: float, seat_edge: float, n_games: int, duplicate: bool, hands: int, seed: int
) -> dict[str, pl.DataFrame]:
    n = 4
    game = np.arange(n_games)
    deal = game // n if duplicate else game
    rot = game % n if duplicate else np.zeros(n_games, dtype=int)
    seat = np.arange(n)
    slot = (seat[None, :] + rot[:, None]) % n  # (game, seat) -> lineup slot
    skill = np.array([SKILL[s] for s in LINEUP])[slot]
    luck = np.stack([np.random.default_rng([seed, int(d)]).normal(0, 4000 * scale, (hands, n)) for d in deal])
    edge = np.zeros(n)
    edge[0] = seat_edge
    delta = luck + skill[:, None, :] + edge[None, None, :]
    delta -= delta.mean(axis=2, keepdims=True)
    delta = np.round(delta / 100) * 100
    delta[..., -1] = -delta[..., :-1].sum(axis=2)
    running = 25000 + np.cumsum(delta, axis=1)
    busted = (running < 0).any(axis=2)
    last = np.where(busted.any(axis=1), busted.argmax(axis=1), hands - 1)
    final = running[game, last]
    order = np.lexsort((np.broadcast_to(seat, final.shape), -final), axis=1)
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(1, n + 1)[None, :].repeat(n_games, 0), axis=1)
    games = pl.DataFrame(
        {
            "game": game.astype(np.uint64),
            "deal": deal.astype(np.uint64),
            "rotation": rot.astype(np.uint8),
            "variant": variant,
        }
    )
    players = pl.DataFrame(
        {
            "game": np.repeat(game, n).astype(np.uint64),
            "deal": np.repeat(deal, n).astype(np.uint64),
            "seat": np.tile(seat, n_games).astype(np.uint8),
            "player": slot.ravel().astype(np.uint8),
            "final_points": final.ravel().astype(np.int64),
            "rank": rank.ravel().astype(np.uint8),
            "strategy": [LINEUP[s] for s in slot.ravel()],
            "variant": variant,
        }
    )
    gi, hi = np.nonzero(np.arange(hands)[None, :] <= last[:, None])
    hand_rows = {
        "game": gi.astype(np.uint64),
        "deal": deal[gi].astype(np.uint64),
        "hand": hi.astype(np.uint16),
    }
    for s in range(n):
        hand_rows[f"points_{s}"] = running[gi, hi, s].astype(np.int64)
    hand_rows["variant"] = [variant] * len(gi)
    return {"games": games, "players": players, "hands": pl.DataFrame(hand_rows)}


def make_run(
    tmp: Path,
    variants: dict[str, float] | None = None,
    *,
    n_games: int = 800,
    duplicate: bool = True,
    hands: int = 8,
    seat_edge: float = 300.0,
    seed: int = 7,
    with_hands: bool = True,
) -> FakeRun:
    """``variants`` maps a variant name to its luck scale (1 = base)."""
    variants = variants or {"base": 1.0}
    parts = [_play(v, s, seat_edge, n_games, duplicate, hands, seed) for v, s in variants.items()]
    tables = {k: pl.concat([p[k] for p in parts]) for k in ("games", "players", "hands")}
    if not with_hands:
        del tables["hands"]
    for name in tables:
        (tmp / name).mkdir(parents=True, exist_ok=True)
    manifest = fake_manifest(
        seed=seed,
        games=n_games,
        duplicate=duplicate,
        variants={v: {"luck_scale": s} for v, s in variants.items()},
        lineup=tuple(Slot(slot=i, strategy=s, version=1, knobs={}) for i, s in enumerate(LINEUP)),
        tables=tuple(tables),
        provenance={"version": "0.1.0", "git_commit": "0123456789abcdef", "config_hash": "cafe"},
    )
    return FakeRun(tmp, manifest, tables)
