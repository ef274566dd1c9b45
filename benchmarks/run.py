"""Every game's rates in one table (`make bench`): the engine, the whole pipeline with one worker, one
Python seat and the report, each with its ratio to its named baseline (RiichiEnv for Riichi's
engine, a game's target where it has one, the engine for the pipeline and for the Python seat, the
run for the report). Each game's rows come from its own script (`sugoroku.py`, `trump.py`, ...,
runnable alone with more options) at its default sizes; the report is timed against `simharness run`
of the same config and games, each in its own process (at these sizes both are mostly starting
Python: `report.py` measures larger runs). A few minutes on 2 cores.

    python benchmarks/run.py [--repeat N] [--all]

``--all`` then runs the other benchmarks (`riichi_eval.py`, `challengers.py`, `metagame.py`,
`report.py`), one after the other.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import _rates
import hongkong
import riichi_game
import sugoroku
import suzume
import trump

GAMES = (sugoroku, trump, hongkong, suzume, riichi_game)
OTHERS = ("riichi_eval.py", "challengers.py", "metagame.py", "report.py")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (best reported)")
    ap.add_argument("--all", action="store_true", help="then run the other benchmarks")
    args = ap.parse_args()
    rows: list[_rates.Row] = []
    for game in GAMES:
        print(f"measuring {game.__name__} ...", file=sys.stderr, flush=True)
        sizes = game.parser().parse_args(["--repeat", str(args.repeat)])
        rows += game.rows(sizes)
        rows.append(_rates.report_row(game.CONFIG, sizes.games))
    _rates.print_rows(rows, "Rates per core (CPU time of this process; the report: wall time)")
    failed = []
    if args.all:
        here = Path(__file__).resolve().parent
        for script in OTHERS:
            print(f"== {script}", flush=True)
            if subprocess.run([sys.executable, str(here / script)], cwd=here.parent).returncode:
                failed.append(script)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
