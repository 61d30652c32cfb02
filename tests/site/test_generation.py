"""Generation is real: edit the book's inputs in a copy, build it, and the chapter follows."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import copy_project, mkdocs_build
from tests.site_html import article, formulas_tex, page_html, visible_text

WRONG = "7 × 8 = 7 × 7 + 7 = 49 + 5. \\\\boxed{54}"
RIGHT = "8 × 7 = 8 × 5 + 8 × 2 = 40 + 16. \\\\boxed{56}"


def with_easy_group_edited(tmp_path: Path, old: str, new: str) -> Path:
    project = copy_project(tmp_path / "book")
    examples = project / "grpo_examples" / "data" / "groups.toml"
    source = examples.read_text(encoding="utf-8")
    assert old in source
    examples.write_text(source.replace(old, new, 1), encoding="utf-8")
    return project


@pytest.mark.slow
def test_a_different_easy_group_changes_the_chapter(tmp_path: Path) -> None:
    # One more wrong answer: rewards [1, 1, 1, 0, 0]. By hand: mu = 3/5 = 0.6, sigma^2 = 0.6 x 0.4 = 0.24,
    # sigma = sqrt(0.24) = 0.48990, A_correct = 0.4 / 0.48990 = +0.81650, A_wrong = -0.6 / 0.48990 = -1.22474.
    project = with_easy_group_edited(tmp_path, RIGHT, WRONG)
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    chapter = article(page_html(tmp_path / "site", "grpo"))
    tex = formulas_tex(chapter)
    assert r"\mu = \frac{1+1+1+0+0}{5} = \frac{3}{5} = 0.6" in tex
    assert r"\sigma^2 = p(1-p) = 0.6 \times 0.4 = 0.24" in tex
    assert r"\sigma = \sqrt{0.24} \approx 0.4899" in tex
    assert any(r"\approx \frac{-0.6}{0.4899} \approx -1.2247" in t for t in tex)
    text = visible_text(chapter)
    assert "On the easy problem three of five responses are correct" in text
    assert "its advantage is ≈ -1.2247" in text
    assert "modest ≈ +0.8165 each" in text
    assert "1.5 times a correct response's, only because being wrong was rare in this group (two of five)" in text
    assert (
        "four of five" not in text and "-2.0" not in text.split("Same formula, two groups")[1].split("In practice")[0]
    )


@pytest.mark.slow
def test_a_claim_the_new_group_breaks_stops_the_build(tmp_path: Path) -> None:
    # Three wrong of five: "being wrong is rare" is no longer true, and the chapter says so.
    project = with_easy_group_edited(tmp_path, RIGHT, WRONG)
    examples = project / "grpo_examples" / "data" / "groups.toml"
    examples.write_text(
        examples.read_text(encoding="utf-8").replace("7 × 8 = 56. \\\\boxed{56}", "7 × 8 = 54. \\\\boxed{54}", 1),
        encoding="utf-8",
    )
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0
    chapter = (project / "docs" / "grpo.md").read_text(encoding="utf-8").splitlines()
    claim = "<!-- grpo:check easy.claims.wrong-is-rare -->"
    lines = [i for i, text in enumerate(chapter, 1) if claim in text]
    assert len(lines) >= 2  # the chapter makes the claim twice, and the build names every place at once
    for line in lines:
        [error] = [e for e in result.stderr.splitlines() if f"docs/grpo.md:{line}: " in e]
        assert "the prose claims easy.claims.wrong-is-rare" in error
        # The claim in the model's own words (its docstring), and where to change the data.
        assert "Some responses are wrong, but fewer than are right" in error
        assert "grpo_examples/data/groups.toml [easy]" in error
    assert "Traceback" not in result.stderr
