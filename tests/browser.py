"""Pages drawn in headless Chromium, for the tests that check what a reader sees: the window is
1280 px wide, as a laptop's, and a page must fit it."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import NamedTuple

CHROMIUM = next(
    (b for b in ("chromium", "chromium-browser", "google-chrome", "chrome") if shutil.which(b)), None
)
NO_CHROMIUM = "no chromium binary on PATH (apt-get install chromium)"
WIDTH = 1280

# Runs after the page's own scripts and figures: the width the page scrolls to, the width of the
# window, and each outermost element whose right edge is past the window (its descendants would
# repeat it), as `tag#id.class right=px text…`.
_PROBE = """<script>
window.addEventListener('load', function () { setTimeout(function () {
  var w = document.documentElement.clientWidth, out = [];
  document.querySelectorAll('body *').forEach(function (e) {
    var r = e.getBoundingClientRect(), p = e.parentElement.getBoundingClientRect();
    if (r.width > 0 && r.right > w + 0.5 && p.right <= w + 0.5) {
      var cls = typeof e.className === 'string' && e.className ? '.' + e.className.split(' ').join('.') : '';
      out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + cls + ' right=' + Math.round(r.right)
        + ' ' + (e.textContent || '').replace(/\\s+/g, ' ').slice(0, 80));
    }
  });
  var probe = document.createElement('pre');
  probe.id = 'width-probe';
  probe.setAttribute('data-window', String(w));
  probe.setAttribute('data-page', String(document.documentElement.scrollWidth));
  probe.textContent = JSON.stringify(out);
  document.body.appendChild(probe);
}, 50); });
</script>"""


class Fit(NamedTuple):
    """How a page fits the window: its scroll width, the window's width, and what sticks out."""

    page: int
    window: int
    overflowing: list[str]


def fit(page: Path, scratch: Path, fragment: str = "") -> Fit:
    """Draw a copy of ``page`` (with the probe, written in ``scratch``) at :data:`WIDTH` px and
    measure it; ``fragment`` (e.g. ``#all``) is appended to the address."""
    copy = scratch / f"probe-{page.name}"
    copy.write_text(
        page.read_text(encoding="utf-8").replace("</head>", _PROBE + "</head>", 1), encoding="utf-8"
    )
    dom = subprocess.run(
        [CHROMIUM or "chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--window-size={WIDTH},2000",
         "--virtual-time-budget=20000", "--dump-dom", copy.as_uri() + fragment],
        capture_output=True, text=True, timeout=180, check=True,
    ).stdout  # fmt: skip
    m = re.search(r'<pre id="width-probe" data-window="(\d+)" data-page="(\d+)">(.*?)</pre>', dom, re.S)
    assert m is not None, f"the probe did not run in {page}"
    return Fit(int(m.group(2)), int(m.group(1)), json.loads(html.unescape(m.group(3))))
