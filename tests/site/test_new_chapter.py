"""Adding a chapter with its own data takes five files, and adding a number to it two: done here, on a copy.

The chapter is the one the author's guide walks through: tests/site/new_chapter/ holds its data file, its model,
its page and its test, which docs/guide/index.md includes whole. They are put in a copy of the book with the nav
line, and the copy builds, shows the numbers, and its provenance runs.
"""

from __future__ import annotations

import html
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, copy_project, mkdocs_build
from tests.site_html import computed_values

FIXTURE = Path(__file__).resolve().parent / "new_chapter"
# Where each of the chapter's files goes in the book: the five files of docs/guide/index.md, "Add a chapter".
PLACES = {
    "sampling.toml": "grpo_examples/data/sampling.toml",
    "sampling.py": "grpo_examples/chapters/sampling.py",
    "sampling.md": "docs/sampling.md",
    "test_sampling.py": "tests/math/test_sampling.py",
}
NAV_AFTER = "      - A training run you can watch: training-run.md\n"
NAV_LINE = "      - Sampling and pass@k: sampling.md\n"


def add_chapter(project: Path) -> list[str]:
    """The guide's steps on the copy: the four files, and the nav line in mkdocs.yml. The files touched."""
    for name, place in PLACES.items():
        (project / place).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(FIXTURE / name, project / place)
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert NAV_AFTER in text, "the nav line the guide adds after is gone from mkdocs.yml"
    config.write_text(text.replace(NAV_AFTER, NAV_AFTER + NAV_LINE), encoding="utf-8")
    return [*PLACES.values(), "mkdocs.yml"]


def values(page: Path) -> list[tuple[str, str]]:
    """(expression, shown text) of every computed value of a built page."""
    return [(html.unescape(e), html.unescape(s)) for e, s in computed_values(page.read_text(encoding="utf-8"))]


def evaluate(project: Path, expression: str) -> str:
    """repr() of the expression, evaluated by a Python in the copy, as a reader would paste it there."""
    code = f"import grpo_examples\nprint(repr({expression}))"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=project, capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the book with the chapter added as the guide says."""
    book = copy_project(tmp_path / "book")
    touched = add_chapter(book)
    assert len(touched) == 5
    return book


def test_a_chapter_with_its_own_data_is_five_files_and_builds(project: Path, tmp_path: Path) -> None:
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    shown = values(tmp_path / "site" / "sampling" / "index.html")
    # pass@4 of 16 with 3 correct: 1 - C(13, 4)/C(16, 4) = 1 - 715/1820 = 0.60714..., shown rounded
    assert ("grpo_examples.chapter('sampling').pass_at_k", "≈\u00a00.6071") in shown
    assert ("grpo_examples.chapter('sampling').c", "three") in shown
    assert float(evaluate(project, "grpo_examples.chapter('sampling').pass_at_k")) == pytest.approx(1105 / 1820)
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/math/test_sampling.py"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr


# Adding a number: a field in the model, with its equation in a docstring and its computation, and a placeholder.
DOCSTRING = '    of k responses drawn is correct."""\n'
FIELD = '    expected_correct: float\n    """k c / n: how many of the k drawn are correct, on average."""\n'
RETURN = "    return Sampling(n, c, k, 1 - math.comb(n - c, k) / math.comb(n, k))\n"
COMPUTED = "    return Sampling(n, c, k, 1 - math.comb(n - c, k) / math.comb(n, k), k * c / n)\n"
SENTENCE = "On average <!-- grpo:value sampling.expected-correct --> of them are correct.\n"


def test_the_guide_shows_these_edits() -> None:
    guide = (ROOT / "docs" / "guide" / "index.md").read_text(encoding="utf-8")
    for edit in (FIELD, COMPUTED):
        assert edit in guide, f"docs/guide/index.md no longer shows this edit:\n{edit}"
    for name in PLACES:
        assert f'--8<-- "tests/site/new_chapter/{name}"' in guide, f"docs/guide/index.md no longer quotes {name}"


def test_a_number_is_two_files(project: Path, tmp_path: Path) -> None:
    model = project / PLACES["sampling.py"]
    text = model.read_text(encoding="utf-8")
    assert DOCSTRING in text and RETURN in text, "the guide's edit no longer fits the chapter's model"
    model.write_text(text.replace(DOCSTRING, DOCSTRING + FIELD).replace(RETURN, COMPUTED), encoding="utf-8")
    page = project / PLACES["sampling.md"]
    page.write_text(page.read_text(encoding="utf-8") + SENTENCE, encoding="utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    shown = values(tmp_path / "site" / "sampling" / "index.html")
    assert ("grpo_examples.chapter('sampling').expected_correct", "0.75") in shown  # 4 × 3 / 16
