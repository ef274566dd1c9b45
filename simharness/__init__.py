"""simharness: reproducible Monte Carlo tournaments of mahjong-family games.

The rules and game loops run in Rust (:mod:`simharness._engine`); this package loads experiment
configs, runs batches in parallel, writes Parquet logs and turns them into statistics.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("simharness")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
