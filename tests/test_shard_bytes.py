"""The Parquet bytes of a run are pinned: every game's reference config, played by the runner with one
worker, writes shards whose bytes hash to recorded values. The pipeline's speed work (how columns
reach Arrow, sub-batches, writing, fsync) must leave every byte as it was. The writer's own
provenance (version, commit) is pinned, since a shard records it; the libraries that encode the
bytes (pyarrow, polars) are recorded with the digests, and another version of either skips the test
(its bytes may legitimately differ). A deliberate change of the bytes (a new column, another
encoding) records the new digests in the same commit and says why:
``PYTHONPATH=. python tests/test_shard_bytes.py`` prints them."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import polars as pl
import pyarrow
import pytest
from harness_helpers import in_repo  # noqa: F401  (a fixture: strategies resolve from the repository)
from rich.console import Console

from simharness import buildinfo, config, runner

pytestmark = pytest.mark.usefixtures("in_repo")

REPO = Path(__file__).resolve().parent.parent

# The libraries that wrote the recorded bytes.
WRITERS = {"pyarrow": "26.0.1", "polars": "2.1.0"}

# (config, games per variant, an explicit shard_size or None for the default) → sha256 over every
# shard's path and bytes. Each game's reference config at a few shards; the sugoroku demo also with
# shards larger than a sub-batch (runner.SUB_BATCHES), so that a shard is played in several calls.
CASES: dict[tuple[str, int, int | None], str] = {
    ("sugoroku-demo", 12_500, None): "b7bc1803bf06fbdc51a5da2778c4fe58c83ee5aab850ae3c42064b6e8dae848a",
    ("sugoroku-demo", 2_500, 2_500): "d86bdfeb4a5f4867babb48a1ff7752d91aa102edcf329ccf61c0bc5b6a7f68b9",
    ("trump-reference", 2_400, None): "97959ebaa07bde08a657d220b24a878308ab8cfe750a025b619a8bd2c1e10256",
    ("hongkong-reference", 120, None): "ff9e54d77cf7b95e43714783ec19efa9d49b782ecf10a405bedd8c9500021b44",
    ("suzume-4p", 400, None): "b4b39493b62bc35150ceaaef4a3e8cb3452fc98051f9c397a98cc5702fc67a3b",
    ("riichi-efficiency", 80, None): "115a79eb81a5abc7789f53648b50c4393a9bf1fda20a9e4e38be5722a4d0e1f2",
}


def run_digest(name: str, games: int, shard_size: int | None, out: Path) -> str:
    """Plays the case into ``out`` (one worker) and hashes its shards' paths and bytes."""
    path = REPO / "configs" / f"{name}.toml"
    text = path.read_text()
    if shard_size is not None:
        text = f"shard_size = {shard_size}\n{text}"
    exp = config.load(path, games=games, text=text)
    run_dir = runner.run(exp, out, jobs=1, backend="threading", console=Console(quiet=True))
    h = hashlib.sha256()
    for p in sorted(run_dir.rglob("*.parquet")):
        h.update(str(p.relative_to(run_dir)).encode())
        h.update(hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


def _pin_provenance(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(buildinfo, "git_commit", lambda: "pinned")
    monkeypatch.setattr(runner, "__version__", "pinned")


@pytest.mark.parametrize("case", list(CASES), ids=lambda c: f"{c[0]}-{c[1]}-{c[2] or 'default'}")
def test_reference_shards_keep_their_bytes(
    case: tuple[str, int, int | None], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = {"pyarrow": pyarrow.__version__, "polars": pl.__version__}
    if found != WRITERS:
        pytest.skip(f"the digests were recorded with {WRITERS}; this is {found}")
    _pin_provenance(monkeypatch)
    assert run_digest(*case, tmp_path) == CASES[case]


def main() -> None:
    """Prints the digests of this checkout, to record a deliberate change."""
    import tempfile

    mp = pytest.MonkeyPatch()
    _pin_provenance(mp)
    print(f"WRITERS = {{'pyarrow': {pyarrow.__version__!r}, 'polars': {pl.__version__!r}}}")
    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            print(f"    {case!r}: {run_digest(*case, Path(tmp))!r},", flush=True)
    mp.undo()


if __name__ == "__main__":
    sys.exit(main())
