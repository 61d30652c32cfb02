"""The slips an author makes, each through a real `mkdocs build --strict` of an edited copy and through
`scripts/check_chapters.py`: each fails, names the file and line, and says what to write instead."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, copy_project, mkdocs_build

CHECK = [sys.executable, str(ROOT / "scripts" / "check_chapters.py")]

# (the line appended to the chapter, what the message must say)
SLIPS = {
    "misspelt example": (
        "Its mean is <!-- grpo:value esay.mean -->.",
        ["unknown example 'esay'", "did you mean 'easy'?", "grpo_examples/examples.toml"],
    ),
    "misspelt quantity": ("Its mean is <!-- grpo:value easy.meen -->.", ["did you mean 'mean'?"]),
    "misspelt kind": ("Its mean is <!-- grpo:valeu easy.mean -->.", ["did you mean 'value'?"]),
    "wrong option": ("Its mean is <!-- grpo:value easy.mean as=percent -->.", ["write as=words, or nothing"]),
    "wrong argument": (
        "<!-- grpo:formula easy.mean inline -->",
        ["grpo:formula takes 1 name(s), got 2: 'easy.mean inline'", "<!-- grpo:formula easy.mean display -->"],
    ),
    "unclosed placeholder": ("Its mean is <!-- grpo:value easy.mean.", ["unclosed placeholder", "'-->'"]),
    "TeX that KaTeX rejects": (
        "The mean: $`\\mu = \\fracc{4}{5}`$.",
        ["KaTeX cannot render this formula", "\\fracc", "fix the TeX", "katex.org/docs/supported"],
    ),
    "typed number": (
        "Its mean is 0.8 for the group.",
        ["typed number 0.8 (decimal)", "write <!-- grpo:value easy.mean -->", "literal: why"],
    ),
}


def _append(project: Path, line: str) -> int:
    """Append a line to the chapter (whose front matter MkDocs strips); return its line in the file."""
    chapter = project / "docs" / "grpo.md"
    text = chapter.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + line + "\n"
    chapter.write_text(text, encoding="utf-8")
    return text.count("\n")


@pytest.mark.parametrize("slip", SLIPS)
def test_the_build_stops_at_the_slip_and_says_what_to_do(slip: str, tmp_path: Path) -> None:
    line, expected = SLIPS[slip]
    project = copy_project(tmp_path / "book")
    number = _append(project, line)
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0
    assert f"docs/grpo.md:{number}:" in result.stderr
    for words in expected:
        assert words in result.stderr
    assert "Traceback" not in result.stderr


def test_the_check_reports_each_slip_as_file_line_message(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "book")
    lines = {slip: _append(project, line) for slip, (line, _) in SLIPS.items() if slip == "typed number"}
    (project / "docs" / "second.md").write_text("# Second\n\nSee <!-- grpo:value esay.mean -->.\n", encoding="utf-8")
    result = subprocess.run([*CHECK, "--project", str(project)], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert f"docs/grpo.md:{lines['typed number']}:13: typed number 0.8" in result.stdout
    assert "docs/second.md:3: unknown example 'esay'; did you mean 'easy'?" in result.stdout
    assert "2 with problems" in result.stdout


def test_the_check_passes_on_the_book_as_it_stands() -> None:
    result = subprocess.run(CHECK, capture_output=True, text=True, check=False, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no problems" in result.stdout


def test_the_check_sees_what_the_build_sees_in_the_project_it_is_given(tmp_path: Path) -> None:
    # An example renamed in the copy's examples.toml: the chapter's placeholders now name a missing example.
    project = copy_project(tmp_path / "book")
    examples = project / "grpo_examples" / "examples.toml"
    examples.write_text(examples.read_text(encoding="utf-8").replace("[easy]", "[simple]"), encoding="utf-8")
    result = subprocess.run([*CHECK, "--project", str(project)], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert "unknown example 'easy'" in result.stdout


def test_the_check_refuses_a_file_that_is_not_a_page(tmp_path: Path) -> None:
    stray = tmp_path / "notes.md"
    stray.write_text("# Notes\n", encoding="utf-8")
    result = subprocess.run([*CHECK, str(stray)], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert f"{stray}:1: not a page of the book" in result.stdout
    assert "Traceback" not in result.stderr
