"""Riichi throughput on the reference experiment (`configs/riichi-efficiency.toml`: hanchan, Tenhou
preset, four efficiency players), in hanchan per second per core (CPU time of this process):

- the engine alone (`play_batch` in shard-sized batches);
- the whole pipeline (config, shards, Parquet, manifest) with one worker;
- the same engine with one seat played by the Python-protocol strategy (`python-greedy`);
- side by side, RiichiEnv (PyPI `riichienv`, the `bench` extra) driven by a minimal Python
  shanten-greedy agent (win when possible, riichi when offered, discard to the lowest shanten,
  never call), and the ratio of each rate to it.

Target: 1,000 hanchan per second per core through the whole pipeline. A few seconds in all.

Each native measurement is repeated (`--repeat`, default 3) and the best rate is reported: on a
shared machine, other processes inflate a run's CPU time (cache and core sharing) but never deflate it.

    python benchmarks/riichi_game.py [--games N] [--peer-games N] [--repeat N]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from simharness import config, engine, runner

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "configs" / "riichi-efficiency.toml"
TARGET = 1000.0
PYTHON_STRATEGY = "simharness.games.riichi.python:ShantenGreedy"


def cpu_rate(fn: Any, games: int) -> float:
    t = time.process_time()
    fn()
    return games / max(time.process_time() - t, 1e-9)


def best(measure: Any, repeat: int) -> float:
    return max(measure() for _ in range(max(repeat, 1)))


def engine_rate(exp: config.Experiment, lineup: list[dict[str, Any]], games: int) -> float:
    rules = next(iter(exp.variants.values()))

    def play() -> None:
        for first in range(0, games, exp.shard_size):
            engine.play_batch(
                "riichi",
                rules,
                lineup,
                seed=exp.seed,
                first_game=first,
                count=min(exp.shard_size, games - first),
            )

    return cpu_rate(play, games)


def pipeline_rate(games: int) -> float:
    exp = config.load(CONFIG, games=games)
    with tempfile.TemporaryDirectory() as out:
        return cpu_rate(
            lambda: runner.run(exp, Path(out), jobs=1, backend="threading", console=Console(quiet=True)),
            games,
        )


def riichienv_rate(games: int) -> float | None:
    """Hanchan per CPU second of RiichiEnv with a shanten-greedy Python agent (None if not installed)."""
    try:
        import riichienv as R
    except ImportError:
        return None
    T = R.ActionType

    def act(obs: Any) -> Any:
        legal = obs.legal_actions()
        for want in (T.TSUMO, T.RON, T.RIICHI):
            for a in legal:
                if a.action_type == want:
                    return a
        discards = [a for a in legal if a.action_type == T.DISCARD]
        if not discards:
            return next((a for a in legal if a.action_type == T.PASS), legal[0])
        hand = list(obs.hand)
        best, choice = 99, discards[0]
        for a in discards:
            rest = list(hand)
            rest.remove(a.tile)
            s = R.calculate_shanten(rest)
            if s < best:
                best, choice = s, a
        return choice

    def play() -> None:
        for g in range(games):
            env = R.RiichiEnv(game_mode=R.GameType.YON_HANCHAN, skip_mjai_logging=True, seed=g + 1)
            obs = env.reset()
            while not env.done():
                obs = env.step({pid: act(o) for pid, o in obs.items()})

    return cpu_rate(play, games)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="hanchan per measurement (native)")
    ap.add_argument("--python-games", type=int, default=40, help="hanchan with the Python strategy")
    ap.add_argument("--peer-games", type=int, default=20, help="hanchan of RiichiEnv")
    ap.add_argument("--repeat", type=int, default=3, help="runs per native measurement (best reported)")
    args = ap.parse_args()
    exp = config.load(CONFIG)
    lineup = [slot.knobs for slot in exp.lineup]
    python = [{**lineup[0], "python": PYTHON_STRATEGY}, *lineup[1:]]
    engine.play_batch(
        "riichi", next(iter(exp.variants.values())), lineup, seed=0, first_game=0, count=2
    )  # warm tables
    rows = [
        ("engine alone (4 × efficiency)", best(lambda: engine_rate(exp, lineup, args.games), args.repeat)),
        ("whole pipeline, Parquet, 1 worker", best(lambda: pipeline_rate(args.games), args.repeat)),
        ("engine, one seat a Python-protocol strategy", engine_rate(exp, python, args.python_games)),
    ]
    peer = riichienv_rate(args.peer_games)
    t = Table(title="Riichi hanchan per second per core (CPU time)", title_justify="left")
    for col in ("measurement", "hanchan/s/core", "× RiichiEnv", "of target 1,000"):
        t.add_column(col, justify="left" if col == "measurement" else "right")
    for name, rate in rows:
        ratio = f"{rate / peer:.1f}×" if peer else "–"
        t.add_row(name, f"{rate:,.0f}", ratio, f"{rate / TARGET:.0%}")
    name = "RiichiEnv 0.4 + Python shanten-greedy agent"
    if peer:
        t.add_row(name, f"{peer:,.1f}", "1.0×", f"{peer / TARGET:.0%}")
    else:
        t.add_row(name, "not installed", "–", "–")
    Console().print(t)
    native, with_python = rows[0][1], rows[2][1]
    Console().print(
        f"The Python-protocol seat costs {native / with_python:.1f}× the native engine's time per hanchan."
    )


if __name__ == "__main__":
    main()
