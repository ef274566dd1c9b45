"""Riichi throughput on the reference experiment (`configs/riichi-efficiency.toml`: hanchan, Tenhou
preset, four efficiency players), in hanchan per second per core (CPU time of this process):

- the engine alone (`play_batch` in the config's shards), against RiichiEnv (PyPI `riichienv`, the
  `bench` extra) driven by a minimal Python shanten-greedy agent (win when possible, riichi when
  offered, discard to the lowest shanten, never call);
- the whole pipeline (config, shards, Parquet, manifest) with one worker, against the engine and
  against the target of 1,000 hanchan per second per core;
- one seat played by the Python-protocol example (`simharness.games.riichi.python:ShantenGreedy`),
  against the native lineup on the same hanchan.

Each native measurement is repeated (`--repeat`, default 3) and the best rate is reported.

    python benchmarks/riichi_game.py [--games N] [--python-games N] [--peer-games N] [--repeat N]
"""

from __future__ import annotations

import argparse
from typing import Any

import _rates
from _rates import REPO, Row, cpu_rate

CONFIG = REPO / "configs" / "riichi-efficiency.toml"
TARGET = 1000.0
PYTHON_STRATEGY = "simharness.games.riichi.python:ShantenGreedy"


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


def parser() -> argparse.ArgumentParser:
    # Two of the config's shards (313 hanchan each).
    ap = _rates.parser(__doc__ or "", 626, 40, "hanchan")
    ap.add_argument("--peer-games", type=int, default=20, help="hanchan of RiichiEnv")
    return ap


def rows(args: argparse.Namespace) -> list[Row]:
    exp = _rates.reference(CONFIG, args.games)
    lineup = [slot.knobs for slot in exp.lineup]
    python = [_rates.python_seat(lineup[0], PYTHON_STRATEGY), *lineup[1:]]
    peer = riichienv_rate(args.peer_games)
    return _rates.game_rows(
        exp,
        args.repeat,
        ("native lineup", None, python, args.python_games),
        ("RiichiEnv" if peer else "RiichiEnv (not installed)", peer, ""),
        pipeline_target=TARGET,
        unit="hanchan/s/core",
    )


def main() -> None:
    _rates.print_rows(rows(parser().parse_args()), "Riichi (hanchan, Tenhou rules, 4 × efficiency)")


if __name__ == "__main__":
    main()
