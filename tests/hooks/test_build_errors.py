"""A bad edit stops the real `mkdocs build` with the page, the line and the offending text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hooks.katex_cache import CACHE_FILE
from tests.conftest import copy_project, mkdocs_build


def build_with_page(tmp_path: Path, text: str) -> str:
    project = copy_project(tmp_path / "book")
    (project / "docs" / "scratch.md").write_text(text, encoding="utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0, "the build should have failed"
    assert "Traceback" not in result.stderr
    assert "Aborted with a BuildError" in result.stdout
    return result.stderr


@pytest.mark.slow
def test_unknown_example(tmp_path: Path) -> None:
    stderr = build_with_page(tmp_path, "# Scratch\n\nThe mean is <!-- grpo:value eazy.mean -->.\n")
    assert "docs/scratch.md:3: unknown example 'eazy'; did you mean 'easy'?" in stderr
    assert "<!-- grpo:value eazy.mean -->" in stderr


@pytest.mark.slow
def test_malformed_formula_names_page_line_and_formula(tmp_path: Path) -> None:
    stderr = build_with_page(tmp_path, "# Scratch\n\nText.\n\n```math\n\\frac{1}{\n```\n")
    assert "docs/scratch.md:5: KaTeX cannot render this formula" in stderr
    assert "\\frac{1}{" in stderr


@pytest.mark.slow
def test_malformed_inline_formula(tmp_path: Path) -> None:
    stderr = build_with_page(tmp_path, "# Scratch\n\nA broken $`\\sqrt{2`$ formula.\n")
    assert "docs/scratch.md:3: KaTeX cannot render this formula" in stderr


@pytest.mark.slow
def test_unclosed_placeholder(tmp_path: Path) -> None:
    stderr = build_with_page(tmp_path, "# Scratch\n\n\nThe mean is <!-- grpo:value easy.mean\n")
    assert "docs/scratch.md:4: unclosed placeholder" in stderr


@pytest.mark.slow
def test_line_numbers_count_the_front_matter(tmp_path: Path) -> None:
    page = "---\ntitle: Scratch\ndescription: A page with front matter.\n---\n\n# Scratch\n\n$`\\frac{1}{`$\n"
    stderr = build_with_page(tmp_path, page)
    assert "docs/scratch.md:8: KaTeX cannot render this formula" in stderr


@pytest.mark.slow
def test_malformed_formula_fails_with_a_warm_formula_cache(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "book")
    first = mkdocs_build(project, tmp_path / "first")
    assert first.returncode == 0, first.stderr
    cache = project / ".cache" / CACHE_FILE
    assert len(json.loads(cache.read_text(encoding="utf-8"))["formulas"]) > 20, "the book's formulas are cached"

    chapter = project / "docs" / "grpo.md"
    lines = chapter.read_text(encoding="utf-8").split("\n")
    lines.insert(len(lines) - 1, "A broken $`\\frac{1}{`$ formula.")
    chapter.write_text("\n".join(lines), encoding="utf-8")
    second = mkdocs_build(project, tmp_path / "second")
    assert second.returncode != 0
    assert f"docs/grpo.md:{len(lines) - 1}: KaTeX cannot render this formula" in second.stderr
