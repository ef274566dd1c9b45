"""Today's in-memory report and compare, kept as the reference the streaming ones are tested against.

This is the summary as ``simharness report`` computed it before it streamed (every table read into
memory, every interval from per-row arrays through ``simharness.stats``): the differential tests in
``test_report_stream.py`` check that the streaming path gives the same numbers.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl
from scipy import stats

from simharness.games import registry
from simharness.report.compare import fixed_sample_verdict
from simharness.report.extremes import extreme_games
from simharness.report.frames import (
    RunLike,
    game_lengths,
    game_metrics,
    players_frame,
    provenance,
    seat_axis,
    variant_names,
)
from simharness.report.glance import rank_shares, share_rows
from simharness.report.stream import GameMetrics
from simharness.report.sums import QUANTILES
from simharness.report.tails import TAILS, tail_name
from simharness.stats.balance import seat_rank_cells
from simharness.stats.hypotheses import (
    benjamini_hochberg,
    friedman,
    holm,
    paired_permutation_test,
    seat_advantage_test,
)
from simharness.stats.intervals import cluster_mean_ci, describe
from simharness.stats.paired import (
    METRIC_EXPRS,
    Baseline,
    games_per_deal,
    paired_difference,
    per_deal,
    row_variance,
)
from simharness.stats.sequential import look_scores, until_result


def seat_wins(ranks: list[int], cells: np.ndarray) -> np.ndarray:
    """Wins (rank 1) per (deal, seat) from ``seat_rank_cells``."""
    return cells[:, :, ranks.index(1)] if 1 in ranks else np.zeros(cells.shape[:2])


def _dist(x: np.ndarray, deals: np.ndarray) -> dict[str, Any]:
    d = describe(x, deals, QUANTILES)
    return {
        "mean": d.mean.to_dict(),
        "quantiles": {f"p{round(q * 100)}": i.to_dict() for q, i in d.quantiles.items()},
    }


def _group_rows(players: pl.DataFrame, key: str) -> list[dict[str, Any]]:
    # Every interval is clustered by deal: a strategy in two seats, the rotations of a duplicate deal
    # and the variants of a deal share luck, so rows are not independent trials.
    rows = []
    for (k,), g in players.sort(key).group_by(key, maintain_order=True):
        deals = g["deal"].to_numpy()
        wins = float(g["win"].sum())
        rows.append(
            {
                key: k,
                "rows": g.height,
                "games": g["game"].n_unique(),
                "deals": len(np.unique(deals)),
                # Shared first places (ties = shared) make fractional wins; the rate is a mean.
                "first_places": wins,
                "first_place_rate": cluster_mean_ci(g["win"].cast(pl.Float64).to_numpy(), deals).to_dict(),
                "points": _dist(g["final_points"].to_numpy(), deals),
                "rank_points": cluster_mean_ci(g["rank_points"].to_numpy(), deals).to_dict(),
            }
        )
    return rows


def variant_block(players: pl.DataFrame, lengths: pl.DataFrame | None, unit: str | None) -> dict[str, Any]:
    """One variant's tables: by strategy and by seat (win rate, points), the seat test and game length."""
    axis = seat_axis(players)
    _seats, ranks, cells = seat_rank_cells(players, axis)
    block: dict[str, Any] = {
        "games": players["game"].n_unique(),
        "deals": players["deal"].n_unique(),
        "by_strategy": _group_rows(players, "strategy"),
        "seat_axis": axis,
        "by_seat": _group_rows(players.with_columns(pl.col(axis).alias("seat")), "seat"),
        "seat_test": seat_advantage_test(seat_wins(ranks, cells)).to_dict(),
        "length": None,
    }
    if lengths is not None and lengths.height:
        block["length"] = {"unit": unit, **_dist(lengths["length"].to_numpy(), lengths["deal"].to_numpy())}
    return block


def _differences(
    players: pl.DataFrame, lengths: pl.DataFrame | None, variants: list[str]
) -> list[dict[str, Any]]:
    """Main metrics of every variant minus the first, paired by deal where deals are shared."""
    base = variants[0]
    out: list[dict[str, Any]] = []

    def add(variant: str, strategy: str | None, metric: str, a: pl.DataFrame, b: pl.DataFrame) -> None:
        baseline = Baseline(row_variance(a, metric), row_variance(b, metric), games_per_deal(b))
        r = paired_difference(per_deal(a, metric), per_deal(b, metric), baseline=baseline)
        out.append(
            {"variant": variant, "baseline": base, "strategy": strategy, "metric": metric, **r.to_dict()}
        )

    strategies = players["strategy"].unique().sort().to_list()
    for v in variants[1:]:
        for s in strategies:
            a = players.filter((pl.col("variant") == v) & (pl.col("strategy") == s))
            b = players.filter((pl.col("variant") == base) & (pl.col("strategy") == s))
            if a.height and b.height:
                add(v, s, "win", a, b)
                add(v, s, "final_points", a, b)
        if lengths is not None:
            add(
                v,
                None,
                "length",
                lengths.filter(pl.col("variant") == v),
                lengths.filter(pl.col("variant") == base),
            )
    ps = np.array([r["pvalue"] if r["pvalue"] is not None else math.nan for r in out], dtype=float)
    for r, h, bh in zip(out, holm(ps), benjamini_hochberg(ps), strict=True):
        r["p_holm"] = None if math.isnan(h) else float(h)
        r["p_bh"] = None if math.isnan(bh) else float(bh)
    return out


def _omnibus(players: pl.DataFrame, variants: list[str]) -> list[dict[str, Any]]:
    """With three or more variants: a Friedman test per strategy and metric over the shared deals."""
    out = []
    for s in players["strategy"].unique().sort().to_list():
        mine = players.filter(pl.col("strategy") == s)
        for metric in ("win", "final_points"):
            wide = None
            for v in variants:
                d = per_deal(mine.filter(pl.col("variant") == v), metric).select("deal", pl.col("y").alias(v))
                wide = d if wide is None else wide.join(d, on="deal")
            if wide is not None:
                r = friedman(wide.select(variants).to_numpy())
                out.append({"strategy": s, "metric": metric, **r.to_dict()})
    return out


def _tails(players: pl.DataFrame, variants: list[str]) -> dict[str, Any]:
    """``report.tails``: the quantiles by ``describe``, the paired differences from per-deal arrays."""
    z = float(stats.norm.ppf(0.975))
    blocks: dict[str, Any] = {}
    resid: dict[tuple[str, float], pl.DataFrame] = {}
    ivs = {}
    for v in variants:
        pv = players.filter(pl.col("variant") == v)
        x, deals = pv["final_points"].cast(pl.Float64).to_numpy(), pv["deal"].to_numpy()
        d = describe(x, deals, TAILS)
        blocks[v] = {"worst": float(x.min()), "best": float(x.max())}
        for q, iv in d.quantiles.items():
            ivs[(v, q)] = iv
            blocks[v][tail_name(q)] = iv.to_dict()
            per = pv.group_by("deal").agg(b=(pl.col("final_points") <= iv.estimate).sum(), m=pl.len())
            f = per["b"].sum() / per["m"].sum()
            resid[(v, q)] = per.select("deal", r=pl.col("b") - f * pl.col("m"))
    differences = []
    base = variants[0]
    for v in variants[1:]:
        for q in TAILS:
            a, b = ivs[(v, q)], ivs[(base, q)]
            ra, rb = resid[(v, q)], resid[(base, q)]
            j = ra.join(rb, on="deal", suffix="_b")
            rho = float((j["r"] * j["r_b"]).sum() / math.sqrt((ra["r"] ** 2).sum() * (rb["r"] ** 2).sum()))
            sa, sb = (a.hi - a.lo) / (2 * z), (b.hi - b.lo) / (2 * z)
            se = math.sqrt(sa * sa + sb * sb - 2 * rho * sa * sb)
            est = a.estimate - b.estimate
            differences.append(
                {
                    "variant": v,
                    "baseline": base,
                    "metric": tail_name(q),
                    "difference": {"estimate": est, "lo": est - z * se, "hi": est + z * se, "n": a.n},
                    "se": se,
                    "rho": rho,
                    "pvalue": float(2 * stats.norm.sf(abs(est) / se)) if se > 0 else float(est == 0),
                    "worst": blocks[v]["worst"],
                    "worst_baseline": blocks[base]["worst"],
                }
            )
    return {"quantiles": [tail_name(q) for q in TAILS], "variants": blocks, "differences": differences}


def build_summary(run: RunLike) -> dict[str, Any]:
    """``report.summary.build_summary`` (which documents every field), every table in memory."""
    players = players_frame(run)
    variants = variant_names(run, players)
    gl = game_lengths(run)
    lengths, unit = gl if gl is not None else (None, None)
    blocks = {}
    for v in variants:
        pv = players.filter(pl.col("variant") == v)
        lv = lengths.filter(pl.col("variant") == v) if lengths is not None else None
        blocks[v] = variant_block(pv, lv, unit)
    return {
        "run": provenance(run),
        "variant_order": variants,
        "variants": blocks,
        "differences": _differences(players, lengths, variants) if len(variants) > 1 else [],
        "omnibus": _omnibus(players, variants) if len(variants) > 2 else [],
        "rank_shares": rank_shares(share_rows(players).to_dicts(), variants),
        "game_metrics": game_metrics(run),
        "game_metric_differences": _game_metric_differences(run, variants),
        "tails": _tails(players, variants),
        "sequential": sequential_block(run, players),
        "extreme_games": extreme_games(run),
        "challengers": None,  # these runs have no [challengers] design (tests/test_challengers.py)
    }


def _game_metric_differences(run: RunLike, variants: list[str]) -> list[dict[str, Any]]:
    """The game's metrics of the whole run at once, each variant paired with the first by deal."""
    if len(variants) < 2:
        return []
    whole = GameMetrics(registry.summary_metrics(run.manifest.game))
    whole.add(run, variants[0])
    return whole.differences(variants[0])


def sequential_block(run: RunLike, players: pl.DataFrame) -> dict[str, Any] | None:
    """The run's sequential test (``[until]``) with the stopping-aware estimate, if it had one.

    The estimate accounts for the looks actually taken (see ``stats.sequential.stopped_estimate``).
    """
    seq = run.manifest.sequential
    if seq is None or not seq.looks:
        return None
    return until_result(seq, look_scores(players, seq, seq.games))


def compare_strategies(
    run: RunLike, a: str, b: str, *, metric: str = "win", variant: str | None = None, alpha: float = 0.05
) -> dict[str, Any]:
    """Paired comparison of strategies ``a`` and ``b`` (A − B) in one variant, as a JSON-ready dict.

    The unit is the deal (see ``simharness.stats.paired``). ``verdict`` is the fixed-sample verdict
    (:func:`fixed_sample_verdict`); ``sequential`` is the run's own sequential test, present only
    when the run was stopped by ``[until]`` on this very comparison (same strategies, metric and
    variant), since a sequential verdict is valid only for the looks the run actually took.
    """
    if metric not in METRIC_EXPRS:
        raise ValueError(f'metric: expected one of {", ".join(METRIC_EXPRS)}, got "{metric}"')
    if not 0 < alpha < 1:
        raise ValueError(f"alpha: expected a probability in (0, 1), got {alpha}")
    players = players_frame(run)
    variants = variant_names(run, players)
    variant = variant or variants[0]
    if variant not in variants:
        raise ValueError(f'variant: expected one of {", ".join(variants)}, got "{variant}"')
    pv = players.filter(pl.col("variant") == variant).with_columns(METRIC_EXPRS[metric].alias("y"))
    strategies = pv["strategy"].unique().sort().to_list()
    for name, s in (("a", a), ("b", b)):
        if s not in strategies:
            raise ValueError(
                f'{name}: strategy "{s}" did not play in variant {variant}; played: {", ".join(strategies)}'
            )
    if a == b:
        raise ValueError("b: expected a strategy different from a")
    ra, rb = pv.filter(pl.col("strategy") == a), pv.filter(pl.col("strategy") == b)
    da, db = per_deal(ra, "y"), per_deal(rb, "y")
    baseline = Baseline(row_variance(ra, "y"), row_variance(rb, "y"), games_per_deal(pv))
    res = paired_difference(da, db, baseline=baseline).to_dict()
    joined = da.join(db, on="deal", suffix="_b")
    d = (joined["y"] - joined["y_b"]).to_numpy()
    seq = run.manifest.sequential
    own = seq is not None and seq.comparison == (a, b, metric, variant)
    return {
        "run": str(run.path),
        "variant": variant,
        "metric": metric,
        "a": a,
        "b": b,
        "rows_a": ra.height,
        "rows_b": rb.height,
        "shared_deals": joined.height,
        "games_per_deal": baseline.games_per_deal,
        "variant_a": variant,  # both arms in one variant (across variants: tests/test_challengers.py)
        "variant_b": variant,
        **{k: v for k, v in res.items() if k not in ("mean_a", "mean_b")},
        # Deal-clustered means over all rows of each arm (the per-deal means of shared deals are
        # what the difference uses).
        "mean_a": cluster_mean_ci(ra["y"].to_numpy(), ra["deal"].to_numpy()).to_dict(),
        "mean_b": cluster_mean_ci(rb["y"].to_numpy(), rb["deal"].to_numpy()).to_dict(),
        "permutation": paired_permutation_test(d).to_dict() if len(d) >= 2 else None,
        "alpha": alpha,
        "verdict": fixed_sample_verdict(res["difference"], res["pvalue"], alpha),
        "sequential": sequential_block(run, players) if own else None,
    }
