"""The stronger Riichi baseline's margin: ``balanced`` against ``efficiency`` and ``fold-on-riichi``.

A challenger design (``[challengers]``, README) under Tenhou rules, East-only games (tonpuu):
``field = "efficiency"``, challengers ``balanced`` and ``fold-on-riichi``, each seated in every seat
of every deal against three copies of the field, all on the same keyed deals. The report's own
sums (``report.challengers``, paired t intervals of the per-deal differences) give ``balanced −
efficiency`` (balanced against the field) and ``balanced − fold-on-riichi`` (the pair of
challengers) for rank points (Tenhou's 90/45/0/−135) and 1st-place share, each with its 95%
interval. The script asserts that the four lower bounds are above zero and exits 1 otherwise.
Usage: ``python benchmarks/riichi_strength.py [--deals N] [--jobs J] [--seed S]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from simharness import config, runner, store
from simharness.report.challengers import NAMES
from simharness.report.stream import collect
from simharness.report.textfit import fmt_ci

CHALLENGER = "balanced"
RIVAL = "fold-on-riichi"
FIELD = "efficiency"
# The metrics asserted: (report metric, as a percentage).
ASSERTED = (("rank_points", False), ("win", True))


def margins(deals: int, jobs: int, seed: int, folder: Path) -> dict[str, Any]:
    """``{(comparison, metric): interval}`` of a challenger run of ``deals`` deals per variant."""
    cfg = folder / "riichi-strength.toml"
    cfg.write_text(
        f'name = "riichi-strength"\ngame = "riichi"\ngames = {deals * 4}\nseed = {seed}\n'
        f'[rules]\npreset = "tenhou"\ngame_length = "tonpuu"\n'
        f'[challengers]\nfield = "{FIELD}"\nstrategies = ["{CHALLENGER}", "{RIVAL}"]\n'
    )
    exp = config.load(cfg)
    start = time.perf_counter()
    runner.run(exp, folder / "out", jobs=jobs, console=Console(quiet=True))
    seconds = time.perf_counter() - start
    result = collect(store.open_run(folder / "out" / "riichi-strength"), scorecard=False).summary[
        "challengers"
    ]
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for r in result["ranking"]:
        for m, _ in ASSERTED:
            out[(f"{r['strategy']} − {FIELD}", m)] = r[m]["vs_field"]["difference"]
    variant = {v: s for r in result["ranking"] for v, s in [(r["challenger"], r["strategy"])]}
    for p in result["pairs"]:
        if p["metric"] in dict(ASSERTED):
            out[(f"{variant[p['a']]} − {variant[p['b']]}", p["metric"])] = p["difference"]
    return {"deals": result["deals"], "seconds": seconds, "intervals": out}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=2500, help="deals per variant (4 games each)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20261128)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        r = margins(args.deals, args.jobs, args.seed, Path(tmp))
    wanted = [(f"{CHALLENGER} − {FIELD}", m) for m, _ in ASSERTED]
    wanted += [(f"{CHALLENGER} − {RIVAL}", m) for m, _ in ASSERTED]
    failed = []
    print(
        f"balanced's margin, 95% intervals ({r['deals']:,} deals × 4 seats per variant, tonpuu, "
        f"Tenhou rules; {r['seconds']:.0f} s):"
    )
    pct = dict(ASSERTED)
    for comparison, m in wanted:
        iv = r["intervals"][(comparison, m)]
        ok = iv["lo"] is not None and iv["lo"] > 0
        failed += [] if ok else [f"{comparison} {NAMES[m]}"]
        verdict = "above 0" if ok else "NOT above 0"
        print(f"  {comparison:<28} {NAMES[m]:<16} {fmt_ci(iv, pct=pct[m])}  {verdict}")
    for comparison, m in sorted(set(r["intervals"]) - set(wanted)):
        print(f"  {comparison:<28} {NAMES[m]:<16} {fmt_ci(r['intervals'][(comparison, m)], pct=pct[m])}")
    if failed:
        print(f"FAILED: the interval is not above 0 for {', '.join(failed)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
