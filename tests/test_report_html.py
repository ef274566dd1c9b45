"""The HTML report: self-contained, figures embedded, renders in headless Chromium without errors."""

from __future__ import annotations

import base64
import html
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browser import CHROMIUM, NO_CHROMIUM, fit
from harness_helpers import play
from stats_fixtures import make_run

from simharness import store, vocabulary
from simharness.games import registry
from simharness.report.full import build_report
from simharness.report.html import write_html


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


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
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
        set(re.findall(r'<li><b><a href="report-games/([^"#]+)(?:#hand-\d+)?">', text)) == names
    )  # a game may be listed twice
    left = sum(f"{g['variant']}-game{g['game']}.html" not in names for g in report["extreme_games"])
    assert text.count("(no page: the pages beside this report reached their budget of 0.1 MB)") == left
    assert len(written) == len(pages) + 1  # the page that did not fit; none played after it
    for g in report["extreme_games"]:
        assert html.escape(g["command"]) in text


# A small run of each game with three variants whose names are long (a grid's names), the shape
# that made the scorecard and the game metrics wider than the page.
WIDE = {
    "sugoroku": (
        'game = "sugoroku"\ngames = 24\nplayers = ["naive", "greedy", "naive", "random"]\n'
        '[rules]\npreset = "default"\n[grid]\npayout_cap = [500, 1000]\nrest_rule = ["max10", "penalty4"]\n'
    ),
    "suzume": (
        'game = "suzume"\ngames = 8\nduplicate = true\n'
        'players = ["fastest", "max-points", "defensive", "tsumo-only"]\n[rules]\npreset = "default"\n'
        '[grid]\nmin_points = [0, 5]\nmulti_ron = ["all", "head_bump"]\n'
    ),
    "hongkong": (
        'game = "hongkong"\ngames = 4\nduplicate = true\n'
        'players = ["chicken-fast", "min-fan", "pung-hunter", "defensive"]\n[rules]\npreset = "default"\n'
        '[grid]\nmin_fan = [0, 3]\nresponsibility = ["half", "full"]\n'
    ),
    "riichi": (
        'game = "riichi"\ngames = 4\nduplicate = true\n'
        'players = ["efficiency", "call-happy", "fold-on-riichi", "yakuhai-caller"]\n'
        '[rules]\npreset = "tenhou"\ngame_length = "tonpuu"\n'
        "[grid]\nkuitan = [true, false]\naka_dora = [0, 3]\n"
    ),
    "trump": (
        'game = "trump"\ngames = 6\nduplicate = true\nplayers = ["always-riichi", "dama", "fold-on-riichi"]\n'
        '[rules]\npreset = "default"\n'
        '[grid]\nfuriten = ["off", "standard"]\nkanzen_sakizuke = [false, true]\n'
    ),
}


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
@pytest.mark.parametrize("game", sorted(WIDE))
def test_every_report_page_fits_a_1280_px_window(game: str, tmp_path: Path) -> None:
    """No table, figure or line of a report is wider than a 1280 px window, for every game, with four
    variants of long names (the scorecard had a column per variant and per difference, the game
    metrics a column per metric: both ran 300 to 800 px past the window)."""
    run = store.open_run(play(tmp_path, "wide", WIDE[game]))
    out = tmp_path / "report.html"
    write_html(run, build_report(run), out)
    got = fit(out, tmp_path)
    assert got.overflowing == [] and got.page <= got.window, got
    # A game's distributions (the han of a win, ...) are charts, not rows of the metrics tables.
    text = out.read_text()
    tables = text[text.index("<h2>Game metrics</h2>") :]
    for bins in registry.distributions(game).values():
        assert f'<figure id="fig-dist-{bins[0].split("_")[0]}">' in text
        assert f"<td>{html.escape(vocabulary.label(game, bins[1]))}</td>" not in tables


def test_provenance_is_folded(page: tuple[Path, dict]) -> None:
    """The manifest is one line of facts and a folded block, not screens of JSON on the page."""
    text = page[0].read_text()
    section = text[text.index("<h2>Provenance</h2>") : text.index('<script type="application/json"')]
    assert re.search(r"<p>simharness 0\.1\.0, commit 0123456789abcdef, seed 7, 2 variants\.</p>", section)
    folded = re.search(r"<details><summary>[^<]*</summary><pre>(.*?)</pre></details>", section, re.S)
    assert folded is not None and section.count("<pre>") == 1
    assert '"config_hash": "cafe"' in html.unescape(folded.group(1))


def _boxes(fig: Any) -> list[tuple[str, Any]]:
    """The labelled parts of a figure that must not overlap: per panel its title, axis labels, tick
    labels (each axis's together) and legend."""
    renderer = fig.canvas.get_renderer()
    out = []
    for i, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        parts = [("title", ax.title), ("xlabel", ax.xaxis.label), ("ylabel", ax.yaxis.label)]
        parts += [("legend", ax.get_legend())] if ax.get_legend() is not None else []
        for name, artist in parts:
            if artist.get_visible() and (name == "legend" or artist.get_text()):
                out.append((f"panel {i} {name}", artist.get_window_extent(renderer)))
        for axis, name, i in ((ax.xaxis, "xticks", 0), (ax.yaxis, "yticks", 1)):
            # The locator's ticks beyond the view are in the list but not drawn.
            lo, hi = sorted(axis.get_view_interval())
            ticks = [
                t.get_window_extent(renderer)
                for t in axis.get_ticklabels()
                if t.get_text() and t.get_visible() and lo <= t.get_position()[i] <= hi
            ]
            if ticks:
                from matplotlib.transforms import Bbox

                out.append((f"panel {i} {name}", Bbox.union(ticks)))
    return out


def test_no_figure_of_the_report_has_overlapping_labels(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Every figure of a report: no title, axis label, tick labels or legend covers another (the
    rank-share legend sat on its axis label)."""
    from simharness.report import html as report_html
    from simharness.report import htmlkit

    clashes: list[str] = []
    encode = htmlkit.png

    def png(fig: Any) -> str:
        fig.canvas.draw()
        boxes = _boxes(fig)
        for i, (a, ba) in enumerate(boxes):
            for b, bb in boxes[i + 1 :]:
                # More than touching: a pixel each way (a tick label may end where another starts).
                if min(ba.x1, bb.x1) - max(ba.x0, bb.x0) > 1 and min(ba.y1, bb.y1) - max(ba.y0, bb.y0) > 1:
                    clashes.append(f"{fig.axes[0].get_title()!r}: {a} × {b}")
        return encode(fig)

    monkeypatch.setattr(htmlkit, "png", png)
    monkeypatch.setattr(report_html, "_png", png)
    run = make_run(tmp_path / "run", {"base": 1.0, "wild": 2.0, "tame": 0.5, "odd": 1.5}, n_games=80, hands=4)
    write_html(run, build_report(run), tmp_path / "report.html")
    assert clashes == [], "\n".join(clashes)
