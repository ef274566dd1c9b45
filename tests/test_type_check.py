"""The type check of `make lint` (mypy, `[tool.mypy]` in pyproject.toml) catches a wrong call into the
engine: with the engine's stubs (`simharness/_engine.pyi`) a call with an argument of the wrong type,
a missing argument or a function the engine lacks is an error, and a right call is not.

The stubs are checked alone (in a package of their own under a temporary folder, with the project's
mypy settings), so the test takes seconds rather than the minute of checking the whole package;
`tests/test_engine_stubs.py` holds the stubs to the engine's real signatures."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mypy") is None, reason="mypy is not installed (the `test` extra has it)"
)

RIGHT = """\
from simharness import _engine


def play() -> int:
    rows, _columns = _engine.play_batch("sugoroku", "{}", "[]", 5, 0, 10)["players"]
    return rows
"""
WRONG = {
    "seed_as_text": (
        RIGHT.replace("5, 0, 10", '"5", 0, 10'),
        'Argument 4 to "play_batch" has incompatible type "str"; expected "int"',
    ),
    "missing_argument": (RIGHT.replace("5, 0, 10", "5, 0"), 'Missing positional argument "count"'),
    "unknown_function": (
        RIGHT.replace("play_batch(", "play_batches("),
        'Module has no attribute "play_batches"',
    ),
    # the result is a dict of tables: unpacking it gives its keys, names, not row counts
    "result_misread": (
        RIGHT.replace('["players"]', ""),
        'Incompatible return value type (got "str", expected "int")',
    ),
}


def test_the_type_check_catches_a_wrong_call_into_the_engine(tmp_path: Path) -> None:
    package = tmp_path / "stubs" / "simharness"
    package.mkdir(parents=True)
    (package / "__init__.pyi").write_text("")
    shutil.copy(REPO / "simharness" / "_engine.pyi", package / "_engine.pyi")
    sources = {"right": RIGHT, **{name: source for name, (source, _) in WRONG.items()}}
    for name, source in sources.items():
        (tmp_path / f"{name}.py").write_text(source)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "cache"), *(f"{name}.py" for name in sources)],
        cwd=tmp_path, env={**os.environ, "MYPYPATH": str(tmp_path / "stubs")},
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 1, result.stdout + result.stderr
    errors = {
        name: [e for e in result.stdout.splitlines() if e.startswith(f"{name}.py:")] for name in sources
    }
    assert errors["right"] == [], result.stdout
    for name, (_, message) in WRONG.items():
        assert len(errors[name]) == 1 and message in errors[name][0], result.stdout
