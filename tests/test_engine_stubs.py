"""`simharness/_engine.pyi` describes the engine module as it is: every function of the module is in the
stubs with the same parameters and defaults, and the stubs name nothing the module lacks, so a type
checker and an editor see the real engine."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from simharness import _engine

STUBS = Path(__file__).resolve().parent.parent / "simharness" / "_engine.pyi"


def _stubbed() -> dict[str, list[tuple[str, str | None]]]:
    """Each stubbed function's parameters and their defaults (as source text)."""
    out = {}
    for node in ast.parse(STUBS.read_text()).body:
        if isinstance(node, ast.FunctionDef):
            args = node.args.args
            defaults = [None] * (len(args) - len(node.args.defaults)) + [
                ast.unparse(d) for d in node.args.defaults
            ]
            out[node.name] = [(a.arg, d) for a, d in zip(args, defaults, strict=True)]
    return out


def _real() -> dict[str, list[tuple[str, str | None]]]:
    out = {}
    for name, fn in vars(_engine).items():
        if name.startswith("_") or not callable(fn):
            continue
        params = inspect.signature(fn).parameters.values()
        out[name] = [(p.name, None if p.default is p.empty else repr(p.default)) for p in params]
    return out


def test_the_stubs_match_the_engine_module() -> None:
    stubbed, real = _stubbed(), _real()
    assert sorted(stubbed) == sorted(real)
    for name, params in real.items():
        # repr of a string default is single-quoted; the stubs' source may use either quote.
        norm = [(p, None if d is None else d.replace("'", '"')) for p, d in params]
        assert [(p, None if d is None else d.replace("'", '"')) for p, d in stubbed[name]] == norm, name
