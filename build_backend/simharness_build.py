"""PEP 517 backend: maturin's, after recording the git commit of the build in the package.

An installed wheel has no git checkout to ask, so the commit that provenance names is written to
``simharness/_build.json`` (see ``simharness/buildinfo.py``) before maturin packs the files.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import maturin
from maturin import (  # noqa: F401  (hooks passed through unchanged)
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_wheel,
)

_ROOT = Path(__file__).resolve().parent.parent


def _record() -> None:
    spec = importlib.util.spec_from_file_location(
        "_simharness_buildinfo", _ROOT / "simharness" / "buildinfo.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.write_record(_ROOT)


def build_wheel(wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None) -> str:
    _record()
    return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None) -> str:
    _record()
    return maturin.build_editable(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory: str, config_settings: Any = None) -> str:
    _record()
    return maturin.build_sdist(sdist_directory, config_settings)
