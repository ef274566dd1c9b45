"""simharness: reproducible Monte Carlo tournaments of mahjong-family games.

The rules and game loops run in Rust (:mod:`simharness._engine`); this package loads experiment
configs, runs batches in parallel, writes Parquet logs and turns them into statistics.

The Python API (``docs/python-api.md``)::

    import simharness as sh
    run = sh.run("configs/sugoroku-demo.toml", games=2000)
    run.players.collect()          # polars
    run.report().differences

Its names load on first use, so that the command line starts without polars and scipy.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

try:
    __version__ = version("simharness")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0+unknown"

if TYPE_CHECKING:
    from simharness.api import Report, Run, experiment, open, run, score, shanten, to_toml
    from simharness.config import Experiment
    from simharness.errors import ConfigError, RunDirError

_API = {"Report", "Run", "experiment", "open", "run", "score", "shanten", "to_toml"}
_ELSEWHERE = {
    "Experiment": "simharness.config",
    "ConfigError": "simharness.errors",
    "RunDirError": "simharness.errors",
}

__all__ = [
    "ConfigError",
    "Experiment",
    "Report",
    "Run",
    "RunDirError",
    "__version__",
    "experiment",
    "open",
    "run",
    "score",
    "shanten",
    "to_toml",
]


def __getattr__(name: str) -> Any:
    import importlib

    if name in _API:
        return getattr(importlib.import_module("simharness.api"), name)
    if name in _ELSEWHERE:
        return getattr(importlib.import_module(_ELSEWHERE[name]), name)
    raise AttributeError(f"module 'simharness' has no attribute {name!r}")
