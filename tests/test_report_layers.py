"""The report's modules call one way only (#27): shards → per-chunk sums → finished statistics →
presentation. No report module imports another that imports it back, directly or through others, and
none hides such an import inside a function — except ``report/cli.py``, the entry point, which
imports each command's modules when the command runs so that the CLI starts fast."""

from __future__ import annotations

import ast
from pathlib import Path

import simharness

REPORT = Path(simharness.__file__).resolve().parent / "report"


def _imports(path: Path) -> tuple[set[str], set[str]]:
    """The report modules ``path`` imports at its top level, and those it imports inside functions."""
    tree = ast.parse(path.read_text())
    top = {n.module for n in tree.body if isinstance(n, ast.ImportFrom) and n.module}
    inner = {
        n.module
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
        for n in ast.walk(f)
        if isinstance(n, ast.ImportFrom) and n.module
    }
    ours = "simharness.report."
    return {m.removeprefix(ours) for m in top if m.startswith(ours)}, {
        m.removeprefix(ours) for m in inner if m.startswith(ours)
    }


def test_report_modules_import_one_way() -> None:
    graph: dict[str, set[str]] = {}
    for path in sorted(REPORT.glob("*.py")):
        top, inner = _imports(path)
        graph[path.stem] = top
        if path.stem != "cli":
            assert not inner, f"report/{path.name} imports {sorted(inner)} inside a function"
    assert {"frames", "sums", "stream", "summary"} <= set(graph)
    # A depth-first walk finds any cycle; each module's downward closure must not contain itself.
    for start in graph:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            m = todo.pop()
            assert m != start, f"report/{start}.py is imported back by what it imports"
            if m not in seen:
                seen.add(m)
                todo.extend(graph.get(m, ()))
    # The layers: the tables (frames) know no statistics stage, the streaming sums no presentation.
    assert not graph["frames"] & {"stream", "summary", "html", "compare"}
    assert "summary" not in graph["stream"] and "summary" not in graph["sums"]


def _reads_a_manifest_by_key(node: ast.AST) -> bool:
    """``manifest["x"]``, ``run.manifest.get("x")`` or ``"x" in manifest``: a manifest read as a dict."""

    def manifest(n: ast.AST) -> bool:
        return (isinstance(n, ast.Name) and n.id == "manifest") or (
            isinstance(n, ast.Attribute) and n.attr == "manifest"
        )

    if isinstance(node, ast.Subscript):
        return manifest(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "get" and manifest(node.func.value)
    return isinstance(node, ast.Compare) and any(manifest(c) for c in node.comparators)


def test_no_module_reads_the_manifest_by_key() -> None:
    """A run's manifest travels as the typed record ``simharness.manifest.Manifest`` (#27): the
    report's stages, the runner and ``show`` read its attributes, never its JSON keys, so that a
    field is checked once, by the loader, and a renamed one fails the type check, not a report."""
    package = REPORT.parent
    found = [
        f"{path.relative_to(package)}:{node.lineno}"
        for path in sorted(package.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if _reads_a_manifest_by_key(node)
    ]
    assert not found, f"a manifest read by key (read Manifest's attributes instead): {found}"
