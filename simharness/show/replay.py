"""One game of a run played again and checked against what the run logged."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simharness import __version__, _engine, buildinfo, engine, store, strategies
from simharness.errors import RunDirError
from simharness.games import registry
from simharness.manifest import Manifest

# The columns of a run's rows that the harness adds (not the engine's, so not replayed).
_HARNESS_COLUMNS = ("strategy", "variant")


@dataclass
class Shown:
    """A game played again: its manifest, variant, index and the engine's tables for it."""

    run_dir: Path
    manifest: Manifest
    variant: str
    game: int
    tables: dict[str, pl.DataFrame]

    @property
    def rules(self) -> dict[str, Any]:
        return dict(self.manifest.variants[self.variant])

    @property
    def seats(self) -> int:
        return self.tables["players"].height

    def strategy(self, seat: int) -> str:
        """The strategy (lineup slot's name) playing ``seat``."""
        players = self.tables["players"]
        slot = int(players.filter(pl.col("seat") == seat)["player"][0])
        return self.manifest.lineup_of(self.variant)[slot].strategy

    def strategies(self) -> list[str]:
        """The strategy of each seat."""
        return [self.strategy(s) for s in range(self.seats)]

    def title(self, game_title: str) -> str:
        """The page's title: ``Riichi game 7 of NAME, variant V``."""
        return f"{game_title} game {self.game} of {self.manifest.name}, variant {self.variant}"

    def provenance(self) -> str:
        made = self.manifest.provenance
        return (
            f"run made by simharness {made.get('simharness_version')} (engine {made.get('engine_version')}, "
            f"commit {made.get('git_commit')}); shown by simharness {__version__} (engine "
            f"{_engine.__version__}, commit {buildinfo.git_commit()})"
        )


def page_path(run_dir: Path | str, variant: str, game: int) -> Path:
    """Where ``show`` writes the page of ``game`` of ``variant`` by default (the report links here)."""
    return Path(run_dir) / "show" / f"{variant}-game{game}.html"


def _logged_rows(run_dir: Path, manifest: Manifest, table: str, variant: str, game: int) -> pl.DataFrame:
    """The rows of ``game`` in the shard of ``table`` that holds it (one file read, not the run)."""
    plan = store.Plan.of(manifest)
    key = (table, variant, plan.first_of(game))
    path = store.shard_path(run_dir, *key)
    if not path.exists():
        raise RunDirError(f"game {game} is not in the run yet (its shard is missing)", file=path)
    return store.read_shard(run_dir, plan, key).filter(pl.col("game") == game)


def _check_same(logged: pl.DataFrame, replayed: pl.DataFrame, table: str, shown: Shown) -> None:
    columns = [c for c in logged.columns if c not in _HARNESS_COLUMNS]
    a = logged.select(columns)  # a shard keeps the engine's row order
    missing = [c for c in columns if c not in replayed.columns]
    b = None if missing else replayed.select(columns)
    if b is None or a.height != b.height or not a.equals(b):
        what = f"columns {missing} are gone" if missing else _first_difference(a, b)
        edited = "; ".join(strategies.edited_since(shown.manifest.lineup_of(shown.variant)))
        why = (
            f"{edited[:1].upper()}{edited[1:]}; show it with the source that made the run"
            if edited
            else f"The engine changed the game since the run was made ({shown.provenance()}); "
            "show it with the version that made the run"
        )
        raise RunDirError(
            f"game {shown.game} of variant {shown.variant} plays differently now: {table} {what}. "
            f"{why}, or run the config again",
            file=shown.run_dir,
        )


def _first_difference(a: pl.DataFrame, b: pl.DataFrame | None) -> str:
    if b is None or a.height != b.height:
        return f"has {0 if b is None else b.height} rows instead of {a.height}"
    for c in a.columns:
        for i, (x, y) in enumerate(zip(a[c].to_list(), b[c].to_list(), strict=True)):
            if x != y:
                return f"row {i} column {c} is {y} instead of the logged {x}"
    return "differs"


def replay(run_dir: Path | str, game: int, variant: str | None = None) -> Shown:
    """Plays ``game`` of ``variant`` (default: the run's first variant) of the run in ``run_dir``
    again with every event, and checks its ``players``, ``games`` and ``hands`` rows against the
    run's. Raises :class:`RunDirError` for a game outside the run, an unknown variant or a game
    that the engine now plays differently (and :class:`engine.OptionError` for a Python strategy
    that fails)."""
    run_dir = Path(run_dir)
    manifest = store.read_manifest(run_dir)
    if manifest is None:
        raise RunDirError(f"not a run directory (no {store.MANIFEST})", file=run_dir)
    variants = list(manifest.variants)
    if variant is None:
        variant = variants[0]
    elif variant not in variants:
        raise RunDirError(
            f'no variant "{variant}"; expected one of: {", ".join(variants)}', file=run_dir, field="--variant"
        )
    played = manifest.expected_games()
    if not 0 <= game < played:
        raise RunDirError(
            f"no game {game}: the run has games 0 to {played - 1} per variant", file=run_dir, field="--game"
        )
    lineup = [dict(slot.knobs) for slot in manifest.lineup_of(variant)]
    tables = engine.show_game(
        manifest.game, dict(manifest.variants[variant]), lineup, seed=manifest.seed, index=game,
        duplicate=manifest.duplicate,
    )  # fmt: skip
    shown = Shown(run_dir, manifest, variant, game, tables)
    # Every table the run logged per game that the replay returns too (Riichi, Suzume-jong: hands).
    for table in [t for t in manifest.tables if t in tables and t != "events"]:
        _check_same(_logged_rows(run_dir, manifest, table, variant, game), tables[table], table, shown)
    return shown


def write_page(
    run_dir: Path | str, game: int, variant: str | None = None, out: Path | str | None = None
) -> Path:
    """Replays ``game`` (see :func:`replay`) and writes its page to ``out`` (default
    :func:`page_path`); returns the path written."""
    from simharness.show.page import render, tables_page

    shown = replay(run_dir, game, variant)
    module = registry.submodule(shown.manifest.game, "show")
    text = render(shown, tables_page(shown) if module is None else module.page(shown)).encode()
    if out is None:  # inside the run directory: never through a link
        path = page_path(run_dir, shown.variant, game)
        store.write_file(path, text, root=Path(run_dir))
        return path
    path = Path(out)
    with store.naming(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text)
    return path
