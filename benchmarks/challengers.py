"""The challenger design ([challengers]): its pairing efficiency E and its cost per game.

E is the variance ratio of docs/statistics.md ("Pairing efficiency"): the variance per game of a
difference measured by independent games (Var_row(A) + Var_row(B)) over that of the design
(games per deal × Var of the per-deal differences); the design needs E times fewer games for the
same precision. It is printed for each challenger against the field and for the pair of
challengers, for 1st-place share, mean points and rank points, for Riichi and Suzume-jong side by
side (the same code path as ``simharness report``: ``report.challengers.ChallengerSums``).

The cost: a challenger run and an ordinary run of the same strategies (one table seating the two
challengers and two copies of the field, no duplicate play) with the same number of games, both
played by ``simharness run`` with one worker; the process CPU time per game (best of ``--repeat``,
so that a busy machine does not count) and their ratio.
Usage: ``python benchmarks/challengers.py [--deals N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from simharness import config, runner, store
from simharness.report.challengers import METRICS, NAMES
from simharness.report.stream import collect

GAMES = {
    "riichi": ("efficiency", ["damaten", "fold-on-riichi"], 4),
    "suzume": ("fastest", ["defensive", "max-points"], 4),
}
# Riichi plays about 20 times fewer games per second than Suzume-jong.
SCALE = {"riichi": 1, "suzume": 5}


def _write(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(f'name = "{name}"\nseed = 20261126\nshard_size = 400\n{body}')
    return path


def _cpu_per_game(cfg: Path, out: Path, repeat: int) -> float:
    """Process CPU seconds per game of running ``cfg`` with one worker, best of ``repeat`` fresh runs."""
    exp = config.load(cfg)
    games = exp.games * len(exp.variants)
    best = float("inf")
    for r in range(repeat):
        start = time.process_time()
        runner.run(exp, out / str(r), jobs=1, console=Console(quiet=True))
        best = min(best, time.process_time() - start)
    return best / games


def measure(game: str, deals: int, repeat: int, folder: Path) -> dict[str, Any]:
    field, challengers, seats = GAMES[game]
    games = deals * seats
    folder.mkdir(parents=True)
    design = _write(
        folder,
        f"{game}-challengers",
        f'game = "{game}"\ngames = {games}\n[challengers]\nfield = "{field}"\n'
        f"strategies = {json.dumps(challengers)}\nseats = {seats}\n",
    )
    lineup = [*challengers, *[field] * (seats - len(challengers))]
    ordinary = _write(
        folder,
        f"{game}-ordinary",
        f'game = "{game}"\ngames = {games * (len(challengers) + 1)}\nplayers = {json.dumps(lineup)}\n',
    )
    cost_design = _cpu_per_game(design, folder / "design", repeat)
    cost_ordinary = _cpu_per_game(ordinary, folder / "ordinary", repeat)
    run = store.open_run(folder / "design" / "0" / f"{game}-challengers")
    result = collect(run, scorecard=False).summary["challengers"]
    efficiency: dict[tuple[str, str], float | None] = {}
    for r in result["ranking"]:
        for m in METRICS:
            efficiency[(f"{r['challenger']} − field", m)] = r[m]["vs_field"]["efficiency"]
    for p in result["pairs"]:
        efficiency[(f"{p['a']} − {p['b']}", p["metric"])] = p["efficiency"]
    return {
        "deals": deals,
        "efficiency": efficiency,
        "cost_design": cost_design,
        "cost_ordinary": cost_ordinary,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--deals", type=int, default=400, help="deals per variant of Riichi (Suzume: 5 times)"
    )
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = {g: measure(g, args.deals * SCALE[g], args.repeat, Path(tmp) / g) for g in GAMES}
    print("pairing efficiency E (games of independent play per game of the design):")
    for game, r in results.items():
        print(f"  {game} ({r['deals']:,} deals per variant)")
        for (comparison, metric), e in r["efficiency"].items():
            shown = "–" if e is None else f"{e:.2f}"
            print(f"    {comparison:<28} {NAMES[metric]:<16} E = {shown}")
    print("cost per game (process CPU, one worker, best of the repeats):")
    for game, r in results.items():
        d, o = r["cost_design"], r["cost_ordinary"]
        print(
            f"  {game}: challenger design {d * 1e3:.3f} ms, ordinary run {o * 1e3:.3f} ms, ratio {d / o:.2f}"
        )


if __name__ == "__main__":
    main()
