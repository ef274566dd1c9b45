"""The full report: the summary plus the balance scorecard, as data and as terminal tables."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from simharness.report.summary import RunLike, build_summary, print_summary


def build_report(run: RunLike) -> dict[str, Any]:
    """Every number of the report, JSON-ready."""
    return build_summary(run)


def print_report(report: dict[str, Any], console: Console) -> None:
    print_summary(report, console)
