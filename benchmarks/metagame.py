"""The metagame's computations on a payoff table of k strategies and 4 seats (#29): the symmetric
equilibria (replicator dynamics from every start and support enumeration), α-Rank at its default α
and its sweep, and the headline equilibrium followed into 200 bootstrap resamples. CPU time, best of
``--repeat`` (other processes on a shared machine only ever inflate it); target: the equilibria
under a second for ≤ 8 strategies.

    python benchmarks/metagame.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import time

# One BLAS thread: the matrices are small, and threads only contend on a shared machine.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from simharness.report.meta import ALPHA, ALPHAS, POPULATION
from simharness.stats import metagame as mg

TARGET = 1.0  # seconds for the equilibria of 8 strategies and 4 seats


def table(k: int, seats: int, seed: int) -> mg.PayoffTable:
    """A random game (the hardest kind: many equilibria, no dominance)."""
    rng = np.random.default_rng(seed)
    return mg.PayoffTable.of([f"s{i}" for i in range(k)], seats, lambda c: rng.normal(size=len(c)))


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("strategies  profiles  equilibria  found   α-Rank + sweep  200 resamples followed")
    for k in (3, 5, 6, 8):
        t = table(k, 4, k)
        found = mg.equilibria(t)
        eq = best(lambda t=t: mg.equilibria(t), args.repeat)
        ar = best(lambda t=t: [mg.alpharank(t, a, POPULATION) for a in (ALPHA, *ALPHAS)], args.repeat)
        reps = t.payoffs[None] + np.random.default_rng(0).normal(scale=0.05, size=(200, *t.payoffs.shape))
        mix = max(found, key=lambda e: e.basin).mix
        fo = best(lambda t=t, reps=reps, mix=mix: mg.follow(t, reps, mix), args.repeat)
        print(f"{k:10d}  {len(t.profiles):8d}  {eq:9.2f}s  {len(found):5d}  {ar:14.2f}s  {fo:21.2f}s")
        if k == 8:
            print(
                f"equilibria of 8 strategies, 4 seats: {eq:.2f} s CPU; "
                f"target {TARGET:.1f} s: {TARGET / eq:.1f}× faster"
            )


if __name__ == "__main__":
    main()
