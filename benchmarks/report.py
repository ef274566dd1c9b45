"""Report cost against the run: wall time and peak memory of `simharness report` on runs of growing size.

For each size, plays the config (default: the sugoroku demo) with `simharness run` into a temporary
directory, then reports it with `simharness report --json` and `simharness report --html`, each
in its own process (with the run's ``--jobs``) so that its peak memory is its own (summed over its
worker processes: ``_rates.measured``), and `simharness compare` of the lineup's first
two strategies likewise (nan for a lineup of one strategy). Prints, per size: games, the run's time
and peak RSS, the report's, the report's time as a multiple of the run's against the target, and
compare's (the report and compare stream the run chunk by chunk: memory flat in the games, time
linear).

Targets (issue 27): at 10^6 games and beyond, the report and compare each take at most a fifth of
the run's wall time at the same jobs, and peak at most 1 GB of RSS at any size (check 10^7 sugoroku
games and 10^6 five-player Suzume-jong games: `--config configs/suzume-5p.toml`). A size that misses
a target is marked, and the script exits 1 if any did.

    python benchmarks/report.py [--games N ...] [--config PATH] [--jobs J]
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path

from _rates import SIMHARNESS, measured

from simharness import config

TARGET_RSS_GB = 1.0
TARGET_RATIO = 0.2
# Below this many games a run is mostly starting Python; the time target applies from here.
TIMED_FROM = 1_000_000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, nargs="+", default=[20000], help="games per variant, one run each")
    ap.add_argument("--config", type=Path, default=Path("configs/sugoroku-demo.toml"))
    ap.add_argument("--jobs", type=int, default=None, help="workers of run, report, compare (default: all)")
    args = ap.parse_args()
    exp = config.load(args.config)
    variants = len(exp.variants)
    # compare needs two strategies: a lineup of one (a reference config) times the report alone.
    pair = list(dict.fromkeys(slot.strategy for slot in exp.lineup))[:2]
    print(
        f"{args.config}: {variants} variants; report targets ≤ {TARGET_RSS_GB} GB, ≤ {TARGET_RATIO}x the run"
    )
    header = (
        *("games", "run s", "run GB", "report s", "GB", "x run"),
        *("+HTML s", "GB", "compare s", "GB", "x run"),
    )
    widths = (12, 8, 7, 9, 6, 6, 8, 6, 10, 6, 6)
    missed = 0
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)))
    for games in args.games:
        with tempfile.TemporaryDirectory() as tmp:
            # The same workers for the run and what reads it (the target is "at the same jobs").
            jobs = ["--jobs", str(args.jobs)] if args.jobs else []
            run_cmd = [*SIMHARNESS, "run", str(args.config), "--games", str(games), "--out", tmp, "-q", *jobs]
            run_s, run_gb = measured(run_cmd)
            run_dir = next(p for p in Path(tmp).iterdir() if p.is_dir())
            rep_s, rep_gb = measured([*SIMHARNESS, "report", str(run_dir), "--json", *jobs])
            html_s, html_gb = measured(
                [*SIMHARNESS, "report", str(run_dir), "--html", str(Path(tmp) / "r.html"), *jobs]
            )
            cmp_s, cmp_gb = math.nan, math.nan
            if len(pair) == 2:
                compare = [*SIMHARNESS, "compare", str(run_dir), "--a", pair[0], "--b", pair[1], "--json"]
                cmp_s, cmp_gb = measured([*compare, *jobs])
        total = games * variants
        slow = total >= TIMED_FROM and max(rep_s, cmp_s if len(pair) == 2 else 0.0) / run_s > TARGET_RATIO
        big = max(rep_gb, html_gb, cmp_gb if len(pair) == 2 else 0.0) > TARGET_RSS_GB
        missed += slow or big
        mark = "  " + ", ".join(m for m, bad in (("slower than the target", slow), ("over 1 GB", big)) if bad)
        print(
            f"{total:>12,} {run_s:>8.1f} {run_gb:>7.2f} {rep_s:>9.1f} {rep_gb:>6.2f} {rep_s / run_s:>6.2f} "
            f"{html_s:>8.1f} {html_gb:>6.2f} {cmp_s:>10.1f} {cmp_gb:>6.2f} {cmp_s / run_s:>6.2f}"
            + (mark if slow or big else ""),
            flush=True,
        )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
