"""The metagame of a rule set: a symmetric game whose "moves" are whole strategies, read from a
heuristic payoff table (Walsh et al. 2002; Tuyls et al. 2018), then solved for which strategies
survive among players who adapt.

- A **profile** is a multiset of strategies over the ``n`` seats (a tuple of counts); the table holds,
  for every profile, the expected payoff of a player of each strategy present in it.
- :func:`expected_payoffs`: each strategy's payoff against a population that plays the mix ``x``
  (every opponent drawn from ``x`` independently).
- :func:`equilibria`: the symmetric Nash equilibria, by the replicator dynamics from many starts and,
  for small games, support enumeration; each with its regret (the best deviation's gain, 0 at an
  exact equilibrium).
- :func:`alpharank`: α-Rank (Omidshafiei et al. 2019), the stationary distribution of the Markov chain
  over monomorphic populations of size ``m`` where a mutant fixes with the Fermi probability at
  selection intensity ``α``. A mutant meets ``n − 1`` opponents drawn without replacement from the rest
  of the population (for two players this is OpenSpiel's ``egt.alpharank`` single-population model).
- :func:`dominant`: a strategy that is a strict best response to every profile of the others.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy import optimize, stats

Counts = tuple[int, ...]


def profiles(strategies: int, players: int) -> list[Counts]:
    """Every multiset of ``players`` strategies out of ``strategies``, as counts, in a fixed order."""
    out = []
    for combo in itertools.combinations_with_replacement(range(strategies), players):
        counts = [0] * strategies
        for s in combo:
            counts[s] += 1
        out.append(tuple(counts))
    return out


@dataclass(frozen=True)
class PayoffTable:
    """A heuristic payoff table: ``payoffs[p, k]`` is the expected payoff of a player of strategy ``k``
    in profile ``profiles[p]`` (NaN where ``k`` is absent)."""

    strategies: tuple[str, ...]
    players: int
    profiles: tuple[Counts, ...]
    payoffs: np.ndarray

    @classmethod
    def of(
        cls, strategies: Sequence[str], players: int, payoff: Callable[[Counts], Sequence[float]]
    ) -> PayoffTable:
        """The table of ``payoff(counts)`` (a payoff per strategy; read only where present)."""
        ps = profiles(len(strategies), players)
        table = np.full((len(ps), len(strategies)), np.nan)
        for i, counts in enumerate(ps):
            values = payoff(counts)
            for k, c in enumerate(counts):
                if c:
                    table[i, k] = float(values[k])
        return cls(tuple(strategies), players, tuple(ps), table)

    @classmethod
    def from_matrix(cls, strategies: Sequence[str], matrix: np.ndarray) -> PayoffTable:
        """The two-player symmetric game whose row player gets ``matrix[row, column]``."""
        m = np.asarray(matrix, float)

        def payoff(counts: Counts) -> list[float]:
            present = [k for k, c in enumerate(counts) for _ in range(c)]
            a, b = present
            return [m[a, b] if k == a else m[b, a] if k == b else math.nan for k in range(len(counts))]

        return cls.of(strategies, 2, payoff)

    def index(self, counts: Counts) -> int:
        return self._index[counts]

    @cached_property
    def _index(self) -> dict[Counts, int]:
        return {c: i for i, c in enumerate(self.profiles)}

    def payoff(self, counts: Counts, k: int) -> float:
        return float(self.payoffs[self.index(counts), k])


class _Opponents:
    """The multisets of ``n − 1`` opponents, their multinomial coefficients and, per strategy, the row
    of the profile it completes: what every expected-payoff evaluation needs, computed once."""

    def __init__(self, table: PayoffTable) -> None:
        k, n = len(table.strategies), table.players
        self.counts = np.array(profiles(k, n - 1), dtype=float)
        self.coef = np.array(
            [math.factorial(n - 1) / math.prod(math.factorial(int(c)) for c in row) for row in self.counts]
        )
        index = table._index
        self.values = np.empty((len(self.counts), k))
        for q, row in enumerate(self.counts.astype(int)):
            for s in range(k):
                full = list(row)
                full[s] += 1
                self.values[q, s] = table.payoffs[index[tuple(full)], s]


def expected_payoffs(table: PayoffTable, x: np.ndarray, _opp: _Opponents | None = None) -> np.ndarray:
    """Each strategy's expected payoff when its ``n − 1`` opponents are drawn from the mix ``x``."""
    opp = _opp or _Opponents(table)
    probs = opp.coef * np.prod(np.power(np.asarray(x, float)[None, :], opp.counts), axis=1)
    return probs @ opp.values


def regret(table: PayoffTable, x: np.ndarray, _opp: _Opponents | None = None) -> float:
    """How much the best pure deviation gains over the mix ``x`` against ``x`` (0 at an equilibrium)."""
    u = expected_payoffs(table, x, _opp)
    return float(np.max(u) - np.asarray(x) @ u)


@dataclass(frozen=True)
class Equilibrium:
    """A symmetric equilibrium: the mix, its regret, support and entropy (bits)."""

    mix: np.ndarray
    regret: float

    @property
    def support(self) -> tuple[int, ...]:
        return tuple(int(i) for i in np.flatnonzero(self.mix > 1e-6))

    @property
    def entropy(self) -> float:
        p = self.mix[self.mix > 1e-12]
        return float(-(p * np.log2(p)).sum())


def _replicator(
    table: PayoffTable, x: np.ndarray, opp: _Opponents, scale: float, steps: int = 20_000
) -> np.ndarray:
    """The replicator dynamics from ``x`` until it rests (payoffs in units of ``scale``)."""
    dt = 0.5
    for _ in range(steps):
        u = expected_payoffs(table, x, opp) / scale
        move = x * (u - x @ u)
        x = np.clip(x + dt * move, 0.0, None)
        x /= x.sum()
        if np.max(np.abs(move)) < 1e-11:
            break
    return x


def _on_support(
    table: PayoffTable, support: Sequence[int] | np.ndarray, start: np.ndarray, opp: _Opponents
) -> np.ndarray | None:
    """The mix on ``support`` whose strategies earn the same (the support's equilibrium condition),
    found from ``start``; None when there is none with every weight positive."""
    k = len(table.strategies)
    idx = list(support)
    if len(idx) == 1:
        x = np.zeros(k)
        x[idx[0]] = 1.0
        return x

    def mix(z: np.ndarray) -> np.ndarray:
        x = np.zeros(k)
        x[idx[:-1]] = z
        x[idx[-1]] = 1.0 - z.sum()
        return x

    def equal(z: np.ndarray) -> np.ndarray:
        u = expected_payoffs(table, mix(z), opp)[idx]
        return u[:-1] - u[-1]

    solved = optimize.root(equal, start[idx[:-1]], method="hybr", options={"xtol": 1e-13})
    x = mix(solved.x)
    if not solved.success or np.any(x[idx] <= 1e-9) or np.max(np.abs(equal(solved.x))) > 1e-9:
        return None
    return x


def equilibria(
    table: PayoffTable, *, starts: int = 64, seed: int = 0, tol: float = 1e-6
) -> list[Equilibrium]:
    """The symmetric Nash equilibria of the game: rest points of the replicator dynamics from the
    centroid, near each vertex and from ``starts`` random mixes, made exact on their support; and,
    for up to 8 strategies, every support's equal-payoff mix (support enumeration). Those with regret
    at most ``tol`` (in units of the payoffs' range), distinct, most mixed first."""
    k = len(table.strategies)
    opp = _Opponents(table)
    span = float(np.nanmax(table.payoffs) - np.nanmin(table.payoffs)) or 1.0
    rng = np.random.default_rng(seed)
    points = [np.full(k, 1.0 / k)] + [np.eye(k)[i] * 0.9 + 0.1 / k for i in range(k)]
    points += list(rng.dirichlet(np.ones(k), size=starts))
    candidates = []
    for x in points:
        rest = _replicator(table, x, opp, span)
        exact = _on_support(table, np.flatnonzero(rest > 1e-4), rest, opp)
        candidates.append(rest if exact is None else exact)
    if k <= 8:
        for size in range(1, k + 1):
            for support in itertools.combinations(range(k), size):
                start = np.zeros(k)
                start[list(support)] = 1.0 / size
                x = _on_support(table, support, start, opp)
                if x is not None:
                    candidates.append(x)
    found: list[Equilibrium] = []
    for x in candidates:
        r = regret(table, x, opp) / span
        if r <= tol and not any(np.max(np.abs(e.mix - x)) < 1e-5 for e in found):
            found.append(Equilibrium(x, r * span))
    return sorted(found, key=lambda e: (-len(e.support), -e.entropy))


def _fitness(table: PayoffTable, me: int, other: int, mine: int, m: int) -> float:
    """The expected payoff of a player of ``me`` in a population of ``m`` of which ``mine`` play
    ``me`` and the rest ``other``: its ``n − 1`` opponents are drawn from the other ``m − 1``."""
    n = table.players
    total = 0.0
    for j in range(n):  # opponents who play `me`
        p = stats.hypergeom.pmf(j, m - 1, mine - 1, n - 1)
        if p == 0:
            continue
        counts = [0] * len(table.strategies)
        counts[me] += j + 1
        counts[other] += n - 1 - j
        total += p * table.payoff(tuple(counts), me)
    return total


def fixation(table: PayoffTable, r: int, s: int, alpha: float, m: int) -> float:
    """The probability that one mutant playing ``r`` takes over a population of ``m`` playing ``s``
    (Fermi imitation at selection intensity ``alpha``)."""
    gaps = [_fitness(table, r, s, k, m) - _fitness(table, s, r, m - k, m) for k in range(1, m)]
    total, term = 1.0, 1.0
    for gap in gaps:
        term *= math.exp(-alpha * gap)
        total += term
    return 1.0 / total


def alpharank(table: PayoffTable, alpha: float, m: int = 50) -> np.ndarray:
    """α-Rank's stationary distribution over the strategies (a mass per strategy; see the module
    doc). Larger ``alpha`` means stronger selection; the ranking is read where it no longer changes."""
    k = len(table.strategies)
    c = np.zeros((k, k))
    for s in range(k):
        for r in range(k):
            if r != s:
                c[s, r] = fixation(table, r, s, alpha, m) / (k - 1)
        c[s, s] = 1.0 - c[s].sum()
    # The left eigenvector of eigenvalue 1, as a probability vector.
    values, vectors = np.linalg.eig(c.T)
    pi = np.real(vectors[:, np.argmin(np.abs(values - 1.0))])
    return pi / pi.sum()


def dominant(table: PayoffTable) -> int | None:
    """The strategy that earns strictly more than any other strategy would in its place, against every
    multiset of opponents; None when there is none."""
    k = len(table.strategies)
    opp = _Opponents(table)
    for d in range(k):
        if all(row[d] > max(row[j] for j in range(k) if j != d) for row in opp.values):
            return d
    return None
