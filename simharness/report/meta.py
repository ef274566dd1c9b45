"""The metagame of a run (``simharness meta``, a config's ``[meta]``): which strategies survive among
players who adapt, under each rule variant (docs/metagame.md).

The run is any run whose variants seat every profile (multiset of the strategies over the seats) under
each rule variant: the variants of ``[meta]`` (the manifest's ``meta``), or lineup variants written by
hand, grouped by their resolved rules (:func:`design_of`). It is read chunk by chunk of whole deals
(``store.Run.chunks``) into, per (profile variant, strategy present), the moments of the per-deal
sums of the metric and of the rows, and their sums under keyed Poisson bootstrap weights per deal
(``stats.streaming.poisson_weights``): every rule variant's resample draws the same deals, so the
comparisons across rule variants are paired. Memory is the cells times the resamples, never the games.

From the heuristic payoff table (:class:`stats.metagame.PayoffTable`) of each rule variant:
the symmetric equilibria (the headline one is the one whose basin of attraction under the replicator
dynamics is largest), α-Rank at :data:`ALPHA` on payoffs in units of the table's range and its sweep,
the dominant strategy, balance measures and restricted play; each with percentile intervals over the
bootstrap resamples (the headline equilibrium followed into each resample: ``metagame.follow``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
from rich.console import Console
from rich.markup import escape
from threadpoolctl import threadpool_limits

from simharness.errors import RunDirError
from simharness.manifest import Manifest
from simharness.report.frames import RunLike, players_frame
from simharness.report.textfit import Col, fmt_pm, print_fitted
from simharness.stats import metagame as mg
from simharness.stats.streaming import Moments, poisson_weights, ratio_from_moments

# The players-table column of each payoff metric (report.frames.players_frame).
COLUMNS = {"first_place": "win", "rank_points": "rank_points", "final_points": "final_points"}
NAMES = {"first_place": "1st-place share", "rank_points": "rank points", "final_points": "final points"}
ALPHA = 100.0  # α-Rank's default selection intensity, payoffs in units of the table's range
ALPHAS = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)  # the sweep
POPULATION = 50  # α-Rank's population size m
RESAMPLES = 200
ROWS_PER_CHUNK = 2_000_000  # players rows read at once (whole shards; at least one)
SUPPORT = 1e-6  # a strategy with more mass than this is in an equilibrium's support


@dataclass(frozen=True)
class Design:
    """The profiles of a run: ``rules[r][variant]`` is the profile (counts over ``strategies``) that
    ``variant`` seats under rule variant ``r``; ``labels[r]`` says what ``r`` changes."""

    strategies: tuple[str, ...]
    seats: int
    rules: dict[str, dict[str, mg.Counts]]
    labels: dict[str, str]

    def variant(self, rule: str, counts: mg.Counts) -> str:
        return next(v for v, c in self.rules[rule].items() if c == counts)


def _rule_labels(manifest: Manifest, firsts: dict[str, str]) -> dict[str, str]:
    """Each rule variant's rules that differ from the first rule variant's, as ``k=v``."""
    variants = manifest.variants
    base = variants[next(iter(firsts.values()))]
    out = {}
    for rule, v in firsts.items():
        diff = {k: x for k, x in variants[v].items() if base.get(k) != x}
        out[rule] = ", ".join(
            f"{k}={json.dumps(x) if isinstance(x, (list, dict)) else _plain(x)}" for k, x in diff.items()
        )
    return out


def _plain(x: Any) -> str:
    return str(x).lower() if isinstance(x, bool) else "none" if x is None else str(x)


def design_of(manifest: Manifest, order: list[str] | None = None) -> Design:
    """The profiles of a run: the manifest's ``meta`` record, else every variant's lineup (its own, or
    the run's) with the variants grouped by their resolved rules, the strategies in ``order`` (default:
    as they first appear). Raises :class:`RunDirError` when
    a rule variant misses a profile or seats one twice."""
    meta = manifest.meta
    if meta:
        strategies = tuple(meta["strategies"])
        seats = int(meta["seats"])
        rules = {
            r: {v: tuple(meta["profiles"][v]["counts"]) for v in names} for r, names in meta["rules"].items()
        }
    else:
        lineups = {v: [s.strategy for s in manifest.lineup_of(v)] for v in manifest.variants}
        seen = dict.fromkeys(s for lineup in lineups.values() for s in lineup)
        if order is not None and sorted(order) != sorted(seen):
            raise RunDirError(f"the run seats {', '.join(seen)}, not {', '.join(order)}", field="variants")
        strategies = tuple(order or seen)
        seats = len(next(iter(lineups.values())))
        groups: dict[str, list[str]] = {}
        for v, rules_of in manifest.variants.items():
            groups.setdefault(json.dumps(rules_of, sort_keys=True), []).append(v)
        named = {("base" if len(groups) == 1 else vs[0]): vs for vs in groups.values()}
        rules = {}
        for r, vs in named.items():
            rules[r] = {}
            for v in vs:
                counts = tuple(lineups[v].count(s) for s in strategies)
                twin = next((w for w, c in rules[r].items() if c == counts), None)
                if twin is not None:
                    raise RunDirError(
                        f"variants {twin} and {v} seat the same profile under the same rules; "
                        "the metagame needs one variant per profile",
                        field="variants",
                    )
                rules[r][v] = counts
    every = mg.profiles(len(strategies), seats)
    for r, by_variant in rules.items():
        missing = [c for c in every if c not in by_variant.values()]
        if missing:
            shown = ", ".join(
                "+".join(s for s, n in zip(strategies, c, strict=True) for _ in range(n)) for c in missing[:3]
            )
            more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
            raise RunDirError(
                f"the variants under rules {r} do not seat every profile of {', '.join(strategies)} over "
                f"{seats} seats: missing {shown}{more}",
                field="variants",
            )
    firsts = {r: next(iter(vs)) for r, vs in rules.items()}
    return Design(strategies, seats, rules, _rule_labels(manifest, firsts))


class PayoffSums:
    """Per (profile variant, strategy present): the moments of the per-deal (Σ metric, rows) and
    their sums under each resample's keyed Poisson weights (see the module doc)."""

    def __init__(self, design: Design, metric: str, resamples: int, seed: int) -> None:
        self.design, self.column, self.resamples, self.seed = design, COLUMNS[metric], resamples, seed
        cells = [
            (v, design.strategies[k])
            for by_variant in design.rules.values()
            for v, counts in by_variant.items()
            for k, c in enumerate(counts)
            if c
        ]
        self.cells = pl.DataFrame(
            {
                "variant": [c[0] for c in cells],
                "strategy": [c[1] for c in cells],
                "_cell": np.arange(len(cells)),
            }
        )
        self.index = {c: i for i, c in enumerate(cells)}
        self.moments = [Moments.empty(2) for _ in cells]
        self.boot = np.zeros((2, resamples, len(cells)))  # Σ w·x and Σ w·rows per resample and cell

    def add(self, players: pl.DataFrame) -> None:
        """A chunk's players rows (``players_frame``) of whole deals."""
        per = (
            players.group_by("variant", "strategy", "deal")
            .agg(x=pl.col(self.column).cast(pl.Float64).sum(), m=pl.len().cast(pl.Float64))
            .join(self.cells, on=["variant", "strategy"], how="inner")
            .sort("_cell", "deal")
        )
        if per.height == 0:
            return
        cell = per["_cell"].to_numpy()
        x, m = per["x"].to_numpy(), per["m"].to_numpy()
        starts = np.flatnonzero(np.r_[True, cell[1:] != cell[:-1]])
        for a, b in zip(starts, [*starts[1:], len(cell)], strict=True):
            self.moments[int(cell[a])] += Moments.of(x[a:b], m[a:b])
        deals, at = np.unique(per["deal"].to_numpy(), return_inverse=True)
        weights = poisson_weights(self.seed, deals, self.resamples)
        for i, values in enumerate((x, m)):
            dense = np.zeros((len(self.moments), len(deals)))
            dense[cell, at] = values
            self.boot[i] += weights @ dense.T

    def tables(self) -> dict[str, Payoffs]:
        """Each rule variant's payoff table, its intervals and its resampled tables."""
        d = self.design
        k = len(d.strategies)
        every = mg.profiles(k, d.seats)
        with np.errstate(invalid="ignore", divide="ignore"):
            resampled = self.boot[0] / self.boot[1]
        # A resample that drew no deal of some cell has no table: left out (told as `resamples`).
        usable = np.all(np.isfinite(resampled), axis=1)
        out = {}
        for r in d.rules:
            point = np.full((len(every), k), np.nan)
            lo, hi = point.copy(), point.copy()
            reps = np.full((int(usable.sum()), len(every), k), np.nan)
            deals = 0
            for p, counts in enumerate(every):
                v = d.variant(r, counts)
                for s, c in enumerate(counts):
                    if not c:
                        continue
                    i = self.index[(v, d.strategies[s])]
                    iv = ratio_from_moments(self.moments[i])
                    point[p, s], lo[p, s], hi[p, s] = iv.estimate, iv.lo, iv.hi
                    reps[:, p, s] = resampled[usable, i]
                    deals = self.moments[i].n
            table = mg.PayoffTable(d.strategies, d.seats, tuple(every), point)
            out[r] = Payoffs(table, lo, hi, reps, deals)
        return out


@dataclass(frozen=True)
class Payoffs:
    """A rule variant's heuristic payoff table, its 95% intervals clustered by deal, its resampled
    tables and the deals each profile played."""

    table: mg.PayoffTable
    lo: np.ndarray
    hi: np.ndarray
    replicates: np.ndarray
    deals: int


def read_payoffs(
    run: RunLike, design: Design, metric: str, resamples: int = RESAMPLES, seed: int = 0
) -> dict[str, Payoffs]:
    """One pass over the run: each rule variant's :class:`Payoffs`."""
    sums = PayoffSums(design, metric, resamples, seed)
    for chunk in _chunks(run, design):
        sums.add(players_frame(chunk))
    return sums.tables()


def _chunks(run: RunLike, design: Design) -> Iterator[RunLike]:
    split = getattr(run, "chunks", None)
    if split is None:
        yield run
        return
    variants = sum(len(vs) for vs in design.rules.values())
    for sub, _shards in split(max(1, ROWS_PER_CHUNK // (variants * design.seats))):
        yield sub


def _interval(values: np.ndarray) -> dict[str, float | None]:
    """The 2.5% and 97.5% percentiles of resampled values (NaN: resamples where it was not found)."""
    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    if not len(v):
        return {"lo": None, "hi": None}
    lo, hi = np.percentile(v, [2.5, 97.5])
    return {"lo": float(lo), "hi": float(hi)}


def _iv(estimate: float, values: np.ndarray) -> dict[str, Any]:
    return {"estimate": float(estimate), **_interval(values)}


def analyse(p: Payoffs, alpha: float = ALPHA) -> dict[str, Any]:
    """A rule variant's metagame (JSON-ready; the module doc says what each part is)."""
    table, reps = p.table, p.replicates
    names = table.strategies
    k, n = len(names), table.players
    span = float(np.nanmax(table.payoffs) - np.nanmin(table.payoffs)) or 1.0
    found = mg.equilibria(table)
    head = max(range(len(found)), key=lambda i: found[i].basin)
    eq = found[head]
    followed = mg.follow(table, reps, eq.mix)
    located = ~np.isnan(followed[:, 0])
    in_support = followed[located] > SUPPORT
    # α-Rank on payoffs in units of the range, the same unit in every resample.
    normal = mg.PayoffTable(names, n, table.profiles, table.payoffs / span)
    ranks = mg.alpharank(normal, alpha, POPULATION)
    sweep = {a: mg.alpharank(normal, a, POPULATION) for a in ALPHAS}
    boot_ranks = mg.alpharank(normal, alpha, POPULATION, reps / span) if len(reps) else np.zeros((0, k))
    order = list(np.argsort(-sweep[ALPHAS[-1]], kind="stable"))
    stable_from = ALPHAS[-1]
    for a in reversed(ALPHAS):
        if list(np.argsort(-sweep[a], kind="stable")) != order:
            break
        stable_from = a
    dom = mg.dominant(table)
    dom_share = (
        float(np.mean(mg.dominant_each(table, reps) == dom)) if dom is not None and len(reps) else None
    )
    uniform = np.full(k, 1.0 / k)
    field = mg.against_mix(table, uniform)
    field_reps = mg.against_mix(table, uniform, reps)
    br = int(np.argmax(field))
    best = dom if dom is not None else int(np.argmax(eq.mix))
    mirror = tuple(n if s == best else 0 for s in range(k))
    restricted = []
    for r in range(k):
        if r == best:
            continue
        alone = tuple(1 if s == r else n - 1 if s == best else 0 for s in range(k))
        i, j = table.index(alone), table.index(mirror)
        restricted.append(
            {
                "strategy": names[r],
                "payoff": _iv(table.payoffs[i, r], reps[:, i, r]),
                "best_mirror": float(table.payoffs[j, best]),
                "loss": _iv(table.payoffs[j, best] - table.payoffs[i, r], reps[:, j, best] - reps[:, i, r]),
            }
        )
    return {
        "strategies": list(names),
        "deals": p.deals,
        "resamples": len(reps),
        "equilibria": [
            {
                "mix": dict(zip(names, map(float, e.mix), strict=True)),
                "support": [names[i] for i in e.support],
                "regret": e.regret,
                "entropy_bits": e.entropy,
                "basin": e.basin,
            }
            for e in found
        ],
        "headline": head,
        "equilibrium": {
            "mix": {s: _iv(eq.mix[i], followed[:, i]) for i, s in enumerate(names)},
            "support_share": {
                s: float(in_support[:, i].mean()) if len(in_support) else None for i, s in enumerate(names)
            },
            "found_in": float(located.mean()) if len(located) else None,
        },
        "alpharank": {
            "alpha": alpha,
            "population": POPULATION,
            "mass": {
                s: _iv(ranks[i], boot_ranks[:, i] if len(boot_ranks) else np.array([]))
                for i, s in enumerate(names)
            },
            "top_share": {
                s: float(np.mean(np.argmax(boot_ranks, axis=1) == i)) if len(boot_ranks) else None
                for i, s in enumerate(names)
            },
            "sweep": {str(a): dict(zip(names, map(float, m), strict=True)) for a, m in sweep.items()},
            "stable_from": stable_from,
        },
        "dominant": None if dom is None else {"strategy": names[dom], "share": dom_share},
        "balance": {
            "support_size": len(eq.support),
            "entropy_bits": eq.entropy,
            "max_entropy_bits": math.log2(k),
            "best_response": names[br],
            "best_response_advantage": _iv(
                field[br] - field.mean(), field_reps[:, br] - field_reps.mean(axis=1)
            ),
        },
        "restricted": {"best": names[best], "rows": restricted},
        "payoffs": [
            {
                "profile": list(c),
                "payoffs": {
                    names[s]: {
                        "estimate": _num(table.payoffs[q, s]),
                        "lo": _num(p.lo[q, s]),
                        "hi": _num(p.hi[q, s]),
                    }
                    for s in range(k)
                    if c[s]
                },
            }
            for q, c in enumerate(table.profiles)
        ],
        "_followed": followed,
        "_responses": [
            (int(s), int(r))
            for s, r in np.argwhere(mg.fixations(normal, alpha, POPULATION) > 1 / POPULATION)
            if s != r
        ],
    }


def _num(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def compare(a: dict[str, Any], b: dict[str, Any], rule: str, base: str) -> dict[str, Any]:
    """How rule variant ``rule``'s headline equilibrium differs from ``base``'s: the mass moved (total
    variation), each strategy's change in mass with its paired percentile interval, the strategies
    that enter or leave the support, and α-Rank's top strategy."""
    names = a["strategies"]
    xa = np.array([a["equilibrium"]["mix"][s]["estimate"] for s in names])
    xb = np.array([b["equilibrium"]["mix"][s]["estimate"] for s in names])
    fa, fb = a["_followed"], b["_followed"]
    both = ~np.isnan(fa[:, 0]) & ~np.isnan(fb[:, 0])
    moved = _iv(0.5 * np.abs(xa - xb).sum(), 0.5 * np.abs(fa[both] - fb[both]).sum(axis=1))
    shifts = []
    for i, s in enumerate(names):
        iv = _iv(xa[i] - xb[i], fa[both, i] - fb[both, i])
        if iv["lo"] is not None and (iv["lo"] > 0 or iv["hi"] < 0):
            shifts.append({"strategy": s, "difference": iv})
    shifts.sort(key=lambda c: -abs(c["difference"]["estimate"]))
    gained = [s for i, s in enumerate(names) if xa[i] > SUPPORT >= xb[i]]
    lost = [s for i, s in enumerate(names) if xb[i] > SUPPORT >= xa[i]]
    tops = [max(names, key=lambda s: r["alpharank"]["mass"][s]["estimate"]) for r in (a, b)]
    sentences = [f"mass moved {_pp(moved)} of the equilibrium (total variation)"]
    sentences += [f"{c['strategy']}'s equilibrium mass {_pp(c['difference'], signed=True)}" for c in shifts]
    share = a["equilibrium"]["support_share"]
    share_b = b["equilibrium"]["support_share"]
    sentences += [
        f"{s} enters the support (in it in {share[s]:.0%} of resamples, {share_b[s]:.0%} under {base})"
        for s in gained
        if share[s] is not None and share_b[s] is not None
    ]
    sentences += [
        f"{s} leaves the support (in it in {share[s]:.0%} of resamples, {share_b[s]:.0%} under {base})"
        for s in lost
        if share[s] is not None and share_b[s] is not None
    ]
    if tops[0] != tops[1]:
        sentences.append(f"α-Rank's top strategy: {tops[0]} (was {tops[1]})")
    changed = bool(shifts or gained or lost or tops[0] != tops[1])
    return {
        "variant": rule,
        "baseline": base,
        "mass_moved": moved,
        "shifts": shifts,
        "gained": gained,
        "lost": lost,
        "alpharank_top": {"variant": tops[0], "baseline": tops[1]},
        "changes": sentences if changed else [],
        "summary": "the equilibrium changed" if changed else f"no change detected (mass moved {_pp(moved)})",
    }


def _pp(iv: dict[str, Any], signed: bool = False) -> str:
    """A mass or a change of mass in percentage points, with its percentile interval."""
    e = iv["estimate"] * 100
    text = f"{e:+.0f} pp" if signed else f"{e:.0f}%"
    if iv.get("lo") is None:
        return text
    return f"{text} [{iv['lo'] * 100:.0f}, {iv['hi'] * 100:.0f}]"


def build(
    run: RunLike, metric: str = "rank_points", alpha: float = ALPHA, resamples: int = RESAMPLES, seed: int = 0
) -> dict[str, Any]:
    """The metagame of ``run`` (JSON-ready once :func:`public` drops the resampled mixes)."""
    design = design_of(run.manifest)
    payoffs = read_payoffs(run, design, metric, resamples, seed)
    # The solves are many and small: BLAS threads only contend for the cores (with each other and
    # with any run on the machine), so they get one.
    with threadpool_limits(limits=1, user_api="blas"):
        rules = {r: analyse(p, alpha) for r, p in payoffs.items()}
    names = list(rules)
    result = {
        "run": str(run.path),
        "game": run.manifest.game,
        "metric": metric,
        "metric_name": NAMES[metric],
        "strategies": list(design.strategies),
        "seats": design.seats,
        "profiles": len(mg.profiles(len(design.strategies), design.seats)),
        "rules": rules,
        "rule_labels": design.labels,
        "comparisons": [compare(rules[r], rules[names[0]], r, names[0]) for r in names[1:]],
    }
    result["answer"] = answer_lines(result)
    return result


def public(result: dict[str, Any]) -> dict[str, Any]:
    """The result without the resampled mixes (for JSON)."""
    return {
        **result,
        "rules": {
            r: {k: v for k, v in a.items() if not k.startswith("_")} for r, a in result["rules"].items()
        },
    }


def _under(result: dict[str, Any], rule: str) -> str:
    label = result["rule_labels"].get(rule)
    return f"under {rule}" + (f" ({label})" if label else "")


def _mix_text(a: dict[str, Any]) -> str:
    mix = a["equilibrium"]["mix"]
    parts = sorted((s for s in mix if mix[s]["estimate"] > SUPPORT), key=lambda s: -mix[s]["estimate"])
    return " + ".join(f"{s} {_pp(mix[s])}" for s in parts)


def answer_lines(result: dict[str, Any]) -> list[str]:
    """The answer, one line per rule variant, then one per comparison with the first."""
    lines = []
    for rule, a in result["rules"].items():
        head = a["equilibria"][a["headline"]]
        k = len(a["strategies"])
        if a["dominant"]:
            d = a["dominant"]
            share = f" (in {d['share']:.0%} of resamples)" if d["share"] is not None else ""
            text = f"{d['strategy']} dominant: a strict best response to every profile{share}"
        else:
            text = f"no dominant strategy; equilibrium {_mix_text(a)}"
        many = len(a["equilibria"])
        extra = (
            f"; {many} equilibria, this one attracts {head['basin']:.0%} of random starts" if many > 1 else ""
        )
        lines.append(
            f"{_under(result, rule)}: {text} (support {len(head['support'])} of {k}, "
            f"entropy {head['entropy_bits']:.2f} bits){extra}"
        )
    for c in result["comparisons"]:
        body = "; ".join(c["changes"]) if c["changes"] else c["summary"]
        lines.append(f"{c['variant']} vs {c['baseline']}: {body}")
    return lines


def profile_label(strategies: list[str], counts: list[int]) -> str:
    return "+".join(s for s, c in zip(strategies, counts, strict=True) for _ in range(c))


def print_meta(result: dict[str, Any], console: Console, *, payoffs: bool = True) -> None:
    """The answer first, then per rule variant its equilibria, α-Rank, balance, restricted play and
    payoff table."""
    for line in result["answer"]:
        console.print(escape(line), highlight=False)
    metric = result["metric_name"]
    for rule, a in result["rules"].items():
        names = a["strategies"]
        console.print()
        console.print(
            f"[bold]{escape(_under(result, rule))}[/bold]: {result['profiles']} profiles of "
            f"{len(names)} strategies over {result['seats']} seats, {a['deals']:,} deals each "
            f"(seat-rotated), payoff {metric}; "
            f"intervals: 95% over {a['resamples']} bootstrap resamples of the deals"
        )
        rows = []
        for i, e in enumerate(a["equilibria"]):
            mix = " + ".join(f"{s} {e['mix'][s]:.0%}" for s in e["support"])
            rows.append(
                [
                    ("* " if i == a["headline"] else "  ") + mix,
                    f"{e['regret']:.1e}",
                    f"{e['entropy_bits']:.2f}",
                    f"{e['basin']:.0%}",
                ]
            )
        print_fitted(
            console,
            "symmetric equilibria (* the headline: largest basin)",
            [Col("mix", right=False)],
            [Col("regret"), Col("entropy (bits)"), Col("basin")],
            rows,
        )
        eq = a["equilibrium"]
        ar = a["alpharank"]
        rows = [
            [
                s,
                _pp(eq["mix"][s]),
                f"{eq['support_share'][s]:.0%}" if eq["support_share"][s] is not None else "–",
                f"{ar['mass'][s]['estimate']:.3f}"
                + (
                    f" [{ar['mass'][s]['lo']:.3f}, {ar['mass'][s]['hi']:.3f}]"
                    if ar["mass"][s]["lo"] is not None
                    else ""
                ),
                f"{ar['top_share'][s]:.0%}" if ar["top_share"][s] is not None else "–",
            ]
            for s in names
        ]
        print_fitted(
            console,
            f"equilibrium and α-Rank (α = {ar['alpha']:g} in range units, m = {ar['population']}; "
            f"ranking unchanged from α = {ar['stable_from']:g} up)",
            [Col("strategy", right=False)],
            [Col("equilibrium mass"), Col("in support"), Col("α-Rank mass"), Col("α-Rank top")],
            rows,
        )
        b = a["balance"]
        adv = b["best_response_advantage"]
        console.print(
            f"balance: support {b['support_size']} of {len(names)}, entropy {b['entropy_bits']:.2f} of "
            f"{b['max_entropy_bits']:.2f} bits; against a uniform field the best response "
            f"{escape(b['best_response'])} earns {_signed(adv)} over the field's mean; "
            + (f"dominant: {escape(a['dominant']['strategy'])}" if a["dominant"] else "no dominant strategy")
        )
        best = a["restricted"]["best"]
        rows = [
            [r["strategy"], _signed(r["payoff"], False), f"{r['best_mirror']:.4g}", _signed(r["loss"])]
            for r in a["restricted"]["rows"]
        ]
        print_fitted(
            console,
            f"restricted play: one player of each strategy against {result['seats'] - 1} × {best} "
            f"(the best), and what it loses against {best}'s mirror",
            [Col("strategy", right=False)],
            [Col(f"its {metric}"), Col(f"{best} in mirror"), Col("loss")],
            rows,
        )
        if payoffs:
            pct = result["metric"] == "first_place"
            rows = [
                [
                    profile_label(names, row["profile"]),
                    *(fmt_pm(row["payoffs"].get(s), pct) if s in row["payoffs"] else "" for s in names),
                ]
                for row in a["payoffs"]
            ]
            print_fitted(
                console,
                f"heuristic payoff table ({metric}, 95% CI clustered by deal)",
                [Col("profile", right=False)],
                [Col(s) for s in names],
                rows,
            )


def _signed(iv: dict[str, Any], signed: bool = True) -> str:
    e = iv["estimate"]
    text = f"{e:+.4g}" if signed else f"{e:.4g}"
    if iv.get("lo") is None:
        return text
    return f"{text} [{iv['lo']:.4g}, {iv['hi']:.4g}]"
