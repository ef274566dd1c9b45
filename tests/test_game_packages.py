"""The contract between the harness and the game packages (``simharness.games.registry``): one
package per engine game, found through the engine's registry, contributing commands, metrics and a
Python-strategy protocol."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest
import typer

from simharness import engine, strategies, vocabulary
from simharness.games import registry

ROOT = Path(__file__).resolve().parents[1]
GAMES = engine.game_names()


def _commands(app: typer.Typer) -> set[str]:
    names = {c.name or c.callback.__name__ for c in app.registered_commands if c.callback}
    return names | {g.name for g in app.registered_groups if g.name}


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_game_has_a_package_with_the_contract(game: str) -> None:
    package = registry.package(game)
    assert package.__name__ == f"simharness.games.{game}"
    assert package.__doc__, "the package says what its modules hold"
    # Python-strategy protocol: a `python` module exactly when the engine layer has one, with at
    # least one example class that has `decide`.
    python = registry.submodule(game, "python")
    assert (python is not None) == engine.game_info(game).python_strategies
    if python is not None:
        examples = [
            c
            for _, c in inspect.getmembers(python, inspect.isclass)
            if c.__module__ == python.__name__ and callable(getattr(c, "decide", None))
        ]
        assert examples, f"{python.__name__} has an example class with decide()"
    # `simharness show` draws every game with its `show` module and replays its Python strategies
    # through `_engine.show_python`.
    assert callable(getattr(registry.submodule(game, "show"), "page", None))
    cli = registry.submodule(game, "cli")
    if cli is not None:
        assert list(inspect.signature(cli.register).parameters) == ["app", "score_app"]
    metrics = registry.summary_metrics(game)
    if metrics is not None:
        assert list(inspect.signature(metrics).parameters) == ["run"]
        if registry.submodule(game, "metrics") is not None:
            assert metrics is importlib.import_module(f"simharness.games.{game}.metrics").summary_metrics
    # The report's names and profile: labels are strings; each profile axis is a metric the game
    # labels (its own) or one the harness computes for every game.
    terms = vocabulary.terms(game)
    assert all(isinstance(t, vocabulary.Term) for t in registry.metric_terms(game))
    for axis in registry.profile_axes(game) or ():
        assert axis in terms, f"{game}: PROFILE names {axis}"
    notable = registry.notable_hand(game)
    if notable is not None:
        assert list(inspect.signature(notable).parameters) == ["hands"]


def test_each_game_adds_its_commands_and_one_without_a_cli_adds_none(monkeypatch: pytest.MonkeyPatch) -> None:
    app, score_app = typer.Typer(), typer.Typer()
    added = registry.register_commands(app, score_app)
    assert added == [g for g in GAMES if registry.submodule(g, "cli") is not None]
    assert {"riichi", "suzume"} <= set(added) and "sugoroku" not in added
    assert {"riichi", "suzume"} <= _commands(score_app)
    assert {"shanten", "replay"} <= _commands(app)

    sugoroku_only = tuple(g for g in engine.games() if g.name == "sugoroku")
    monkeypatch.setattr(engine, "games", lambda: sugoroku_only)
    app, score_app = typer.Typer(), typer.Typer()
    assert registry.register_commands(app, score_app) == []
    assert _commands(app) == set() and _commands(score_app) == set()


@pytest.mark.parametrize("game", GAMES)
def test_every_public_name_resolves(game: str) -> None:
    package = registry.package(game)
    assert all(hasattr(package, name) for name in getattr(package, "__all__", ()))


def test_public_names_are_the_packages() -> None:
    from simharness.games import riichi, suzume

    assert riichi.score_hand("123m456p789s1177z", win="7z", tsumo=True).han >= 2
    assert suzume.score_hand("123FFF", win="3")["legal"] is True
    assert riichi.summary_metrics is registry.summary_metrics("riichi")


@pytest.mark.parametrize("game", ["riichi", "suzume", "sugoroku"])
def test_scripts_naming_the_old_modules_still_play(game: str) -> None:
    """Strategy scripts and run manifests written before one package per game name
    ``simharness.games.<game>_python``; they load the class from its new home."""
    script = next(s for s in strategies.available(game, ROOT) if s.python)
    module, _, cls = script.python.partition(":")
    assert module == f"simharness.games.{game}.python"
    old = dict(script.resolved_knobs(), python=f"simharness.games.{game}_python:{cls}")
    new = script.resolved_knobs()
    native = engine.resolve_knobs(game)
    n = {"riichi": 4}.get(game, 2)
    tables = [
        engine.play_batch(game, {}, [knobs] + [native] * (n - 1), seed=3, first_game=0, count=2)
        for knobs in (old, new)
    ]
    assert all(tables[0][t].equals(tables[1][t]) for t in tables[0])
