"""Pieces of the self-contained HTML report: escaping, tables, and matplotlib figures as base64 PNG."""

from __future__ import annotations

import base64
import html
import io
import math
from typing import Any


def png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


# A figure with a panel (or a line) per variant draws the first this many: past a dozen the panels
# are too small to read, and a sweep's figures ran to megabytes each. The tables and the JSON keep
# every variant.
FIGURE_VARIANTS = 12


def drawn(variants: list[str]) -> tuple[list[str], str]:
    """The variants a per-variant figure draws, and what its caption says of the others."""
    if len(variants) <= FIGURE_VARIANTS:
        return variants, ""
    return variants[:FIGURE_VARIANTS], (
        f" (the first {FIGURE_VARIANTS} of {len(variants)} variants; the tables hold every variant)"
    )


def panel_grid(n: int, cols: int) -> tuple[int, int]:
    return math.ceil(n / cols), min(n, cols)


def esc(x: Any) -> str:
    return html.escape(str(x))


def html_table(header: list[str], rows: list[list[str]], classes: list[list[str]] | None = None) -> str:
    out = ["<table><thead><tr>", *(f"<th>{esc(h)}</th>" for h in header), "</tr></thead><tbody>"]
    for i, r in enumerate(rows):
        out.append("<tr>")
        for j, c in enumerate(r):
            cls = classes[i][j] if classes else ""
            out.append(f'<td class="{cls}">{esc(c)}</td>' if cls else f"<td>{esc(c)}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def figure(b64: str | None, caption: str, fig_id: str = "") -> str:
    if b64 is None:
        return ""
    ident = f' id="{esc(fig_id)}"' if fig_id else ""
    return (
        f'<figure{ident}><img alt="{esc(caption)}" src="data:image/png;base64,{b64}">'
        f"<figcaption>{esc(caption)}</figcaption></figure>"
    )


def finish_panels(fig: Any, axes: Any, used: int) -> str:
    """Hide the grid's panels beyond the first ``used``, lay the figure out and encode it."""
    for ax in list(axes.flat)[used:]:
        ax.set_visible(False)
    fig.tight_layout()
    return png(fig)
