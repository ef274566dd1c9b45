"""The distribution functions of every interval and test of a report: Student's t, χ² and the normal.

They are scipy.stats' own formulas (its ``t``, ``chi2`` and ``norm`` evaluate these scipy.special
functions, so the numbers are the same), without importing scipy.stats: that costs about a second of
CPU, as long as a report of a million sugoroku games takes to read. The statistics modules import
scipy.stats only inside the rarer tests that need it (rank tests, exact binomial tests, the bootstrap).
"""

from __future__ import annotations

import numpy as np
from scipy import special


def t_ppf(q: float, df: float) -> float:
    """Quantile ``q`` of Student's t with ``df`` degrees of freedom (NaN unless df > 0)."""
    return float(special.stdtrit(df, q))


def t_sf(x: float, df: float) -> float:
    """P(T > x) under Student's t with ``df`` degrees of freedom (NaN unless df > 0)."""
    return float(special.stdtr(df, -x))


def chi2_sf(x: float, df: float) -> float:
    """P(X > x) under χ² with ``df`` degrees of freedom."""
    return float(special.chdtrc(df, x))


def norm_ppf(q: float) -> float:
    """Quantile ``q`` of the standard normal."""
    return float(special.ndtri(q))


def norm_sf(x: float) -> float:
    """P(Z > x) under the standard normal."""
    return float(special.ndtr(-x))


def pearson(observed: np.ndarray, expected: np.ndarray) -> float:
    """Pearson's X² = Σ (observed − expected)² / expected (scipy's ``power_divergence``)."""
    return float(((observed - expected) ** 2 / expected).sum())
