"""The HTML report: self-contained, figures embedded, renders in headless Chromium without errors."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from stats_fixtures import make_run

from simharness.report.full import build_report
from simharness.report.html import write_html

CHROMIUM = next(
    (b for b in ("chromium", "chromium-browser", "google-chrome", "chrome") if shutil.which(b)), None
)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    tmp = tmp_path_factory.mktemp("html")
    run = make_run(tmp / "run", {"base": 1.0, "wild": 2.0}, n_games=800)
    report = build_report(run)
    out = tmp / "report.html"
    write_html(run, report, out)
    return out, report


def test_html_is_self_contained_with_figures_and_data(page: tuple[Path, dict]) -> None:
    path, report = page
    text = path.read_text()
    assert len(re.findall(r'<img [^>]*src="data:image/png;base64,', text)) >= 4
    assert not re.search(r'(src|href)="(https?:)?//', text)  # no network resources
    data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', text, re.S)
    assert data is not None
    assert json.loads(data.group(1).replace("<\\/", "</")) == json.loads(json.dumps(report, default=str))
    assert "0123456789abcdef" in text and "Balance scorecard" in text


def test_matplotlib_is_not_imported_by_the_cli_modules() -> None:
    code = (
        "import sys, simharness.report.cli, simharness.report.full, simharness.report.compare;"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported eagerly'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary on PATH (apt-get install chromium)")
def test_html_renders_in_headless_chromium(page: tuple[Path, dict]) -> None:
    path, _ = page
    dom = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=5000",
            "--dump-dom",
            path.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    body = re.search(r"<body([^>]*)>", dom)
    assert body is not None
    attrs = dict(re.findall(r'(data-[\w-]+)="([^"]*)"', body.group(1)))
    assert "data-js-errors" not in attrs
    assert attrs.get("data-json") == "ok"
    assert int(attrs["data-figures-total"]) >= 4
    assert attrs["data-figures-loaded"] == attrs["data-figures-total"]
