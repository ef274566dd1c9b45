"""``simharness compare``: two strategies of one run, paired on the deals they both played."""

from __future__ import annotations

import math
from typing import Any

import polars as pl
from rich.console import Console
from rich.table import Table

from simharness.report.summary import RunLike, fmt_ci, players_frame, sequential_block, variant_names
from simharness.stats.hypotheses import paired_permutation_test
from simharness.stats.intervals import cluster_mean_ci
from simharness.stats.paired import (
    METRIC_EXPRS,
    Baseline,
    games_per_deal,
    paired_difference,
    per_deal,
    row_variance,
)


def fixed_sample_verdict(difference: dict[str, Any], pvalue: float | None, alpha: float) -> str:
    """The two-sided paired t-test at level ``alpha``, read once on the whole sample.

    Not a sequential decision: it is valid only if the sample size was fixed in advance (a run
    stopped by ``[until]`` has its own sequential verdict).
    """
    if pvalue is None or difference.get("estimate") is None:
        return "no test"
    if pvalue >= alpha:
        return f"no difference at α={alpha:g}"
    return f"A − B {'>' if difference['estimate'] > 0 else '<'} 0 at α={alpha:g}"


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
    seq = run.manifest.get("sequential") or {}
    own = (seq.get("a"), seq.get("b"), seq.get("metric"), seq.get("variant")) == (a, b, metric, variant)
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
    t.add_row(f"fixed-sample verdict (two-sided t, α={result['alpha']:g})", result["verdict"])
    deals = f"{result['shared_deals']} ({_num(result['games_per_deal'], 3)})"
    t.add_row("shared deals (games per deal)", deals)
    t.add_row("variance per game, independent play: Var a + Var b", _num(result["var_independent"]))
    t.add_row("variance per game, this design: games/deal × Var(d)", _num(result["var_paired"]))
    t.add_row("pairing efficiency E = their ratio (games ÷ E)", _num(result["efficiency"], 3))
    t.add_row("correlation of the per-deal means ρ", _num(result["rho"], 3))
    seq = result["sequential"]
    if seq:
        r = seq["result"]
        t.add_row(
            f"sequential test of the run (H0 μ={seq['mu0']:g} vs H1 μ={seq['mu1']:g})",
            f"LLR {r['llr']:.3f} in [{r['lower']:.3f}, {r['upper']:.3f}] → {r['decision']}",
        )
    console.print(t)
    eff = result["efficiency"]
    if eff is not None and eff < 1:
        console.print(
            "[yellow]Pairing efficiency below 1: the arms are negatively correlated on a deal "
            "(e.g. they share tables of a zero-sum game); duplicate play pairs them across rotations."
        )
