"""The HTML report: self-contained, figures embedded, renders in headless Chromium without errors."""

from __future__ import annotations

import base64
import html
import io
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
    assert len(re.findall(r'<img [^>]*src="data:image/png;base64,', text)) >= 6
    assert not re.search(r'(src|href)="(https?:)?//', text)  # no network resources
    data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', text, re.S)
    assert data is not None
    assert json.loads(data.group(1).replace("<\\/", "</")) == json.loads(json.dumps(report, default=str))
    assert "0123456789abcdef" in text and "Balance scorecard" in text
    assert "1st-place rate" in text and "win rate" not in text  # the rank-1 share is named as players do


def test_glance_figures_are_real_plots(page: tuple[Path, dict]) -> None:
    """The profile and rank-share figures are PNG plots with content, not empty frames."""
    import matplotlib.image

    text = page[0].read_text()
    for fig_id in ("fig-profile", "fig-ranks"):
        m = re.search(rf'<figure id="{fig_id}"><img [^>]*src="data:image/png;base64,([^"]+)"', text)
        assert m is not None, fig_id
        img = matplotlib.image.imread(io.BytesIO(base64.b64decode(m.group(1))), format="png")
        assert img.shape[0] > 200 and img.shape[1] > 300
        # Colour: the error bars and bars are drawn in colours, not only black axes on white.
        rgb = img[..., :3]
        assert (rgb.max(axis=2) - rgb.min(axis=2) > 0.3).mean() > 0.002, fig_id


def test_extreme_games_are_listed_with_their_show_commands(page: tuple[Path, dict]) -> None:
    path, report = page
    text = path.read_text()
    assert "<h2>Extreme games</h2>" in text
    for g in report["extreme_games"]:
        assert html.escape(g["command"]) in text
    assert {g["kind"] for g in report["extreme_games"]} == {"comeback", "biggest_loss", "longest"}


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
    assert int(attrs["data-figures-total"]) >= 6
    assert attrs["data-figures-loaded"] == attrs["data-figures-total"]
    # The glance figures decoded at a plot's size (id:widthxheight).
    sizes = dict(item.split(":") for item in attrs["data-figures-ids"].split())
    for fig_id in ("fig-profile", "fig-ranks"):
        w, h = map(int, sizes[fig_id].split("x"))
        assert w > 300 and h > 200, (fig_id, w, h)
