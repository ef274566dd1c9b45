"""``simharness compare``: two strategies of one run, paired on the deals they both played."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl
from rich.console import Console
from rich.table import Table

from simharness.report.summary import RunLike, fmt_ci, players_frame, variant_names
from simharness.stats.hypotheses import paired_permutation_test
from simharness.stats.intervals import cluster_mean_ci
from simharness.stats.paired import METRIC_EXPRS, paired_difference, per_deal, row_variance
from simharness.stats.sequential import SPRT


def compare_strategies(
    run: RunLike,
    a: str,
    b: str,
    *,
    metric: str = "win",
    variant: str | None = None,
    mu0: float = 0.0,
    mu1: float | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> dict[str, Any]:
    """Paired comparison of strategies ``a`` and ``b`` (A − B) in one variant, as a JSON-ready dict.

    The unit is the deal (see ``simharness.stats.paired``). ``mu1`` defaults to ``mu0`` plus 5% of
    the SD of the per-deal differences (a small standardised effect).
    """
    if metric not in METRIC_EXPRS:
        raise ValueError(f'metric: expected one of {", ".join(METRIC_EXPRS)}, got "{metric}"')
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
    res = paired_difference(da, db, row_var=(row_variance(ra, "y"), row_variance(rb, "y")))
    joined = da.join(db, on="deal", suffix="_b")
    d = (joined["y"] - joined["y_b"]).to_numpy()
    out: dict[str, Any] = {
        "run": str(run.path),
        "variant": variant,
        "metric": metric,
        "a": a,
        "b": b,
        "rows_a": ra.height,
        "rows_b": rb.height,
        "shared_deals": joined.height,
        "mean_a": cluster_mean_ci(ra["y"].to_numpy(), ra["deal"].to_numpy()).to_dict(),
        "mean_b": cluster_mean_ci(rb["y"].to_numpy(), rb["deal"].to_numpy()).to_dict(),
        **res.to_dict(),
        "permutation": paired_permutation_test(d).to_dict() if len(d) >= 2 else None,
        "sprt": None,
    }
    if len(d) >= 2:
        sd = float(d.std(ddof=1))
        if mu1 is None:
            mu1 = mu0 + (0.05 * sd if sd > 0 else 0.01)
        test = SPRT(mu0, mu1, alpha, beta)
        out["sprt"] = {"mu0": mu0, "mu1": mu1, "alpha": alpha, "beta": beta, **test.decide(d).to_dict()}
    return out


def _num(x: float | None, digits: int = 4) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    return f"{x:.{digits}g}"


def print_comparison(result: dict[str, Any], console: Console) -> None:
    pct = result["metric"] == "win"
    t = Table(
        title=f"{result['a']} − {result['b']} ({result['metric']}, variant {result['variant']})",
        title_justify="left",
    )
    t.add_column("quantity")
    t.add_column("value", justify="right")
    t.add_row(f"mean {result['a']} (deal-clustered CI)", fmt_ci(result["mean_a"], 3, pct=pct))
    t.add_row(f"mean {result['b']} (deal-clustered CI)", fmt_ci(result["mean_b"], 3, pct=pct))
    t.add_row(
        "paired difference [95% CI]" if result["paired"] else "unpaired difference [95% CI]",
        fmt_ci(result["difference"], 3, pct=pct),
    )
    t.add_row("p (t on per-deal differences)", _num(result["pvalue"]))
    if result["permutation"]:
        t.add_row("p (sign-flip permutation)", _num(result["permutation"]["pvalue"]))
    t.add_row("shared deals", str(result["shared_deals"]))
    t.add_row("pairing efficiency E (games ÷ E)", _num(result["efficiency"], 3))
    t.add_row("correlation of the arms ρ", _num(result["rho"], 3))
    s = result["sprt"]
    if s:
        t.add_row(
            f"SPRT H0 μ={_num(s['mu0'])} vs H1 μ={_num(s['mu1'])}",
            f"LLR {s['llr']:.3f} in [{s['lower']:.3f}, {s['upper']:.3f}] → {s['decision']}",
        )
    console.print(t)
    if np.isfinite(result["efficiency"] or np.nan) and (result["efficiency"] or 0) < 1:
        console.print(
            "[yellow]Pairing efficiency below 1: the arms are negatively correlated on a deal "
            "(e.g. they share tables of a zero-sum game); duplicate play pairs them across rotations."
        )
