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
from harness_helpers import play
from stats_fixtures import make_run

from simharness import store
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


def test_a_report_of_many_variants_draws_a_bounded_page(tmp_path: Path) -> None:
    """A figure draws at most a dozen variants' panels (and a forest panel its 25 effects furthest
    from 0), so a run of 40 variants makes figures of about the size a dozen make: the page grows
    by its tables and data alone. (Each figure used to have a panel per variant: 5.2 MB of figures
    here, hundreds of megabytes for a sweep's report.)"""
    run = make_run(tmp_path / "run", {f"v{i}": 1.0 + i / 50 for i in range(40)}, n_games=80, hands=4)
    out = tmp_path / "report.html"
    write_html(run, build_report(run), out)
    text = out.read_text()
    figures = sum(map(len, re.findall(r'src="data:image/png;base64,([^"]+)"', text)))
    assert figures < 2_500_000
    # tables, the verdict with the tails and the JSON: about 24 kB per variant
    assert len(text) - figures < 40 * 28_000
    drawn = r"<figcaption>[^<]* \(the first 12 of 40 variants; the tables hold every variant\)</figcaption>"
    assert len(re.findall(drawn, text)) == 5  # profile, rank shares, seat ranks, scores, game length


def test_a_forest_panel_keeps_the_effects_furthest_from_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    """Worked example with room for two rows: a (0.5 ± 1: 0.25 widths from 0), b (2 ± 1: 1 width),
    c (-3 ± 0.5: 3 widths) and d (0.1 without an interval: infinitely far) keep c and d, in the
    table's order, and the title says how many were left out."""
    from simharness.report import html as report_html

    def iv(est: float, half: float | None) -> dict[str, float | None]:
        return {
            "estimate": est,
            "lo": None if half is None else est - half,
            "hi": None if half is None else est + half,
        }

    items = [("a", iv(0.5, 1)), ("b", iv(2, 1)), ("c", iv(-3, 0.5)), ("d", iv(0.1, None))]
    monkeypatch.setattr(report_html, "FOREST_ROWS", 2)
    name, kept = report_html._furthest_rows("points", items)
    assert name == "points (the 2 of 4 furthest from 0)" and [k for k, _ in kept] == ["c", "d"]
    assert report_html._furthest_rows("points", items[:2]) == ("points", items[:2])


def test_show_pages_beside_a_report_stay_within_their_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A report writes its extreme games' pages until the next would pass the budget; that game and
    the ones after it are listed with their command and why they have no page, and are not played
    again."""
    import simharness.show
    from simharness.report import glance_html

    body = (
        'game = "suzume"\ngames = 8\nplayers = ["fastest", "max-points", "defensive", "tsumo-only"]\n'
        '[rules]\npreset = "default"\n[grid]\nstarting_points = [10, 20, 30, 40]\n'
    )
    run = store.open_run(play(tmp_path, "many", body))
    report = build_report(run)
    games = {(g["variant"], g["game"]) for g in report["extreme_games"]}
    written = []

    def write_page(run_dir: Path, game: int, variant: str | None = None, out: Path | None = None) -> Path:
        written.append(show_page(run_dir, game, variant, out))
        return written[-1]

    show_page = simharness.show.write_page
    monkeypatch.setattr(simharness.show, "write_page", write_page)
    monkeypatch.setattr(glance_html, "SHOW_PAGES_BUDGET", 100_000)
    out = tmp_path / "report.html"
    write_html(run, report, out)
    text = out.read_text()
    pages = list((tmp_path / "report-games").iterdir())
    assert 2 <= len(pages) < len(games)
    assert sum(p.stat().st_size for p in pages) <= 100_000
    names = {p.name for p in pages}
    assert (
        set(re.findall(r'<li><b><a href="report-games/([^"]+)">', text)) == names
    )  # a game may be listed twice
    left = sum(f"{g['variant']}-game{g['game']}.html" not in names for g in report["extreme_games"])
    assert text.count("(no page: the pages beside this report reached their budget of 0.1 MB)") == left
    assert len(written) == len(pages) + 1  # the page that did not fit; none played after it
    for g in report["extreme_games"]:
        assert html.escape(g["command"]) in text
