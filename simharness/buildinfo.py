"""The git commit simharness was built from: asked of git in a checkout, recorded at build time otherwise.

Standard library only: the build backend (``build_backend/simharness_build.py``) loads this file by
path to write the record before maturin packs the wheel, when the package itself is not importable.
"""

from __future__ import annotations

import functools
import json
import subprocess
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
RECORD = PACKAGE / "_build.json"  # written by the build backend, ignored by git


def _git(repo: Path, *args: str) -> str:
    # --no-optional-locks: `git status` killed by the timeout must not leave the user an index.lock.
    return subprocess.run(
        ["git", "--no-optional-locks", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        timeout=10,
        check=True,
    ).stdout.strip()


def checkout_commit(repo: Path) -> str | None:
    """HEAD of the checkout whose top level is ``repo`` (``+dirty`` with uncommitted changes), else None.

    Only ``repo``'s own repository counts: an installed package inside someone else's checkout (a venv
    in a project folder) must not report that project's commit.
    """
    try:
        if Path(_git(repo, "rev-parse", "--show-toplevel")).resolve() != repo.resolve():
            return None
        head = _git(repo, "rev-parse", "HEAD")
        dirty = _git(repo, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "")


def write_record(repo: Path) -> None:
    """Records the checkout's commit for a build; keeps an existing record without git (an sdist)."""
    commit = checkout_commit(repo)
    if commit is not None or not RECORD.exists():
        RECORD.write_text(json.dumps({"git_commit": commit}) + "\n")


# Once per process: the code that runs is what was imported, and asking git costs three processes
# (about 20 ms), which a library caller running many small experiments would pay on each.
@functools.cache
def git_commit() -> str | None:
    """The commit of this simharness: live from git in a source checkout, else the build's record."""
    live = checkout_commit(PACKAGE.parent)
    if live is not None:
        return live
    try:
        return json.loads(RECORD.read_text()).get("git_commit")
    except (OSError, ValueError):
        return None
