"""Terminal tables that fit the console: a row is always one line.

Rich wraps a cell that does not fit, which turns an interval such as ``25.3% [24.1, 26.5]`` into
three lines. Here cells never wrap: a table wider than the console is cut into several tables by
columns, each repeating the key columns (the row labels), and headers wrap at word boundaries to
their column's width. Only a key too long for the console on its own is shortened, with an ellipsis.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.table import Table

# Narrowest a key column is shortened to when nothing else fits.
MIN_KEY = 8


@dataclass(frozen=True)
class Col:
    header: str
    right: bool = True


def digits_for(iv: dict[str, Any], scale: float = 1.0) -> int:
    """Decimals that show an estimate to the precision of its interval: two significant digits of
    the half-width (0 to 4)."""
    lo, hi = iv.get("lo"), iv.get("hi")
    if lo is None or hi is None or not hi > lo:
        return 1
    half = (hi - lo) * scale / 2
    return max(0, min(4, 1 - math.floor(math.log10(half) + 1e-9)))  # 1e-9: 0.99999… is 1.0


def fmt_pm(iv: dict[str, Any] | None, pct: bool = False) -> str:
    """``estimate ±half-width`` (percentage points when ``pct``); ``estimate [lo, hi]`` when the
    interval is not symmetric at the shown precision (quantiles, ratios near a bound)."""
    if not iv or iv.get("estimate") is None:
        return "–"
    scale = 100.0 if pct else 1.0
    d = min(2, digits_for(iv, scale)) if pct else digits_for(iv)  # percentages to 0.01 at most
    e = iv["estimate"] * scale
    if iv.get("lo") is None or iv.get("hi") is None:
        return f"{e:.{d}f}"
    lo, hi = iv["lo"] * scale, iv["hi"] * scale
    below, above = f"{e - lo:.{d}f}", f"{hi - e:.{d}f}"
    if below == above:
        return f"{e:.{d}f} ±{above}"
    return f"{e:.{d}f} [{lo:.{d}f}, {hi:.{d}f}]"


def _widths(cols: Sequence[Col], rows: Sequence[Sequence[str]], at: Sequence[int]) -> list[int]:
    """Each column's width: its widest cell, or its header's longest word if that is wider."""
    out = []
    for i in at:
        cells = max((cell_len(r[i]) for r in rows), default=0)
        word = max((cell_len(w) for w in cols[i].header.split()), default=0)
        out.append(max(cells, word))
    return out


def _table_width(widths: Sequence[int]) -> int:
    # Rich's default box: one border per column plus one, and a space either side of every cell.
    return sum(widths) + 3 * len(widths) + 1


def fitted_tables(
    title: str, keys: Sequence[Col], cols: Sequence[Col], rows: Sequence[Sequence[str]], width: int
) -> list[Table]:
    """``rows`` (the key cells, then one cell per column of ``cols``) as tables no wider than
    ``width``: columns in order, as many per table as fit beside the keys."""
    allcols = [*keys, *cols]
    nk = len(keys)
    widths = _widths(allcols, rows, range(len(allcols)))
    chunks: list[list[int]] = []
    for j in range(nk, len(allcols)):
        if chunks and _table_width([*widths[:nk], *(widths[i] for i in chunks[-1]), widths[j]]) <= width:
            chunks[-1].append(j)
        else:
            chunks.append([j])
    tables = []
    for n, chunk in enumerate(chunks or [[]]):
        at = [*range(nk), *chunk]
        w = [widths[i] for i in at]
        t = Table(title=title if n == 0 else f"{title} (cont.)", title_justify="left")
        for k, i in enumerate(at):
            c = allcols[i]
            header = "\n".join(textwrap.wrap(c.header, w[k])) or c.header
            t.add_column(escape(header), justify="right" if c.right and i >= nk else "left", no_wrap=True)
        over = _table_width(w) - width
        if over > 0 and nk:  # the keys and one column do not fit: shorten the first key
            t.columns[0].max_width = max(MIN_KEY, w[0] - over)
            t.columns[0].overflow = "ellipsis"
        for r in rows:
            # Cells are text (strategy names may hold "["), never rich markup.
            t.add_row(*(escape(r[i]) for i in at))
        tables.append(t)
    return tables


def print_fitted(
    console: Console, title: str, keys: Sequence[Col], cols: Sequence[Col], rows: Sequence[Sequence[str]]
) -> None:
    """Print :func:`fitted_tables` at the console's width."""
    for t in fitted_tables(title, keys, cols, rows, console.width):
        console.print(t)


def fmt_ci(iv: dict[str, Any] | None, digits: int | None = 3, pct: bool = False) -> str:
    """``estimate [lo, hi]`` for an interval dict; percentages when ``pct``; ``digits=None``: to the
    precision of the interval (:func:`simharness.report.textfit.digits_for`)."""
    if not iv or iv.get("estimate") is None:
        return "–"
    scale, suffix = (100.0, "%") if pct else (1.0, "")
    # Percentages to 0.01 at most: finer steps are noise to a reader of rates.
    d = (min(2, digits_for(iv, scale)) if pct else digits_for(iv)) if digits is None else 1 if pct else digits

    def f(x: float | None) -> str:
        return "?" if x is None else f"{x * scale:.{d}f}"

    return f"{f(iv['estimate'])}{suffix} [{f(iv['lo'])}, {f(iv['hi'])}]"
