"""Strategy scripts: ``strategies/<game>/<name>.toml`` files that name a set of strategy knobs.

A name is looked up in the user's ``strategies/`` folders (the config's directory and its parents,
then the current directory) and last among the built-in scripts that ship inside the package
(``simharness/builtin/strategies``, the repository's top-level ``strategies/``), so a user's script
of the same name wins.

A script only writes the knobs it changes; the engine fills in the rest with their defaults and
rejects unknown knobs and bad values, so a script is checked by the same code that plays it.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from simharness import engine, tomlfile
from simharness.errors import ConfigError
from simharness.manifest import Slot


class _Script(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description="the strategy's name in logs and reports")
    game: str = Field(min_length=1, description="the game the knobs belong to")
    version: int = Field(default=1, ge=0, description="bump when the knobs change meaning")
    description: str = ""
    knobs: dict[str, Any] = Field(default_factory=dict)
    tuned: dict[str, Any] = Field(
        default_factory=dict,
        description="how `simharness tune` made this script (config, seed, budget, result)",
    )
    python: str | None = Field(
        default=None,
        pattern=r"^[\w.]+:\w+$",
        description="module:Class of a Python strategy that takes this slot's decisions (slower than knobs)",
    )


@dataclass(frozen=True)
class Strategy:
    """A strategy script as written (``knobs`` are the script's overrides of the engine defaults)."""

    name: str
    game: str
    version: int
    description: str
    knobs: dict[str, Any]
    path: Path
    python: str | None = None

    def resolved_knobs(
        self, extra: dict[str, Any] | None = None, *, field: str = "knobs", near: Sequence[Path] = ()
    ) -> dict[str, Any]:
        """The complete knob set: engine defaults, then the script's knobs, then ``extra``. A Python
        strategy's module is looked up on the import path, then in the folders ``near`` (the
        config's) and the script's own; found there, its folder travels with the knobs (under
        ``engine.PYTHON_DIR_KEY``) to the workers that import it.

        Errors name this script's file (or, for ``extra``, ``field``) and the knob.
        """
        folder = None
        if self.python:
            try:
                engine.require_python_strategies(self.game)
            except engine.OptionError as e:
                raise ConfigError(e.message, file=self.path, field=e.field) from None
            folder = _check_module(self.python, self.path, [*near, self.path.parent])
        try:
            engine.resolve_knobs(self.game, self.knobs)
        except engine.OptionError as e:
            raise ConfigError(e.message, file=self.path, field=f"knobs.{e.field}") from None
        try:
            knobs = engine.resolve_knobs(self.game, {**self.knobs, **(extra or {})})
        except engine.OptionError as e:
            raise ConfigError(e.message, field=f"{field}.{e.field}") from None
        # The Python strategy travels with the knobs (and into the manifest); play_batch takes it out.
        if not self.python:
            return knobs
        return {
            **knobs,
            engine.PYTHON_KEY: self.python,
            **({engine.PYTHON_DIR_KEY: str(folder)} if folder else {}),
        }


def _find_module(spec: str, near: Sequence[Path] = ()) -> tuple[Any, str, Path | None]:
    """The import spec of the module of ``module:Class`` (found without running it: validating a
    config must not execute a strategy's code), why it was not found, and the folder of ``near``
    (the config's, the script's) it was found in when it is not on the import path (None when it is:
    a module the user installed or put on PYTHONPATH is imported as it is)."""
    name = spec.partition(":")[0]
    module = engine.MOVED_MODULES.get(name, name)
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError) as e:  # a parent package that is missing or fails to import
        return None, f" ({e})", None
    if found is not None:
        return found, "", None
    top = module.partition(".")[0]
    for folder in near:
        if importlib.machinery.PathFinder.find_spec(top, [str(folder)]) is not None:
            engine.importable(str(folder.resolve()))
            return importlib.util.find_spec(module), "", folder.resolve()
    return None, "", None


def _check_module(spec: str, path: Path, near: Sequence[Path]) -> Path | None:
    """The module of ``module:Class`` can be found; returns the folder of ``near`` it is in when it is
    not on the import path."""
    found, why, folder = _find_module(spec, near)
    if found is None:
        module = spec.partition(":")[0]
        where = ", ".join(str(f) for f in near)
        raise ConfigError(
            f'no Python module "{module}" on the import path or in {where}{why}; expected an importable '
            "module: a file beside the config or the strategy script, or one installed or on PYTHONPATH",
            file=path,
            field="python",
        )
    return folder


def source(spec: str, folder: str | None = None) -> dict[str, str] | None:
    """The file that defines the module of ``module:Class`` and a hash of its bytes (None when it has
    no file). A run's identity holds the hash: the games are a function of the class's code as much
    as of the knobs, so a run resumed after the file was edited would mix two strategies."""
    found, _, _ = _find_module(spec, [Path(folder)] if folder else [])
    if found is None or not found.has_location or found.origin is None:
        return None
    try:
        data = Path(found.origin).read_bytes()
    except OSError:
        return None
    return {"file": found.origin, "sha256": hashlib.sha256(data).hexdigest()[:16]}


def edited_since(lineup: Sequence[Slot]) -> list[str]:
    """For each slot of a run's lineup (as its manifest records it) whose Python strategy's source is
    not the one the run recorded: which strategy, and the file that changed."""
    out = []
    for slot in lineup:
        knobs = slot.knobs
        recorded, spec = slot.source, knobs.get(engine.PYTHON_KEY)
        if not recorded or not spec:
            continue
        now = source(spec, knobs.get(engine.PYTHON_DIR_KEY))
        if now is not None and now["sha256"] == recorded["sha256"]:
            continue
        what = (
            f"{now['file']} is not the source the run recorded"
            if now
            else f"its module is no longer found (the run used {recorded['file']})"
        )
        out.append(
            f'the Python strategy "{slot.strategy}" of lineup slot {slot.slot} ({spec}) changed since '
            f"the run was made: {what}"
        )
    return out


def load(path: Path) -> Strategy:
    """The script at ``path``, with its structure checked (knobs are checked by :meth:`resolved_knobs`)."""
    s: _Script = tomlfile.validate(_Script, tomlfile.load(path), path)
    return Strategy(s.name, s.game, s.version, s.description, s.knobs, path, s.python)


# Holds ``strategies/`` and ``configs/``: links to the repository's top-level folders, which the wheel
# packs as files and an editable install reads in place, so a script added there ships as it is.
BUILTIN = Path(__file__).resolve().parent / "builtin"


def search_dirs(start: Path) -> list[Path]:
    """Where strategy names are looked up: ``start`` and its parents, the current directory, then the
    built-in scripts (each entry holds a ``strategies/`` folder)."""
    start = start.resolve()
    dirs = [start, *start.parents]
    cwd = Path.cwd().resolve()
    if cwd not in dirs:
        dirs.append(cwd)
    return [*dirs, BUILTIN]


def origin(s: Strategy, cwd: Path) -> str:
    """Where ``s`` comes from: ``built-in``, or its file (relative to ``cwd`` when below it), noting a
    built-in script of the same name that it replaces."""
    builtin = BUILTIN / "strategies" / s.game / s.path.name
    if builtin.is_file() and builtin.resolve() == s.path.resolve():
        return "built-in"
    where = s.path.relative_to(cwd) if s.path.is_relative_to(cwd) else s.path
    return f"{where} (instead of the built-in)" if builtin.is_file() else str(where)


def find(game: str, ref: str, config_dir: Path) -> Path:
    """The script file for a lineup entry: a name, or a path ending in ``.toml`` relative to the config."""
    if ref.endswith(".toml"):
        path = (config_dir / ref).resolve()
        if not path.is_file():
            raise ConfigError(f'strategy script "{ref}" not found (looked for {path})')
        return path
    tried = []
    for d in search_dirs(config_dir):
        path = d / "strategies" / game / f"{ref}.toml"
        if path.is_file():
            return path
        tried.append(str(d / "strategies" / game))
    known = sorted({s.path.stem for s in available(game, config_dir)})
    expected = f"one of: {', '.join(known)}" if known else f"a file strategies/{game}/{ref}.toml"
    raise ConfigError(
        f'unknown strategy "{ref}" for {game}; expected {expected} (searched {", ".join(tried)})'
    )


@dataclass(frozen=True)
class Listed:
    """A script file found under ``strategies/<game>/``: loaded, or why it cannot be used."""

    game: str  # the folder it is in
    path: Path
    script: Strategy | None
    problem: str | None


def _inspect(game: str, path: Path) -> Listed:
    try:
        script = load(path)
        if script.game != game:
            return Listed(game, path, script, f'it says game = "{script.game}" but is in strategies/{game}/')
        script.resolved_knobs()
    except ConfigError as e:
        return Listed(game, path, None, f"{e.field}: {e.message}" if e.field else e.message)
    return Listed(game, path, script, None)


def listing(game: str | None, start: Path) -> list[Listed]:
    """Every script file visible from ``start`` (the nearest directory wins for a name), valid or not."""
    seen: dict[tuple[str, str], Listed] = {}
    for d in search_dirs(start):
        root = d / "strategies"
        if not root.is_dir():
            continue
        for path in sorted(root.glob("*/*.toml")):
            g = path.parent.name
            if (game is None or g == game) and (g, path.stem) not in seen:
                seen[(g, path.stem)] = _inspect(g, path)
    return sorted(seen.values(), key=lambda s: (s.game, s.path.stem))


def available(game: str | None, start: Path) -> list[Strategy]:
    """The valid strategy scripts visible from ``start``; loading an invalid one by name reports why."""
    return [s.script for s in listing(game, start) if s.script is not None and s.problem is None]
