"""A bad edit stops the real `mkdocs build` with the page, the line and the offending text.

The same slips, and more, go through the page hook alone in tests/hooks/test_build_errors.py; here a copy of
the book with the bad page is built as an author builds it, and MkDocs must stop and print the hook's message.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hooks.site.katex_cache import CACHE_FILE
from tests.conftest import add_pages, copy_project, mkdocs_build


def build_with_page(tmp_path: Path, text: str) -> str:
    """Build a copy of the book with docs/scratch.md holding text; the build must fail. Its stderr."""
    project = copy_project(tmp_path / "book")
    add_pages(project, {"scratch.md": text})  # outside the nav on purpose: only the page's text can stop the build
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0, "the build should have failed"
    assert "Traceback" not in result.stderr
    assert "Aborted with a BuildError" in result.stdout
    return result.stderr


@pytest.mark.slow
def test_unknown_group(tmp_path: Path) -> None:
    stderr = build_with_page(tmp_path, "# Scratch\n\nThe mean is <!-- grpo:value eazy.mean -->.\n")
    located = [line for line in stderr.splitlines() if "docs/scratch.md:" in line]
    assert len(located) == 1, stderr  # one problem on the page, reported once
    line = located[0]
    assert "docs/scratch.md:3: unknown name 'eazy': a path starts with one of easy, hard," in line
    assert line.endswith("; did you mean 'easy'?")
    assert "\n    <!-- grpo:value eazy.mean -->\n" in stderr  # the offending text, under the message


@pytest.mark.slow
def test_malformed_formula_names_page_line_and_formula(tmp_path: Path) -> None:
    stderr = build_with_page(tmp_path, "# Scratch\n\nText.\n\n```math\n\\frac{1}{\n```\n")
    assert "docs/scratch.md:5: KaTeX cannot render this formula" in stderr  # the line the block opens on
    assert "\n    \\frac{1}{\n" in stderr


@pytest.mark.slow
def test_malformed_formula_fails_with_a_warm_formula_cache(tmp_path: Path) -> None:
    # The renderer keeps on disk what KaTeX rendered (hooks/site/katex_cache.py): a second build takes the
    # book's formulas from there, and must still send a new, broken one to KaTeX and fail.
    project = copy_project(tmp_path / "book")
    first = mkdocs_build(project, tmp_path / "first")
    assert first.returncode == 0, first.stderr
    cache = project / ".cache" / CACHE_FILE
    assert len(json.loads(cache.read_text(encoding="utf-8"))["formulas"]) > 20, "the book's formulas are cached"

    chapter = project / "docs" / "grpo.md"
    text = chapter.read_text(encoding="utf-8").rstrip("\n") + "\n\nA broken $`\\frac{1}{`$ formula.\n"
    chapter.write_text(text, encoding="utf-8")
    line = text.count("\n")  # the appended line, the file's last
    second = mkdocs_build(project, tmp_path / "second")
    assert second.returncode != 0
    assert f"docs/grpo.md:{line}: KaTeX cannot render this formula" in second.stderr
    assert "Traceback" not in second.stderr
