"""``simharness show``: any game of a run played again from its manifest and drawn as one page.

Every game is a pure function of the manifest (resolved rules of its variant, lineup knobs, seed,
duplicate play and the game index), so :func:`replay` asks the engine for that one game with every
event logged (``engine.show_game``, the engine's ``Game::show``), checks it against the run's own
``players``, ``games`` (and ``hands``) rows, and :func:`write_page` hands the tables to the game's
``simharness/games/<game>/show.py`` (``page(shown) -> Page``) and writes the page.
"""

from simharness.show.page import Page, render
from simharness.show.replay import Shown, page_path, replay, write_page

__all__ = ["Page", "Shown", "page_path", "render", "replay", "write_page"]
