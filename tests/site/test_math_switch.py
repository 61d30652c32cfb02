"""GRPO_BOOK_MATH=off builds the book with its math left as TeX (for benchmarks/), and never by accident."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hooks.site.math_switch import ENVIRONMENT_VARIABLE, MathSwitchError, math_rendered
from tests.conftest import copy_project, mkdocs_build


def test_math_is_rendered_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)
    assert math_rendered(strict=True) and math_rendered(strict=False)
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "on")
    assert math_rendered(strict=True)


def test_off_only_in_a_build_that_is_not_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "off")
    assert not math_rendered(strict=False)
    with pytest.raises(MathSwitchError, match="must render the math"):
        math_rendered(strict=True)


@pytest.mark.parametrize("value", ["0", "false", "of", ""])
def test_unknown_value_is_an_error(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, value)
    with pytest.raises(MathSwitchError, match="use `on`"):
        math_rendered(strict=False)


@pytest.mark.slow
def test_math_off_build_leaves_the_tex_and_strict_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = copy_project(tmp_path / "book")
    page = "# Scratch\n\nInline $`\\frac{a}{b} < c`$ and display:\n\n```math\n\\sum_i r_i\n```\n"
    (project / "docs" / "scratch.md").write_text(page, encoding="utf-8")
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "off")

    strict = mkdocs_build(project, tmp_path / "strict")
    assert strict.returncode != 0 and "GRPO_BOOK_MATH=off" in strict.stderr and "must render the math" in strict.stderr

    command = mkdocs_build(project, tmp_path / "site", strict=False)
    assert command.returncode == 0, command.stderr
    assert "the math is left as TeX" in command.stderr
    html = (tmp_path / "site" / "scratch" / "index.html").read_text(encoding="utf-8")
    assert '<code class="book-math-off">\\frac{a}{b} &lt; c</code>' in html
    assert '<pre><code class="book-math-off">\\sum_i r_i</code></pre>' in html
    assert 'class="katex' not in html and "katex-swap" not in html
    assert not (tmp_path / "site" / "assets" / "katex").exists()


@pytest.mark.slow
def test_default_build_renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)
    project = copy_project(tmp_path / "book")
    (project / "docs" / "scratch.md").write_text("# Scratch\n\n$`\\frac{a}{b}`$\n", encoding="utf-8")
    result = mkdocs_build(project, tmp_path / "site", strict=False)  # scratch.md is not in the nav
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "scratch" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<span class="katex">.*<mfrac>', html) and "book-math-off" not in html
