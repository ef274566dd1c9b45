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
from scipy import stats

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
        # The probability of an opponent multiset is coef · exp(counts · log x): one matrix product
        # for many mixes at once.
        self.exponents = self.counts.T.copy()
        self.coef = np.array(
            [math.factorial(n - 1) / math.prod(math.factorial(int(c)) for c in row) for row in self.counts]
        )
        index = table._index
        self.rows = np.empty((len(self.counts), k), dtype=np.int64)
        for q, row in enumerate(self.counts.astype(int)):
            for s in range(k):
                full = list(row)
                full[s] += 1
                self.rows[q, s] = index[tuple(full)]
        self.values = self.of(table.payoffs)

    def of(self, payoffs: np.ndarray) -> np.ndarray:
        """``values[..., q, s]``: the payoff of ``s`` against opponents ``q`` in the table ``payoffs``
        (``(..., profiles, strategies)``: several tables at once, e.g. bootstrap replicates)."""
        return payoffs[..., self.rows, np.arange(payoffs.shape[-1])]

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """The probability of each opponent multiset under each mix ``x`` (``(..., k)`` → ``(..., Q)``)."""
        return self.coef * np.exp(np.log(np.maximum(x, 1e-300)) @ self.exponents)


def _payoffs(values: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """Expected payoffs from opponent probabilities: one table (``values``: ``(Q, k)``) for many mixes,
    or a stack of tables (``(B, Q, k)``) each with its own mix (``probs``: ``(B, Q)``)."""
    return probs @ values if values.ndim == 2 else np.einsum("bq,bqk->bk", probs, values)


def expected_payoffs(table: PayoffTable, x: np.ndarray, _opp: _Opponents | None = None) -> np.ndarray:
    """Each strategy's expected payoff when its ``n − 1`` opponents are drawn from the mix ``x`` (or
    from each row of a stack of mixes)."""
    opp = _opp or _Opponents(table)
    return opp.probabilities(np.asarray(x, float)) @ opp.values


def regret(table: PayoffTable, x: np.ndarray, _opp: _Opponents | None = None) -> float:
    """How much the best pure deviation gains over the mix ``x`` against ``x`` (0 at an equilibrium)."""
    u = expected_payoffs(table, x, _opp)
    return float(np.max(u) - np.asarray(x) @ u)


@dataclass(frozen=True)
class Equilibrium:
    """A symmetric equilibrium: the mix, its regret, support and entropy (bits); ``basin`` is the share
    of uniformly random starting mixes from which the replicator dynamics comes to rest at it (0 for
    one found by support enumeration alone: unstable, or reached by no start drawn)."""

    mix: np.ndarray
    regret: float
    basin: float = 0.0
    # How many equilibria found lie on this one's connected set of equilibria (a segment of equal
    # payoffs, where strategies tie); the mix is the one nearest the set's centre.
    component: int = 1

    @property
    def support(self) -> tuple[int, ...]:
        return tuple(int(i) for i in np.flatnonzero(self.mix > 1e-6))

    @property
    def entropy(self) -> float:
        p = self.mix[self.mix > 1e-12]
        return max(0.0, float(-(p * np.log2(p)).sum()))


def _replicator(values: np.ndarray, x: np.ndarray, opp: _Opponents, steps: int = 2000) -> np.ndarray:
    """The replicator dynamics (in its exponential-weights form, which keeps every mix inside the
    simplex) from each row of ``x`` until it rests or ``steps`` pass; ``values`` in units of the
    payoffs' range, one table or one per row."""
    x = np.array(x, dtype=float)
    active = np.arange(len(x))
    for _ in range(steps):
        v = values if values.ndim == 2 else values[active]
        now = x[active]
        u = _payoffs(v, opp.probabilities(now))
        moved = now * np.exp(u - (now * u).sum(-1, keepdims=True))
        moved /= moved.sum(-1, keepdims=True)
        x[active] = moved
        active = active[np.max(np.abs(moved - now), axis=-1) >= 1e-12]
        if not len(active):
            break
    return x


def _on_supports(
    values: np.ndarray, supports: np.ndarray, starts: np.ndarray, opp: _Opponents, iters: int = 60
) -> np.ndarray:
    """For each row of ``supports`` (a mask over the strategies), the mix on it whose strategies earn
    the same (the support's equilibrium condition) in the game of ``values`` (one table, or one per
    row), by damped Newton steps from ``starts``; a row of NaN where there is none with every weight
    positive. All rows are solved at once."""
    masks = np.asarray(supports, bool)
    rows, k = masks.shape
    eye = np.eye(k)
    x = np.where(masks, np.maximum(starts, 1e-3), 0.0)
    x /= x.sum(1, keepdims=True)
    residual = np.full(rows, np.inf)
    # The rows still moving: neither solved nor pressed against the support's boundary (no solution).
    active = np.arange(rows)
    for _ in range(iters):
        m, now = masks[active], x[active]
        at, last = np.arange(len(active)), k - 1 - np.argmax(m[:, ::-1], axis=1)  # the last of each support
        v = values if values.ndim == 2 else values[active]
        p = opp.probabilities(now)
        u = _payoffs(v, p)
        # du_s/dx_t = Σ_q values[q, s] · p_q · c_qt / x_t (read only for t in the support, where x_t > 0).
        du = np.swapaxes(v, -1, -2) @ (
            p[:, :, None] * opp.counts[None, :, :] / np.maximum(now, 1e-300)[:, None, :]
        )
        f = np.where(m, u - u[at, last][:, None], now)
        f[at, last] = now.sum(1) - 1.0
        j = np.where(m[:, :, None], (du - du[at, last][:, None, :]) * m[:, None, :], eye)
        j[at, last] = m
        residual[active] = np.max(np.abs(f), axis=1)
        step = -np.einsum("bij,bj->bi", np.linalg.pinv(j), f)
        # Damped: never past the boundary of the support (a weight at most halves its way to zero).
        shrink = np.where(m & (step < 0), -0.5 * now / np.minimum(step, -1e-300), np.inf)
        now = np.where(m, now + step * np.minimum(1.0, shrink.min(1))[:, None], 0.0)
        x[active] = now
        edge = np.min(np.where(m, now, np.inf), axis=1) < 1e-10
        active = active[(residual[active] >= 1e-13) & ~edge]
        if not len(active):
            break
    ok = (residual < 1e-10) & np.all(np.where(masks, x > 1e-9, True), axis=1)
    return np.where(ok[:, None], x / x.sum(1, keepdims=True), np.nan)


def _on_support(
    values: np.ndarray, support: Sequence[int] | np.ndarray, start: np.ndarray, opp: _Opponents
) -> np.ndarray | None:
    """:func:`_on_supports` of one support; None when it has no equilibrium mix."""
    mask = np.zeros((1, values.shape[-1]), bool)
    mask[0, list(support)] = True
    x = _on_supports(values, mask, np.asarray(start, float)[None, :], opp)[0]
    return None if np.isnan(x[0]) else x


def _all_supports(k: int) -> np.ndarray:
    return np.array([[(bits >> i) & 1 for i in range(k)] for bits in range(1, 2**k)], dtype=bool)


def equilibria(
    table: PayoffTable, *, starts: int = 32, seed: int = 0, tol: float = 1e-6
) -> list[Equilibrium]:
    """The symmetric Nash equilibria of the game: rest points of the replicator dynamics from the
    centroid, near each vertex and from ``starts`` random mixes, made exact on their support; and,
    for up to 8 strategies, every support's equal-payoff mix (support enumeration). Those with regret
    at most ``tol`` (in units of the payoffs' range), distinct, most mixed first."""
    k = len(table.strategies)
    opp = _Opponents(table)
    values = opp.values / _span(table)
    rng = np.random.default_rng(seed)
    fixed = [np.full(k, 1.0 / k)] + [np.eye(k)[i] * 0.9 + 0.1 / k for i in range(k)]
    drawn = rng.dirichlet(np.ones(k), size=starts)
    rests = _replicator(values, np.vstack([*fixed, *drawn]), opp)
    candidates = list(_exact(values, rests, opp))
    if k <= 8:
        supports = _all_supports(k)
        centroids = supports / supports.sum(1, keepdims=True)
        candidates += [x for x in _on_supports(values, supports, centroids, opp) if not np.isnan(x[0])]
    found: list[np.ndarray] = []
    for x in candidates:
        if _regret(values, x, opp) <= tol and not any(np.max(np.abs(e - x)) < 1e-5 for e in found):
            found.append(x)
    # A start's basin is the equilibrium its rest point is nearest, if near (the dynamics may cycle).
    basins = np.zeros(len(found))
    for rest in rests[len(fixed) :]:
        if found:
            gaps = [float(np.abs(rest - e).sum()) for e in found]
            if min(gaps) < 0.05:
                basins[int(np.argmin(gaps))] += 1.0 / starts
    out = []
    for members in _components(values, found, opp, tol):
        centre = np.mean([found[i] for i in members], axis=0)
        x = found[min(members, key=lambda i: float(np.abs(found[i] - centre).sum()))]
        basin = float(sum(basins[i] for i in members))
        out.append(Equilibrium(x, _regret(values, x, opp) * _span(table), basin, len(members)))
    return sorted(out, key=lambda e: (-len(e.support), -e.entropy))


def _components(values: np.ndarray, found: list[np.ndarray], opp: _Opponents, tol: float) -> list[list[int]]:
    """The equilibria grouped into connected sets: two on the same support are joined when the mix
    halfway between them is an equilibrium too (a tie between strategies makes a segment of them)."""
    parent = list(range(len(found)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(found)), 2):
        same = np.array_equal(found[i] > 1e-6, found[j] > 1e-6)
        if same and root(i) != root(j) and _regret(values, (found[i] + found[j]) / 2, opp) <= tol:
            parent[root(j)] = root(i)
    groups: dict[int, list[int]] = {}
    for i in range(len(found)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _span(table: PayoffTable) -> float:
    """The payoffs' range, the unit in which the dynamics run and tolerances are read."""
    return float(np.nanmax(table.payoffs) - np.nanmin(table.payoffs)) or 1.0


def _regret(values: np.ndarray, x: np.ndarray, opp: _Opponents) -> float:
    u = opp.probabilities(x) @ values
    return float(np.max(u) - x @ u)


def _exact(values: np.ndarray, rests: np.ndarray, opp: _Opponents) -> np.ndarray:
    """Rest points made exact on their support (read at two thresholds, since a strategy dying slowly
    may still hold some weight); a rest point with neither is kept as it is."""
    out = np.array(rests, dtype=float)
    for threshold in (1e-2, 1e-4):
        solved = _on_supports(values, rests > threshold, rests, opp)
        good = ~np.isnan(solved[:, 0])
        out[good] = solved[good]
    return out


def follow(table: PayoffTable, replicates: np.ndarray, mix: np.ndarray, tol: float = 1e-6) -> np.ndarray:
    """The equilibrium ``mix`` of ``table`` followed into each of the tables ``replicates`` (payoffs
    of shape ``(B, profiles, strategies)``, e.g. bootstrap resamples): in each, the equilibrium on the
    same support, else on the support with one strategy more or one fewer, else where the replicator
    dynamics started near ``mix`` comes to rest; a row of NaN where none has regret at most ``tol``
    (in units of ``table``'s range)."""
    k = len(table.strategies)
    opp = _Opponents(table)
    values = opp.of(np.asarray(replicates, float)) / _span(table)
    count = len(values)
    support = mix > 1e-6
    tries = [(support, mix)]
    for j in range(k):
        if not support[j]:
            tries.append((support | (np.arange(k) == j), (mix + 0.05 * np.eye(k)[j]) / 1.05))
    if support.sum() > 1:
        for i in np.flatnonzero(support):
            start = mix * (np.arange(k) != i)
            tries.append((support & (np.arange(k) != i), start / start.sum()))
    out = np.full((count, k), np.nan)
    for mask, start in tries:
        lost = np.flatnonzero(np.isnan(out[:, 0]))
        if not len(lost):
            break
        solved = _on_supports(
            values[lost], np.repeat(mask[None], len(lost), 0), np.repeat(start[None], len(lost), 0), opp
        )
        for b, x in zip(lost, solved, strict=True):
            if not np.isnan(x[0]) and _regret(values[b], x, opp) <= tol:
                out[b] = x
    lost = np.flatnonzero(np.isnan(out[:, 0]))
    if len(lost):
        starts = np.repeat([0.9 * mix + 0.1 / k], len(lost), axis=0)
        rests = _replicator(values[lost], starts, opp)
        for b, rest in zip(lost, rests, strict=True):
            x = _exact(values[b], rest[None], opp)[0]
            if _regret(values[b], x, opp) <= tol:
                out[b] = x
    return out


def _hypergeometric(m: int, n: int) -> np.ndarray:
    """``h[i, j]``: the chance that ``j`` of a player's ``n − 1`` opponents, drawn from the other
    ``m − 1`` of a population of ``m``, play its strategy when ``i + 1`` of the ``m`` do."""
    mine = np.arange(1, m)
    return stats.hypergeom.pmf(np.arange(n)[None, :], m - 1, mine[:, None] - 1, n - 1)


def _pairs(table: PayoffTable) -> np.ndarray:
    """``rows[r, s, j]``: the profile where ``r`` meets ``j`` opponents of its own and ``n − 1 − j`` of
    ``s`` (the profiles α-Rank reads: populations of two strategies)."""
    k, n = len(table.strategies), table.players
    rows = np.zeros((k, k, n), dtype=np.int64)
    for r, s in itertools.product(range(k), range(k)):
        for j in range(n):
            counts = [0] * k
            counts[r] += j + 1
            counts[s] += n - 1 - j
            rows[r, s, j] = table.index(tuple(counts))
    return rows


def _fixations(payoffs: np.ndarray, rows: np.ndarray, alpha: float, h: np.ndarray) -> np.ndarray:
    """``rho[..., s, r]``: the probability that one mutant playing ``r`` takes over a population of
    ``m`` playing ``s`` (Fermi imitation at selection intensity ``alpha``),
    ``1 / Σ_i Π_{j ≤ i} e^(−α·gap_j)``, summed in logarithms so that no intensity overflows; for one
    table of ``payoffs`` (profiles, strategies) or a stack of them."""
    k = rows.shape[0]
    mine = payoffs[..., rows, np.arange(k)[:, None, None]]  # [..., r, s, j]: r's payoff against j r's
    # The mutants' payoff with i of them, and the residents' with m − i of them, for i = 1 … m − 1.
    ahead = np.einsum("ij,...rsj->...rsi", h, mine) - np.einsum("ij,...srj->...rsi", h[::-1], mine)
    logs = np.concatenate([np.zeros((*ahead.shape[:-1], 1)), np.cumsum(-alpha * ahead, axis=-1)], axis=-1)
    top = logs.max(axis=-1, keepdims=True)
    total = top[..., 0] + np.log(np.exp(logs - top).sum(axis=-1))
    return np.swapaxes(np.exp(-total), -1, -2)


def fixations(table: PayoffTable, alpha: float, m: int) -> np.ndarray:
    """``rho[s, r]``: :func:`fixation` of ``r`` into ``s`` for every pair (α-Rank's response graph has
    an edge from ``s`` to ``r`` where it exceeds the neutral ``1 / m``)."""
    return _fixations(table.payoffs, _pairs(table), alpha, _hypergeometric(m, table.players))


def fixation(table: PayoffTable, r: int, s: int, alpha: float, m: int) -> float:
    """The probability that one mutant playing ``r`` takes over a population of ``m`` playing ``s``
    (Fermi imitation at selection intensity ``alpha``)."""
    return float(fixations(table, alpha, m)[s, r])


def alpharank(
    table: PayoffTable, alpha: float, m: int = 50, replicates: np.ndarray | None = None
) -> np.ndarray:
    """α-Rank's stationary distribution over the strategies (a mass per strategy; see the module
    doc), of ``table`` or of each of the tables ``replicates`` (``(B, profiles, strategies)`` →
    ``(B, strategies)``). Larger ``alpha`` means stronger selection; the ranking is read where it no
    longer changes."""
    k = len(table.strategies)
    payoffs = table.payoffs if replicates is None else np.asarray(replicates, float)
    c = _fixations(payoffs, _pairs(table), alpha, _hypergeometric(m, table.players)) / (k - 1)
    c = c * (1 - np.eye(k))
    c = c + np.eye(k) * (1.0 - c.sum(-1))[..., None]
    # The left eigenvector of eigenvalue 1, as a probability vector.
    values, vectors = np.linalg.eig(np.swapaxes(c, -1, -2))
    nearest = np.argmin(np.abs(values - 1.0), axis=-1)
    pi = np.real(np.take_along_axis(vectors, nearest[..., None, None], axis=-1)[..., 0])
    pi = np.clip(pi / pi.sum(-1, keepdims=True), 0.0, None)  # rounding leaves −1e-17, never a mass
    return pi / pi.sum(-1, keepdims=True)


def dominant(table: PayoffTable) -> int | None:
    """The strategy that earns strictly more than any other strategy would in its place, against every
    multiset of opponents; None when there is none."""
    found = int(dominant_each(table, table.payoffs[None])[0])
    return None if found < 0 else found


def dominant_each(table: PayoffTable, replicates: np.ndarray) -> np.ndarray:
    """:func:`dominant` of each of the tables ``replicates`` (``(B, profiles, strategies)``), −1 for none."""
    k = len(table.strategies)
    values = _Opponents(table).of(np.asarray(replicates, float))
    others = np.where(np.eye(k, dtype=bool), -np.inf, values[..., :, None, :]).max(-1)
    strict = np.all(values > others, axis=-2)  # [b, d]: d beats every other strategy in every row
    return np.where(strict.any(-1), np.argmax(strict, axis=-1), -1)


def against_mix(table: PayoffTable, x: np.ndarray, replicates: np.ndarray | None = None) -> np.ndarray:
    """Each strategy's expected payoff against opponents drawn from the mix ``x``, in ``table`` or in
    each of the tables ``replicates`` (``(B, profiles, strategies)`` → ``(B, strategies)``)."""
    opp = _Opponents(table)
    probs = opp.probabilities(np.asarray(x, float))
    if replicates is None:
        return probs @ opp.values
    return np.einsum("q,bqk->bk", probs, opp.of(np.asarray(replicates, float)))
