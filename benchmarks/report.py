"""Report speed: the end-of-run summary, the full report and the HTML page, against the run itself.

Baseline: the time the pipeline took to play and store the same games (the summary runs after every
`simharness run`, so it should cost a fraction of the run). Plays the demo config into a temporary
directory; a few seconds to a minute depending on --games.

    python benchmarks/report.py [--games N] [--config PATH]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rich.console import Console

from simharness import config, runner, store
from simharness.report.full import build_report
from simharness.report.html import write_html
from simharness.report.summary import build_summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20000, help="games per variant")
    ap.add_argument("--config", type=Path, default=Path("configs/sugoroku-demo.toml"))
    args = ap.parse_args()
    exp = config.load(args.config, games=args.games)
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        run_dir = runner.run(exp, Path(tmp), console=Console(quiet=True))
        run_s = time.perf_counter() - t
        run = store.open_run(run_dir)
        rows = run.table("players").height
        timings = {}
        for name, fn in (
            ("summary", lambda: build_summary(run)),
            ("full report", lambda: build_report(run)),
            ("report + HTML", lambda: write_html(run, build_report(run), Path(tmp) / "r.html")),
        ):
            t = time.perf_counter()
            fn()
            timings[name] = time.perf_counter() - t
    games = exp.games * len(exp.variants)
    print(f"{exp.name}: {games:,} games ({rows:,} player rows), run {run_s:.2f} s")
    for name, s in timings.items():
        print(f"  {name:14s} {s:6.2f} s  {games / s:10,.0f} games/s  {s / run_s:5.2f}x the run")


if __name__ == "__main__":
    main()
