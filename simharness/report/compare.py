"""``simharness compare``: two strategies of one run, paired on the deals they both played."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from simharness.errors import RunDirError
from simharness.report.frames import RunLike, players_frame, variant_names
from simharness.report.stream import chunks, opening, shards_read, summed
from simharness.report.summary import sequential_lines
from simharness.report.sums import Arm
from simharness.report.textfit import fmt_ci
from simharness.stats.hypotheses import paired_permutation_test
from simharness.stats.looks import UntilRecord
from simharness.stats.paired import METRIC_EXPRS, Baseline
from simharness.stats.sequential import look_scores, until_result
from simharness.stats.streaming import Moments, PairedSums


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


# Above this many shared deals the sign-flip permutation test is skipped: its cost grows with deals
# × resamples (about 5 s at this bound) and its p-value cannot go below 1/10,000, while the t-test
# on the same differences is exact to many digits, the mean being over that many independent deals.
PERMUTATION_MAX_DEALS = 200_000


def arm(spelled: str) -> tuple[str, str | None]:
    """``STRATEGY@VARIANT`` → (strategy, variant); a plain ``STRATEGY`` has no variant of its own.
    The last ``@`` splits, so a strategy label may hold one."""
    strategy, at, variant = spelled.rpartition("@")
    return (strategy, variant) if at and strategy and variant else (spelled, None)


def compare_strategies(
    run: RunLike,
    a: str,
    b: str,
    *,
    metric: str = "win",
    variant: str | None = None,
    alpha: float = 0.05,
    progress: Progress | None = None,
    jobs: int = 1,
) -> dict[str, Any]:
    """Paired comparison of strategies ``a`` and ``b`` (A − B), as a JSON-ready dict.

    Each arm is a strategy in a variant: ``a`` spelled ``STRATEGY@VARIANT`` plays in that variant,
    a plain ``STRATEGY`` in ``variant`` (default: the run's first). Variants share the keyed deals,
    so two arms in different variants (a lineup variant: ``efficiency@base`` vs ``damaten@b``) pair
    deal by deal like two strategies of one table.

    The unit is the deal (see ``simharness.stats.paired``). ``verdict`` is the fixed-sample verdict
    (:func:`fixed_sample_verdict`); ``sequential`` is the run's own sequential test, present only
    when the run was stopped by ``[until]`` on this very comparison (same strategies, metric and
    variant), since a sequential verdict is valid only for the looks the run actually took.

    The run is read chunk by chunk of whole shards (``report.stream.chunks``), as the report is:
    memory holds one chunk plus sums, and the per-deal differences for the permutation test only up
    to :data:`PERMUTATION_MAX_DEALS`, never the players table; its chunks are summed in ``jobs``
    processes (-1: every core; ``report.stream.summed``), with the same result for any number.
    ``progress`` (a rich Progress) gets a task counting the shards read.
    """
    if metric not in METRIC_EXPRS:
        raise ValueError(f'metric: expected one of {", ".join(METRIC_EXPRS)}, got "{metric}"')
    if not 0 < alpha < 1:
        raise ValueError(f"alpha: expected a probability in (0, 1), got {alpha}")
    (sa, va), (sb, vb) = arm(a), arm(b)
    done = shards_read(progress, f"{a} vs {b}", run)
    first = opening(run)
    if first is None:
        raise ValueError("the run has no games to compare")
    players = players_frame(first)
    va, vb = (_checked(run, players, k, s, v or variant) for k, s, v in (("a", sa, va), ("b", sb, vb)))
    if (sa, va) == (sb, vb):
        raise ValueError(f"b: expected a strategy or variant different from a ({sa}@{va})")
    seq = run.manifest.sequential
    own: UntilRecord | None = None  # the run's sequential test, if it was stopped on this comparison
    if va == vb and seq is not None and seq.looks and seq.comparison == (sa, sb, metric, va):
        own = seq
    arms = {"a": Arm(), "b": Arm()}
    paired = PairedSums()
    differences: list[np.ndarray] | None = []  # None once there are too many for the permutation test
    scores: list[np.ndarray] = []
    games_per_deal = Moments.empty(1)
    sides = ((sa, va), (sb, vb))
    each = functools.partial(_chunk_sums, sides, metric, own)
    for part in summed(each, chunks(run), jobs, done):
        arms["a"] += part.a
        arms["b"] += part.b
        paired += part.paired
        if differences is not None:
            differences.append(part.differences)
            if paired.pairs.n > PERMUTATION_MAX_DEALS:
                differences = None
        games_per_deal += part.games_per_deal
        if part.scores is not None:
            scores.append(part.scores)
    ra, rb = arms["a"], arms["b"]
    baseline = Baseline(ra.rows.var(0), rb.rows.var(0), float(games_per_deal.mean[0]))
    res: dict[str, Any] = paired.result(baseline=baseline).to_dict()
    return {
        "run": str(run.path),
        "variant": va,
        "variant_a": va,
        "variant_b": vb,
        "metric": metric,
        "a": sa,
        "b": sb,
        "rows_a": ra.rows.n,
        "rows_b": rb.rows.n,
        "shared_deals": paired.pairs.n,
        "games_per_deal": baseline.games_per_deal,
        **{k: v for k, v in res.items() if k not in ("mean_a", "mean_b")},
        # Deal-clustered means over all rows of each arm (the per-deal means of shared deals are
        # what the difference uses).
        "mean_a": ra.mean().to_dict(),
        "mean_b": rb.mean().to_dict(),
        "permutation": None if differences is None else _permutation(np.concatenate(differences)),
        "alpha": alpha,
        "verdict": fixed_sample_verdict(res["difference"], res["pvalue"], alpha),
        "sequential": until_result(own, np.concatenate(scores)) if own is not None else None,
    }


@dataclass
class _ChunkSums:
    """One chunk's part of a comparison's sums (``_chunk_sums``)."""

    a: Arm
    b: Arm
    paired: PairedSums
    differences: np.ndarray  # the per-deal differences of the shared deals
    games_per_deal: Moments
    scores: np.ndarray | None  # the run's sequential test's paired scores, if it was on this comparison


def _chunk_sums(
    sides: tuple[tuple[str, str], tuple[str, str]], metric: str, own: UntilRecord | None, chunk: RunLike
) -> _ChunkSums:
    """The sums of one chunk of whole deals for the arms ``sides`` ((strategy, variant) of a and b),
    a function of the chunk alone, so that any process can compute it (``report.stream.summed``)."""
    players = players_frame(chunk)
    # A metric is evaluated within its variant's games (numbered per variant), then the arm's rows kept.
    pa, pb = (
        players.filter(pl.col("variant") == v)
        .with_columns(METRIC_EXPRS[metric].alias("y"))
        .filter(pl.col("strategy") == s)
        for s, v in sides
    )
    a, b = Arm(), Arm()
    da, db = a.add(pa), b.add(pb)
    joined = da.join(db, on="deal", suffix="_b")
    paired = PairedSums()
    paired.add(joined["y"].to_numpy(), joined["y_b"].to_numpy(), da["y"].to_numpy(), db["y"].to_numpy())
    pv = players.filter(pl.col("variant") == sides[0][1])
    return _ChunkSums(
        a,
        b,
        paired,
        (joined["y"] - joined["y_b"]).to_numpy(),
        Moments.of(pv.group_by("deal").agg(pl.col("game").n_unique())["game"].to_numpy()),
        look_scores(players, own, own.games) if own is not None else None,
    )


def _permutation(d: np.ndarray) -> dict[str, Any] | None:
    """The sign-flip permutation test of the per-deal differences ``d``, if there are two or more."""
    return paired_permutation_test(d).to_dict() if len(d) >= 2 else None


def _checked(run: RunLike, players: pl.DataFrame, name: str, strategy: str, variant: str | None) -> str:
    """The variant arm ``name`` plays in (default: the run's first), refusing an unknown variant or a
    strategy that did not play in it (every strategy of a lineup plays in every chunk)."""
    variants = variant_names(run, players)
    variant = variant or variants[0]
    field = f"--{name}"
    if variant not in variants:
        raise RunDirError(
            f'no variant "{variant}" in this run; expected one of {", ".join(variants)}',
            file=run.path,
            field=field,
        )
    strategies = players.filter(pl.col("variant") == variant)["strategy"].unique().sort().to_list()
    if strategy not in strategies:
        raise RunDirError(
            f'strategy "{strategy}" did not play in variant {variant}; played: {", ".join(strategies)}',
            file=run.path,
            field=field,
        )
    return variant


def _num(x: float | None, digits: int = 4) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    return f"{x:.{digits}g}"


def print_comparison(result: dict[str, Any], console: Console) -> None:
    pct = result["metric"] == "win"
    a, b = escape(result["a"]), escape(result["b"])  # strategy names are text, not rich markup
    va, vb = result.get("variant_a", result["variant"]), result.get("variant_b", result["variant"])
    if va != vb:
        a, b = f"{a}@{escape(va)}", f"{b}@{escape(vb)}"
    where = f"variant {escape(va)}" if va == vb else "paired across variants"
    t = Table(title=f"{a} − {b} ({result['metric']}, {where})", title_justify="left")
    t.add_column("quantity")
    t.add_column("value", justify="right")
    t.add_row(f"mean {a} (deal-clustered CI)", fmt_ci(result["mean_a"], 3, pct=pct))
    t.add_row(f"mean {b} (deal-clustered CI)", fmt_ci(result["mean_b"], 3, pct=pct))
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
    console.print(t)
    if result["sequential"]:
        for line in sequential_lines(result["sequential"]):
            if line:
                console.print(escape(line))
    eff = result["efficiency"]
    if eff is not None and eff < 1:
        console.print(
            "[yellow]Pairing efficiency below 1: the arms are negatively correlated on a deal "
            "(e.g. they share tables of a zero-sum game); duplicate play pairs them across rotations."
        )
