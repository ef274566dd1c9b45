"""One vocabulary for every metric of a report: each has one identifier (the JSON ``metric``), one
name (terminal and HTML), one unit and one definition, the same on every page.

The harness's own metrics are :data:`HARNESS` (the summary, the tails, the balance scorecard);
each game package names its own in ``METRICS`` (a tuple of :class:`Term`). The report labels every
number through :func:`label` and formats it through :func:`percent`, and ``docs/statistics.md``'s
glossary is :func:`glossary_markdown` of the same tables (``python -m simharness.vocabulary``
prints it; a test holds the doc to it).

Rules a term keeps (``tests/test_vocabulary.py``): its unit is one of :data:`UNITS`; a share is
stored as a fraction and shown in % (``% of hands``: per hand; ``% of games``: per game), a count
per hand or game is labelled as a count, a mean carries its unit; one name never stands for two
identifiers, nor one identifier for two names or units, in any game.
"""

from __future__ import annotations

from dataclasses import dataclass

# Every unit a metric may have, and whether it is a share (a fraction shown in %).
UNITS: dict[str, bool] = {
    "% of games": True,
    "% of hands": True,
    "% of wins": True,
    "% of turns": True,
    "% of exhaustive draws": True,
    "% of riichi declarations": True,
    "% of the winner's fan": True,
    "% of the game": True,
    "percentage points": True,
    "count per game": False,
    "count per hand": False,
    "points": False,
    "points per win": False,
    "points per deal-in": False,
    "points per hand": False,
    "han per win": False,
    "fan per win": False,
    "rank": False,
    "rank points": False,
    "thousands of points": False,
    "hands or turns": False,
    "index 0–1": False,
}


@dataclass(frozen=True)
class Term:
    """A metric: ``key`` (its identifier in JSON), ``name`` (on every page), ``unit`` (one of
    :data:`UNITS`) and ``definition`` (one sentence: what is counted over what)."""

    key: str
    name: str
    unit: str
    definition: str

    @property
    def label(self) -> str:
        """The name with its unit, as tables head their columns and rows."""
        return self.name if self.name.endswith(self.unit) else f"{self.name} ({self.unit})"

    @property
    def percent(self) -> bool:
        return UNITS[self.unit]


def _scorecard() -> tuple[Term, ...]:
    """The balance scorecard's metrics (``stats.scorecard.METRICS``: their definitions) with names
    and units."""
    from simharness.stats.scorecard import METRICS

    named = {
        "balance": ("seat balance", "index 0–1"),
        "first_seat_win_rate": ("first seat 1st place", "% of games"),
        "skill_gradient": ("skill gradient", "percentage points"),
        "tied_first_rate": ("tie for first", "% of games"),
        "bust_rate": ("bust rate", "% of games"),
        "timeout_rate": ("timeout rate", "% of games"),
        "extreme_rate": ("extreme-score rate", "% of games"),
        "length": ("game length", "hands or turns"),
        "spread": ("top-to-bottom spread", "points"),
        "mean_abs_difference": ("mean score gap", "points"),
        "gini": ("Gini of final scores", "index 0–1"),
        "lead_changes": ("lead changes", "count per game"),
        "lead_changes_per_hand": ("lead changes/hand", "count per hand"),
        "winner_led_fraction": ("hands the winner led", "% of hands"),
        "drama": ("drama", "points"),
        "max_drama": ("largest deficit overcome", "points"),
        "decisiveness": ("decided at", "% of the game"),
        "comeback": ("comeback rate", "% of games"),
    }
    return tuple(Term(m.name, *named[m.name], m.doc) for m in METRICS)


# The summary's and the tails' metrics (``report.summary``, ``report.tails``), then the scorecard's.
HARNESS: tuple[Term, ...] = (
    Term(
        "first_place_rate",
        "1st-place rate",
        "% of games",
        "Games a strategy (or seat) finished first in; k players tied for first hold 1/k each",
    ),
    Term("last_place_rate", "last-place rate", "% of games", "Games a strategy finished last in"),
    Term("final_points", "mean final points", "points", "Mean of a player's points at the end of a game"),
    Term(
        "rank_points",
        "mean rank points",
        "rank points",
        "Mean of the points a player's final place earns (the config's rank_points)",
    ),
    Term(
        "rank_share",
        "rank share",
        "% of games",
        "Games a strategy finished in each place (1st, 2nd, ...); tied players share the places",
    ),
    Term("p1", "p1 of final points", "points", "The 1st percentile of the final points of every player"),
    Term("p99", "p99 of final points", "points", "The 99th percentile of the final points of every player"),
    Term("worst", "worst final score", "points", "The lowest final points of any player in any game"),
    *_scorecard(),
)


# The dealer's advantage per hand, reported alike by every game with a dealer
# (``games.estimates.dealer_rows``).
DEALER: tuple[Term, ...] = (
    Term("dealer_win_rate", "dealer's win rate", "% of hands", "Hands the dealer won"),
    Term(
        "dealer_keep_rate", "dealer keeps", "% of hands", "Hands after which the dealer dealt again (renchan)"
    ),
    Term("dealer_mean_result", "dealer's result", "points per hand", "The dealer's point change in a hand"),
)

# The han of a win, binned alike by every game that counts han (``games.estimates.han_rows``).
HAN_BINS: tuple[str, ...] = (*(f"han_{h}" for h in range(1, 13)), "han_13plus")
HAN: tuple[Term, ...] = (
    *(Term(k, f"wins of {k[4:]} han", "% of wins", f"Wins of exactly {k[4:]} han") for k in HAN_BINS[:-1]),
    Term("han_13plus", "wins of 13+ han", "% of wins", "Wins of 13 han or more (yakuman count 13 each)"),
)


def game_terms(game: str) -> tuple[Term, ...]:
    """The game package's ``METRICS`` (empty for a game without a package or terms, and for ``""``:
    the harness's terms alone)."""
    if not game:
        return ()
    from simharness.games import registry

    return tuple(registry.metric_terms(game))


def terms(game: str) -> dict[str, Term]:
    """Every metric a report of ``game`` names, by key: the harness's, then the game's."""
    return {t.key: t for t in (*HARNESS, *game_terms(game))}


def term(game: str, key: str) -> Term | None:
    return terms(game).get(key)


def name(key: str, game: str = "") -> str:
    """The metric's name without its unit, for a table whose heading gives the unit ("rates in %")
    or a sentence that follows it with one ("+1.2 pp"); an unknown key as words."""
    t = term(game, key)
    return t.name if t is not None else key.replace("_", " ")


def label(game: str, key: str) -> str:
    """The metric's name and unit (:attr:`Term.label`); an unknown key as words."""
    t = term(game, key)
    return t.label if t is not None else key.replace("_", " ")


def percent(game: str, key: str) -> bool:
    """Whether the metric is a share, shown in %."""
    t = term(game, key)
    return t is not None and t.percent


def glossary(game: str, keys: set[str]) -> dict[str, dict[str, str]]:
    """The terms of ``keys`` a report holds, for its JSON: key → name, unit, definition."""
    known = terms(game)
    return {
        k: {"name": known[k].name, "unit": known[k].unit, "definition": known[k].definition}
        for k in sorted(keys)
        if k in known
    }


def _table(ts: tuple[Term, ...]) -> list[str]:
    rows = ["| metric | name | unit | definition |", "|---|---|---|---|"]
    rows += [f"| `{t.key}` | {t.name} | {t.unit} | {t.definition.replace('|', chr(92) + '|')} |" for t in ts]
    return rows


def glossary_markdown() -> str:
    """The glossary of ``docs/statistics.md``: the harness's terms, then each game's."""
    from simharness import engine

    lines = ["### Every game", "", *_table(HARNESS)]
    for info in engine.games():
        own = game_terms(info.name)
        if own:
            lines += ["", f"### {info.name}", "", *_table(own)]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(glossary_markdown(), end="")
