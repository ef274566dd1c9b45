"""The verdict: the answer to the config's question, in words, on top of every report.

A designer writes a config to ask one question (its ``description``). The verdict states it, then for
each variant against the baseline names every metric whose change is significant, largest first, in
one sentence each with its 95% interval. The family of one variant's comparison is every metric the
report compares: the core differences (each strategy's 1st-place rate and mean final points, game
length; paired by deal), the balance scorecard's (deal bootstrap), the game's own metrics and the
tails of final points (``report.tails``). Holm's step-down controls the family-wise error of each
variant's family at ``ALPHA``. "Largest" is in standard errors (|estimate| / se), the only scale
the metrics share.

The game's own metrics are compared paired by deal (``game_metric_differences``:
``games.estimates.PairedRatioSums``). A game whose metrics the report computes on the whole run
(rows without sufficient statistics) has no pairing: its difference then takes the two intervals as
independent, which under common random numbers is wider than a paired one (conservative).

Where a variant changes nothing, the verdict says what it could have seen: the minimum detectable
effect (``stats.power.min_detectable``) of each headline metric at ``POWER``, at the level Holm's
first step needs (``ALPHA`` over the family's size), from the standard errors of these games.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from rich.console import Console
from rich.markup import escape

from simharness import vocabulary
from simharness.report.glance import is_share
from simharness.report.htmlkit import esc, html_table
from simharness.report.textfit import digits_for
from simharness.stats import dist
from simharness.stats.hypotheses import holm
from simharness.stats.power import min_detectable

ALPHA = 0.05
POWER = 0.8
Z95 = dist.norm_ppf(0.975)
# The metrics whose minimum detectable effect a no-change verdict states, in this order.
HEADLINE = ("win", "final_points", "length", "p1", "p99")


def _num(x: float, d: int, signed: bool = False) -> str:
    """``x`` with ``d`` decimals and thousands separators; a minus sign, not a hyphen."""
    return f"{x:{'+' if signed else ''},.{d}f}".replace("-", "−")


def _sig2(x: float) -> int:
    """Decimals that show ``x`` to two significant digits (0 to 4)."""
    if not x > 0 or not math.isfinite(x):
        return 0
    return max(0, min(4, 1 - math.floor(math.log10(x) + 1e-9)))


def _se(iv: dict[str, Any]) -> float:
    lo, hi = iv.get("lo"), iv.get("hi")
    return (hi - lo) / (2 * Z95) if lo is not None and hi is not None else math.nan


def _candidate(
    source: str,
    metric: str,
    strategy: str | None,
    name: str,
    pct: bool,
    iv: dict[str, Any],
    pvalue: float | None,
    se: float | None = None,
) -> dict[str, Any] | None:
    if iv.get("estimate") is None or pvalue is None or not math.isfinite(pvalue):
        return None
    return {
        "source": source,
        "metric": metric,
        "strategy": strategy,
        "label": name,
        "unit": "pp" if pct else "",
        "difference": {k: iv.get(k) for k in ("estimate", "lo", "hi")},
        "se": _se(iv) if se is None else se,
        "pvalue": float(pvalue),
    }


def _game_difference(a: dict[str, Any], b: dict[str, Any]) -> tuple[dict[str, Any], float, float] | None:
    """A game metric's variant-minus-baseline difference from two independent intervals (see the
    module doc): the interval, its standard error and the two-sided p-value."""
    if any(r.get(k) is None for r in (a, b) for k in ("estimate", "lo", "hi")):
        return None
    est = a["estimate"] - b["estimate"]
    se = math.hypot(_se(a), _se(b))
    # A zero standard error is an exact difference: nothing to doubt, either way.
    p = 2 * dist.norm_sf(abs(est) / se) if se > 0 else 1.0 if est == 0 else 0.0
    return {"estimate": est, "lo": est - Z95 * se, "hi": est + Z95 * se}, se, p


def _candidates(report: dict[str, Any], v: str, base: str) -> list[dict[str, Any]]:
    """Every compared metric of variant ``v`` against ``base`` (see the module doc)."""
    game = str(report["run"].get("game"))
    unit = (report["variants"][base].get("length") or {}).get("unit") or "turns or hands"
    out: list[dict[str, Any] | None] = []
    for d in report.get("differences", []):
        if d["variant"] != v:
            continue
        s, m = d["strategy"], d["metric"]
        name = {"win": f"{s}'s 1st-place rate", "final_points": f"{s}'s mean final points"}.get(
            m, f"game length ({unit})"
        )
        out.append(_candidate("core", m, s, name, m == "win", d["difference"], d["pvalue"]))
    core = {c["metric"] for c in out if c is not None}
    sc = report.get("scorecard") or {}
    for d in sc.get("differences", []):
        if d["variant"] != v or d["metric"] in core:  # the scorecard's length is the core's
            continue
        m = d["metric"]
        out.append(
            _candidate(
                "scorecard",
                m,
                None,
                vocabulary.name(m, game),
                is_share(game, m),
                d["difference"],
                d["pvalue"],
            )
        )
    paired = {
        (d["strategy"], d["metric"]): d
        for d in report.get("game_metric_differences", [])
        if d["variant"] == v and d["pvalue"] is not None and d["difference"].get("estimate") is not None
    }
    rows = {(r["variant"], r["strategy"], r["metric"]): r for r in report.get("game_metrics", [])}
    for (rv, s, m), r in rows.items():
        b = rows.get((base, s, m))
        if rv != v or b is None:
            continue
        if (s, m) in paired:
            iv, p = paired[(s, m)]["difference"], paired[(s, m)]["pvalue"]
            se = _se(iv)
        else:
            diff = _game_difference(r, b)
            if diff is None:
                continue
            iv, se, p = diff
        said = vocabulary.name(m, game) if s in (None, "all") else f"{s}'s {vocabulary.name(m, game)}"
        out.append(_candidate("game", m, s, said, is_share(game, m), iv, p, se))
    for d in (report.get("tails") or {}).get("differences", []):
        if d["variant"] != v:
            continue
        c = _candidate(
            "tails",
            d["metric"],
            None,
            f"{d['metric']} of final points",
            False,
            d["difference"],
            d["pvalue"],
            d["se"],
        )
        if c is not None:
            c["worst"], c["worst_baseline"] = d["worst"], d["worst_baseline"]
        out.append(c)
    return [c for c in out if c is not None]


def _interval_text(c: dict[str, Any]) -> str:
    """``+1.2 pp [0.4, 2.0]``: the difference to the precision of its interval."""
    scale = 100.0 if c["unit"] == "pp" else 1.0
    iv = c["difference"]
    d = min(2, digits_for(iv, scale)) if scale != 1.0 else digits_for(iv)
    unit = f" {c['unit']}" if c["unit"] else ""
    return (
        f"{_num(iv['estimate'] * scale, d, signed=True)}{unit} "
        f"[{_num(iv['lo'] * scale, d)}, {_num(iv['hi'] * scale, d)}]"
    )


def _sentence(c: dict[str, Any]) -> str:
    text = f"{c['label']} {_interval_text(c)}"
    if c["metric"] == "p1" and c["source"] == "tails":
        # The worst score is what a designer remembers; p1 is its estimable, comparable stand-in.
        return f"worst final score {_num(c['worst'], 0)} vs {_num(c['worst_baseline'], 0)} ({text})"
    return text


def _detectable(cands: list[dict[str, Any]], alpha: float) -> list[dict[str, Any]]:
    """Per headline metric the largest minimum detectable effect over its strategies (``mde`` None
    when the metric's paired difference is zero in every deal: nothing to detect against)."""
    out = []
    for metric in HEADLINE:
        group = [c for c in cands if c["metric"] == metric and c["source"] in ("core", "tails")]
        ses = [c["se"] for c in group if math.isfinite(c["se"])]
        if not ses:
            continue
        c = group[0]
        strategies = {g["strategy"] for g in group}
        name = (
            c["label"] if len(strategies) == 1 else c["label"].replace(f"{c['strategy']}'s", "a strategy's")
        )
        mde = min_detectable(max(ses), alpha, POWER)
        scale = 100.0 if c["unit"] == "pp" else 1.0
        # Below the shown precision is rounding of a zero-width interval: the variant changed no deal.
        same = mde * scale < 5e-5 and all(g["difference"]["estimate"] == 0 for g in group)
        unit = f" {c['unit']}" if c["unit"] else ""
        text = name if same else f"±{_num(mde * scale, _sig2(mde * scale))}{unit} in {name}"
        out.append(
            {"metric": metric, "label": name, "unit": c["unit"], "mde": None if same else mde, "text": text}
        )
    return out


def comparison(report: dict[str, Any], v: str, base: str) -> dict[str, Any]:
    """Variant ``v`` against ``base``: the family tested, the significant changes (largest first) and,
    when there is none, the minimum detectable effects of the headline metrics."""
    cands = _candidates(report, v, base)
    adjusted = holm(np.array([c["pvalue"] for c in cands], dtype=float))
    for c, p in zip(cands, adjusted, strict=True):
        c["p_holm"] = float(p)
    changes = [c for c in cands if c["p_holm"] < ALPHA]

    def size(c: dict[str, Any]) -> float:
        est = abs(c["difference"]["estimate"])
        return est / c["se"] if c["se"] > 0 else math.inf if est > 0 else 0.0

    changes.sort(key=lambda c: (-size(c), c["p_holm"]))
    for c in changes:
        c["sentence"] = _sentence(c)
    # The standard error and the worst scores served the order and the sentence (the tails keep them).
    public = [{k: x for k, x in c.items() if k not in ("se", "worst", "worst_baseline")} for c in changes]
    out: dict[str, Any] = {"variant": v, "baseline": base, "tested": len(cands), "changes": public}
    out["detectable"] = []
    if any(c["metric"] in HEADLINE and c["source"] in ("core", "tails") for c in changes):
        out["summary"] = f"{len(changes)} of {len(cands)} metrics changed"
        return out
    # No headline metric changed: say what these games could have seen in them, also when the rule
    # changed something else (often its own counter: it came into play, and that was all).
    out["detectable"] = _detectable(cands, ALPHA / max(len(cands), 1))
    would = "; ".join(d["text"] for d in out["detectable"] if d["mde"] is not None)
    same = ", ".join(d["text"] for d in out["detectable"] if d["mde"] is None)
    if changes:
        out["summary"] = f"{len(changes)} of {len(cands)} metrics changed, none of the headline ones" + (
            f"; with these games it would have detected {would} in them" if would else ""
        )
        return out
    if not would:
        out["summary"] = "no change detected" + (
            f": every game played exactly as under {base}" if out["detectable"] else ""
        )
        return out
    out["summary"] = f"no change detected; with these games it would have detected {would}" + (
        f"; the same in every deal: {same}" if same else ""
    )
    return out


def build_verdict(report: dict[str, Any]) -> dict[str, Any]:
    """The verdict of a report (``report.full.report_of``): ``question`` (the config's description),
    ``alpha``, ``power`` and per variant after the first its :func:`comparison` with the first."""
    variants = report["variant_order"]
    return {
        "question": report["run"].get("description"),
        "alpha": ALPHA,
        "power": POWER,
        "comparisons": [comparison(report, v, variants[0]) for v in variants[1:]],
    }


def verdict_lines(verdict: dict[str, Any], limit: int | None = None) -> list[tuple[str, list[str]]]:
    """(heading, sentences) per comparison, at most ``limit`` changes each (and a line saying how
    many more the full report names)."""
    out = []
    for c in verdict["comparisons"]:
        lines = [ch["sentence"] for ch in c["changes"][:limit]]
        hidden = len(c["changes"]) - len(lines)
        if hidden:
            lines.append(f"… and {hidden} more (the full report lists them)")
        if not c["changes"]:
            lines.append(c["summary"])
        heading = f"{c['variant']} vs {c['baseline']}" + (
            f": {c['summary']} (Holm, {verdict['alpha']:.0%} family-wise)" if c["changes"] else ":"
        )
        out.append((heading, lines))
    return out


def print_verdict(verdict: dict[str, Any], console: Console, limit: int | None = None) -> None:
    """The question, then each comparison's changes as one sentence each."""
    console.print()
    q = verdict.get("question")
    console.print(
        f"[bold]question:[/bold] {escape(q)}"
        if q
        else "[bold]question:[/bold] (the config has no description)"
    )
    if not verdict["comparisons"]:
        console.print("one variant: nothing to compare")
    for heading, lines in verdict_lines(verdict, limit):
        console.print(f"[bold]{escape(heading)}[/bold]", highlight=False)
        for line in lines:
            console.print(f"  {escape(line)}", highlight=False)


def verdict_html(report: dict[str, Any]) -> str:
    """The verdict as the HTML page's first section, with the tails of final points per variant."""
    verdict = report["verdict"]
    q = verdict.get("question")
    parts = [
        "<h2>Verdict</h2>",
        f"<p><strong>Question:</strong> {esc(q)}</p>" if q else "<p>The config has no description.</p>",
    ]
    for heading, lines in verdict_lines(verdict):
        parts.append(f"<p><strong>{esc(heading)}</strong></p><ul>")
        parts += [f"<li>{esc(line)}</li>" for line in lines]
        parts.append("</ul>")
    tails = report.get("tails") or {}
    if tails.get("variants"):
        header = ["variant", *(f"{q} of final points" for q in tails["quantiles"]), "worst", "best"]
        rows = [
            [
                v,
                *(_plain(t[q]) for q in tails["quantiles"]),
                _num(t["worst"], 0),
                _num(t["best"], 0),
            ]
            for v, t in ((v, tails["variants"][v]) for v in report["variant_order"] if v in tails["variants"])
        ]
        parts.append(html_table(header, rows))
    return "\n".join(parts)


def _plain(iv: dict[str, Any]) -> str:
    """``estimate [lo, hi]`` of a quantile, in whole points."""
    if iv.get("estimate") is None:
        return "–"
    if iv.get("lo") is None or iv.get("hi") is None:
        return _num(iv["estimate"], 0)
    return f"{_num(iv['estimate'], 0)} [{_num(iv['lo'], 0)}, {_num(iv['hi'], 0)}]"
