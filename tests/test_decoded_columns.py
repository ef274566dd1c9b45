"""Coded columns read as words (#23, #26): the engine's schema names every code of a coded column, the
Python API decodes them from there (and decoding then encoding gives the stored codes back), and no
Python module keeps a copy of those names."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import simharness as sh
from simharness import engine

PACKAGE = Path(sh.__file__).resolve().parent


@pytest.fixture(scope="module")
def riichi(tmp_path_factory: pytest.TempPathFactory) -> sh.Run:
    config = {
        "name": "coded",
        "game": "riichi",
        "games": 12,
        "seed": 5,
        "players": ["efficiency", "damaten", "fold-on-riichi", "call-happy"],
        "rules": {"event_log_every": 1},
    }
    return sh.run(config, out=tmp_path_factory.mktemp("runs"), progress=False, jobs=1)


def _encode(names: pl.Series, order: list[object]) -> list[int]:
    """A list column of names (or seats) back to bit masks."""
    return [sum(1 << order.index(n) for n in row) for row in names.to_list()]


def test_decoding_then_encoding_gives_the_stored_codes(riichi: sh.Run) -> None:
    for table in ("hands", "events"):
        raw = riichi.table(table, decode=False).collect()
        named = riichi.table(table).collect()
        assert named.height == raw.height > 0
        for c in engine.schema("riichi"):
            if c.name != table:
                continue
            for col in c.columns:
                if col.labels is not None:
                    assert named[col.name].dtype == pl.Enum(col.labels)
                    assert named[col.name].to_physical().cast(pl.Int64).to_list() == raw[col.name].to_list()
                elif col.bits is not None:
                    assert _encode(named[col.name], list(col.bits)) == raw[col.name].to_list(), col.name
                elif col.seats:
                    assert _encode(named[col.name], list(range(8))) == raw[col.name].to_list(), col.name
                elif col.seat:
                    back = named[col.name].fill_null(-1 if raw[col.name].dtype.is_signed_integer() else 255)
                    assert back.cast(pl.Int64).to_list() == raw[col.name].cast(pl.Int64).to_list(), col.name
    hands = riichi.hands.collect()
    # The strategy beside a seat is the one that played that seat in that game.
    players = riichi.players.collect().select("game", "seat", "strategy")
    ronned = hands.filter(pl.col("discarder").is_not_null()).select("game", "discarder", "discarder_strategy")
    joined = ronned.join(players, left_on=["game", "discarder"], right_on=["game", "seat"])
    assert joined.height == ronned.height > 0
    assert (joined["discarder_strategy"] == joined["strategy"]).all()
    # Every win names its yaku; a draw has none.
    wins = hands.filter(pl.col("outcome").is_in(["tsumo", "ron"]))
    assert (wins["yaku"].list.len() > 0).all() and (wins["winners"].list.len() > 0).all()


def _coded_columns() -> list[tuple[str, str, str, tuple[str, ...]]]:
    return [
        (g.name, t.name, c.name, names)
        for g in engine.games()
        for t in engine.schema(g.name) + engine.show_schema(g.name)
        for c in t.columns
        if (names := c.labels or c.bits) is not None
    ]


@pytest.mark.parametrize("game", engine.game_names())
def test_a_show_returns_the_tables_its_schemas_document(game: str) -> None:
    """What ``show`` returns is the batch's tables and the show's own, each exactly as documented
    (names, order, dtypes), so that a page reads every code it draws from the schema."""
    lineup = [engine.resolve_knobs(game)] * next(g.max_players for g in engine.games() if g.name == game)
    shown = engine.show_game(game, engine.resolve_rules(game), lineup, seed=3, index=0)
    documented = engine.schema(game) + engine.show_schema(game)
    assert list(shown) == [t.name for t in documented]
    for t in documented:
        got = [(name, str(dtype)) for name, dtype in shown[t.name].schema.items()]
        want = [(c.name, str(pl.Series(np.zeros(0, c.dtype)).dtype)) for c in t.columns]
        assert got == want, t.name


def test_every_game_names_its_codes_and_no_python_module_copies_them() -> None:
    coded = _coded_columns()
    assert {"riichi"} <= {g for g, *_ in coded}
    sources = {p: p.read_text() for p in PACKAGE.rglob("*.py")}
    for game, table, column, names in coded:
        # Four names of the list in a row (all of a shorter one), quoted, is a copy of the engine's
        # list; a map from another format's numbering (Tenhou's yaku ids) orders them its own way.
        width = min(4, len(names))
        for i in range(len(names) - width + 1):
            run = r"""['"]\s*,\s*['"]""".join(re.escape(n) for n in names[i : i + width])
            copies = [str(p) for p, text in sources.items() if re.search(f"['\"]{run}['\"]", text)]
            assert not copies, f"{game} {table}.{column}: {names[i : i + width]} copied in {copies}"
