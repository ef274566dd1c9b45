"""Every file the docs, the code and `simharness games` cite is in the repository (and in the
package where an installed simharness points at it): the rule specifications above all, which the
engine, its tests and the docs cite by section (§) and ambiguity number (A1)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simharness import engine, strategies
from simharness.cli import app

REPO = Path(__file__).resolve().parent.parent
# The docs that cite files: every doc but the copied specifications and background notes, whose
# `../seeds/...` paths name their sources outside the repository (their headers say so).
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), REPO / "docs" / "rules" / "README.md"]
# A doc names a file of the Python package or the engine crate from inside it ("report/sweep.py",
# "games/mod.rs"), or relative to itself (docs/hongkong.md: "rules/hongkong.md").
ROOTS = [REPO, REPO / "simharness", REPO / "engine" / "src"]
PATH = re.compile(r"^(?:\.\./|\./)?[A-Za-z0-9_][A-Za-z0-9_.+-]*(?:/[A-Za-z0-9_.+-]+)*/?$")
FILE = re.compile(r"\.(md|py|rs|toml|txt|json|jsonl|pyi|mjlog)$")
# What a command writes (`results/<name>/`) is not in the repository until it runs.
WRITTEN = ("results/",)
GAMES = ["sugoroku", "suzume", "riichi", "hongkong", "trump"]


def cited(text: str) -> set[str]:
    """Paths in code spans and link targets: a slash, and a file's extension or a folder's slash."""
    spans = set(re.findall(r"`([^`\n]+)`", text)) | set(re.findall(r"\]\(([^)\s#]+)", text))
    return {
        c for c in spans
        if "/" in c and "://" not in c and PATH.match(c) and (FILE.search(c) or c.endswith("/"))
        and not c.startswith(WRITTEN)
    }  # fmt: skip


def missing(doc: Path, repo: Path = REPO) -> list[str]:
    """The paths ``doc`` cites that are not files or folders inside ``repo``."""
    roots = [*(repo / r.relative_to(REPO) for r in ROOTS), doc.parent]

    def inside(path: Path) -> bool:
        return path.exists() and path.resolve().is_relative_to(repo.resolve())

    return sorted(c for c in cited(doc.read_text()) if not any(inside(r / c) for r in roots))


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_path_a_doc_cites_is_in_the_repository(doc: Path) -> None:
    assert missing(doc) == []


def test_the_check_finds_a_path_outside_the_repository(tmp_path: Path) -> None:
    (tmp_path / "shared" / "design").mkdir(parents=True)
    (tmp_path / "shared" / "design" / "x.md").write_text("outside the repository")
    (tmp_path / "repo" / "simharness" / "report").mkdir(parents=True)
    (tmp_path / "repo" / "simharness" / "report" / "sweep.py").write_text("")
    doc = tmp_path / "repo" / "doc.md"
    doc.write_text("Rules: `rules/hongkong.md` (in the shared rules folder); background "
                   "`../shared/design/x.md`; code `report/sweep.py`; output `results/demo/`.")  # fmt: skip
    assert missing(doc, tmp_path / "repo") == ["../shared/design/x.md", "rules/hongkong.md"]


def test_each_game_cites_its_rule_specification_in_the_repository() -> None:
    specs = {g.name: g.spec for g in engine.games()}
    assert {g: specs[g] for g in GAMES} == {g: f"docs/rules/{g}.md" for g in GAMES}
    for spec in specs.values():  # the test-only toy game, where registered, cites its source
        assert (REPO / spec).is_file(), spec
    for game in GAMES:
        text = (REPO / "docs" / "rules" / f"{game}.md").read_text()
        # The origin and licence lead, then the specification with its sections.
        assert text.startswith("> **Origin.**") and "> **Licence.**" in text.split("\n---\n")[0]
        assert re.search(r"^## 1\. ", text, re.M)


def test_code_cites_rule_files_that_exist() -> None:
    """Docstrings and comments of the package and the engine name a rule file only as it is here."""
    pattern = re.compile(r"[\w./-]*rules/\w+\.md")
    sources = [*(REPO / "simharness").rglob("*.py"), *(REPO / "engine" / "src").rglob("*.rs")]
    bad = {
        f"{p.relative_to(REPO)}: {m}"
        for p in sources
        for m in pattern.findall(p.read_text(encoding="utf-8"))
        if not (REPO / m).is_file()
    }
    assert not bad


def _games(width: int) -> tuple[dict[str, str], list[str]]:
    """`simharness games`: each game's rules cell, and the lines after the table."""
    lines = CliRunner().invoke(app, ["games"], terminal_width=width).output.splitlines()
    rows = {x.split("│")[1].strip(): x.split("│")[-2].strip() for x in lines if x.startswith("│")}
    return rows, lines[lines.index(next(x for x in lines if x.startswith("└"))) + 1 :]


def test_simharness_games_names_a_rule_file_that_exists_from_here_and_from_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    rows, after = _games(80)
    assert {g: rows[g] for g in GAMES} == {g: f"docs/rules/{g}.md" for g in GAMES} and after == []
    # From elsewhere: the file's name, and the whole path of its folder (the package's copy; in a
    # checkout the folder it links to), folded to the terminal rather than cut.
    monkeypatch.chdir(tmp_path)
    folder = (strategies.BUILTIN / "rules").resolve()
    rows, after = _games(40)
    assert {g: rows[g] for g in GAMES} == {g: f"{g}.md" for g in GAMES}
    assert "".join(after) == f"rules files in {folder}/"
    assert all((folder / rows[g]).is_file() for g in GAMES)


def test_the_package_carries_the_rule_specifications() -> None:
    shipped = sorted(p.name for p in (strategies.BUILTIN / "rules").glob("*.md"))
    assert shipped == sorted(p.name for p in (REPO / "docs" / "rules").glob("*.md"))
    pyproject = (REPO / "pyproject.toml").read_text()
    assert '{ path = "simharness/builtin/rules/*.md", format = ["sdist", "wheel"] }' in pyproject
