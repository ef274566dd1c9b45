"""`docs/architecture.md` lists every module of both trees: a module added without a line there
fails here. A game's module counts as listed when the doc names its path inside the tree
(`games/riichi/accept.rs`, `report/stream.py`) or, for the files every game has, the per-game shape
(an indented `show.rs` under `games/<game>/`, `metrics.py` under `<game>/`); a package's
`__init__.py` with its folder (`report/`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOC = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")


def _block(first_line: str) -> str:
    """The fenced code block of the doc that starts with `first_line`."""
    start = DOC.index("```\n" + first_line)
    return DOC[start : DOC.index("```", start + 3)]


def _shape(block: str, under: str) -> set[str]:
    """The file names listed one level inside `under` in a tree block: the shape every game shares."""
    lines = block.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith(under))
    indent = len(lines[at]) - len(lines[at].lstrip())
    names: set[str] = set()
    for line in lines[at + 1 :]:
        depth = len(line) - len(line.lstrip())
        if depth <= indent:
            break
        if depth == indent + 2:
            names.add(line.split()[0])
    return names


def _named(path: str, shape: set[str]) -> bool:
    # A package's __init__.py is the package: listed with its folder (`report/`).
    if path.endswith("/__init__.py") and path.count("/") == 1:
        path = path.removesuffix("__init__.py")
    parts = path.split("/")
    # games/<game>/<file>: the shape, or "<game>/<file>" (and so also "games/<game>/<file>").
    if parts[0] == "games" and len(parts) == 3:
        return parts[2] in shape or _mentioned("/".join(parts[1:]))
    return _mentioned(path)


def _mentioned(path: str) -> bool:
    """Whether the doc names `path` as a whole (not as the tail of a longer path or name)."""
    return re.search(rf"(?<![\w/]){re.escape(path)}\b", DOC) is not None


def _modules(root: Path, suffix: str) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob(f"*{suffix}") if "__pycache__" not in p.parts)


ENGINE = _modules(REPO / "engine" / "src", ".rs")
PYTHON = _modules(REPO / "simharness", ".py")


@pytest.mark.parametrize("module", ENGINE)
def test_every_engine_module_is_in_the_architecture_doc(module: str) -> None:
    assert _named(module, _shape(_block("engine/src/"), "games/<game>/")), f"engine/src/{module}"


@pytest.mark.parametrize("module", PYTHON)
def test_every_python_module_is_in_the_architecture_doc(module: str) -> None:
    assert _named(module, _shape(_block("simharness/games/"), "<game>/")), f"simharness/{module}"


def test_the_check_finds_a_missing_module() -> None:
    """The matcher is not vacuous: a name the doc never mentions is not listed."""
    assert not _named("games/riichi/wormhole.rs", _shape(_block("engine/src/"), "games/<game>/"))
    assert not _named("report/wormhole.py", set())
    assert len(ENGINE) > 60 and len(PYTHON) > 60
