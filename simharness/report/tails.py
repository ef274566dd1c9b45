"""The tails of final points: p1, p99 and the worst score of each variant, and their paired differences.

A designer asks whether a rule tames the extremes ("does the cap stop the −30,000 games?"), which a
mean never shows. Per variant, over every player row: the quantiles ``TAILS`` of final points with
Woodruff's interval clustered by deal (the empirical CDF's CR1 interval at the estimate, inverted),
and the worst and best final score (extremes carry no useful interval, so they get none).

The difference of a quantile between a variant and the baseline is paired by deal. A quantile
estimate moves with the empirical CDF at it (Bahadur: q̂ − q ≈ −(F̂(q) − p)/f(q)), so the correlation
of two variants' quantile estimates is that of their CDFs at the quantiles, estimated from the
per-deal residuals b_d − F·m_d (b_d rows at or below the quantile, m_d rows of the deal) of the two
variants over the deals they share. With se_v and se_b from the two Woodruff intervals:
se(q̂_v − q̂_b)² = se_v² + se_b² − 2ρ·se_v·se_b, a normal interval and a two-sided p-value.

The quantiles themselves come from each variant's distinct final points, read before the chunks
(one lazy scan of one column per variant); the chunks then add the per-deal sums, so memory depends
on the distinct scores and the variants, never on the games.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from simharness.stats.dist import norm_ppf, norm_sf
from simharness.stats.intervals import Interval, ratio_interval
from simharness.stats.streaming import add_into, inverted_cdf_index

TAILS = (0.01, 0.99)
CONFIDENCE = 0.95


def tail_name(q: float) -> str:
    return f"p{round(q * 100)}"


@dataclass
class _Cdf:
    """One variant's tail quantile: its value and the sums of the per-deal rows at or below it."""

    value: float
    below: float = 0.0  # Σ b_d
    rows: float = 0.0  # Σ m_d
    bb: float = 0.0  # Σ b_d²
    bm: float = 0.0  # Σ b_d·m_d
    mm: float = 0.0  # Σ m_d²
    deals: int = 0

    def __iadd__(self, other: _Cdf) -> _Cdf:
        self.below += other.below
        self.rows += other.rows
        self.bb += other.bb
        self.bm += other.bm
        self.mm += other.mm
        self.deals += other.deals
        return self

    @property
    def share(self) -> float:
        return self.below / self.rows if self.rows else math.nan

    def ss(self) -> float:
        """Σ_d (b_d − F·m_d)²."""
        f = self.share
        return self.bb - 2 * f * self.bm + f * f * self.mm


@dataclass
class _Cross:
    """Σ over shared deals of the products of a variant's and the baseline's (b_d, m_d)."""

    bb: float = 0.0
    bm: float = 0.0  # Σ b_v·m_b
    mb: float = 0.0  # Σ m_v·b_b
    mm: float = 0.0

    def __iadd__(self, other: _Cross) -> _Cross:
        self.bb += other.bb
        self.bm += other.bm
        self.mb += other.mb
        self.mm += other.mm
        return self

    def cov(self, v: _Cdf, b: _Cdf) -> float:
        """Σ_d (b_vd − F_v·m_vd)(b_bd − F_b·m_bd)."""
        fv, fb = v.share, b.share
        return self.bb - fb * self.bm - fv * self.mb + fv * fb * self.mm


@dataclass
class _Dist:
    """One variant's distinct final points (sorted) and their cumulative counts."""

    values: np.ndarray
    cum: np.ndarray

    def at(self, q: float) -> float:
        n = int(self.cum[-1])
        return float(self.values[int(np.searchsorted(self.cum, inverted_cdf_index(n, q), side="right"))])


def _dist(points: pl.DataFrame) -> _Dist:
    """From rows ``final_points, count`` sorted by value."""
    return _Dist(
        points["final_points"].cast(pl.Float64).to_numpy(),
        np.cumsum(points["count"].to_numpy().astype(np.int64)),
    )


@dataclass
class TailPart:
    """One chunk's sums at the tails' quantiles, which :class:`TailSums` adds up."""

    cdfs: dict[tuple[str, float], _Cdf]
    cross: dict[tuple[str, float], _Cross]


def tail_part(cuts: Mapping[tuple[str, float], float], base: str, players: pl.DataFrame) -> TailPart:
    """A chunk of whole deals: every variant's ``players`` rows (``variant``, ``deal``,
    ``final_points``), counted at each (variant, tail)'s quantile ``cuts`` (:attr:`TailSums.cuts`)
    and paired with the baseline ``base`` on the chunk's deals."""
    part = TailPart({}, {})
    for q in TAILS:
        per: dict[str, pl.DataFrame] = {}
        for (v,), pv in players.partition_by("variant", as_dict=True).items():
            cut = cuts.get((str(v), q))
            if cut is None:
                continue
            d = pv.group_by("deal").agg(
                b=(pl.col("final_points") <= cut).sum().cast(pl.Float64), m=pl.len().cast(pl.Float64)
            )
            b, m = d["b"].to_numpy(), d["m"].to_numpy()
            part.cdfs[(str(v), q)] = _Cdf(
                cut,
                below=float(b.sum()),
                rows=float(m.sum()),
                bb=float((b * b).sum()),
                bm=float((b * m).sum()),
                mm=float((m * m).sum()),
                deals=d.height,
            )
            per[str(v)] = d
        baseline = per.get(base)
        if baseline is None:
            continue
        for v, d in per.items():
            if v == base:
                continue
            j = d.join(baseline, on="deal", suffix="_b")
            part.cross[(v, q)] = _Cross(
                bb=float((j["b"] * j["b_b"]).sum()),
                bm=float((j["b"] * j["m_b"]).sum()),
                mb=float((j["m"] * j["b_b"]).sum()),
                mm=float((j["m"] * j["m_b"]).sum()),
            )
    return part


@dataclass
class TailSums:
    """The tails' sums over the chunks added (see the module doc).

    ``points``: per variant, in order with the baseline first, its final points and their counts
    (``final_points``, ``count``, sorted by value).
    """

    points: dict[str, pl.DataFrame]
    dists: dict[str, _Dist] = field(init=False)
    cdfs: dict[tuple[str, float], _Cdf] = field(init=False)
    cross: dict[tuple[str, float], _Cross] = field(init=False)

    def __post_init__(self) -> None:
        self.dists = {v: _dist(p) for v, p in self.points.items() if p.height}
        self.cdfs = {(v, q): _Cdf(d.at(q)) for v, d in self.dists.items() for q in TAILS}
        self.cross = {}

    @property
    def base(self) -> str:
        return next(iter(self.points))

    @property
    def cuts(self) -> dict[tuple[str, float], float]:
        """Each (variant, tail)'s quantile: what a chunk's sums are counted at (:func:`tail_part`)."""
        return {key: c.value for key, c in self.cdfs.items()}

    def __iadd__(self, part: TailPart) -> TailSums:
        """A chunk's sums (:func:`tail_part`), added in chunk order."""
        add_into(self.cdfs, part.cdfs)
        add_into(self.cross, part.cross)
        return self

    def _interval(self, v: str, q: float) -> Interval:
        """Woodruff's interval of the quantile ``q`` of variant ``v`` (as ``Histogram.quantiles``)."""
        c, dist = self.cdfs[(v, q)], self.dists[v]
        f = ratio_interval(c.share, c.ss(), c.rows, c.deals, CONFIDENCE)
        if not math.isfinite(f.lo):
            return Interval(c.value, math.nan, math.nan, c.deals)
        half = (f.hi - f.lo) / 2
        lo, hi = dist.at(min(max(q - half, 0.0), 1.0)), dist.at(min(max(q + half, 0.0), 1.0))
        return Interval(c.value, min(lo, c.value), max(hi, c.value), c.deals)

    def result(self) -> dict[str, Any]:
        """``variants[v]``: ``worst``, ``best`` and per tail (``p1``, ``p99``) an interval dict;
        ``differences``: per variant after the first and tail, the paired difference from the first
        (``difference`` interval, ``se``, ``rho``, ``pvalue``), with both variants' worst scores."""
        z = norm_ppf(0.5 + CONFIDENCE / 2)
        variants: dict[str, Any] = {}
        ivs: dict[tuple[str, float], Interval] = {}
        for v, dist in self.dists.items():
            block: dict[str, Any] = {"worst": float(dist.values[0]), "best": float(dist.values[-1])}
            for q in TAILS:
                ivs[(v, q)] = self._interval(v, q)
                block[tail_name(q)] = ivs[(v, q)].to_dict()
            variants[v] = block
        differences = []
        base = self.base
        for v in self.dists:
            if v == base or base not in self.dists:
                continue
            for q in TAILS:
                a, b = ivs[(v, q)], ivs[(base, q)]
                ca, cb = self.cdfs[(v, q)], self.cdfs[(base, q)]
                se_a, se_b = (a.hi - a.lo) / (2 * z), (b.hi - b.lo) / (2 * z)
                x = self.cross.get((v, q))
                denom = math.sqrt(ca.ss() * cb.ss())
                rho = x.cov(ca, cb) / denom if x is not None and denom > 0 else 0.0
                rho = min(max(rho, -1.0), 1.0)
                se = math.sqrt(max(se_a * se_a + se_b * se_b - 2 * rho * se_a * se_b, 0.0))
                est = a.estimate - b.estimate
                if math.isfinite(se) and se > 0:
                    p = 2 * norm_sf(abs(est) / se)
                else:
                    p = 1.0 if est == 0 or not math.isfinite(se) else 0.0
                differences.append(
                    {
                        "variant": v,
                        "baseline": base,
                        "metric": tail_name(q),
                        "difference": Interval(
                            est, est - z * se, est + z * se, min(ca.deals, cb.deals)
                        ).to_dict(),
                        # A quantile without an interval (a few games) has no standard error: JSON has no NaN.
                        "se": se if math.isfinite(se) else None,
                        "rho": rho,
                        "pvalue": p,
                        "worst": variants[v]["worst"],
                        "worst_baseline": variants[base]["worst"],
                    }
                )
        return {"quantiles": [tail_name(q) for q in TAILS], "variants": variants, "differences": differences}
