"""A bad edit stops the real `mkdocs build` with the page, the line and the offending text.

The same slips, and more, go through the page hook alone in tests/hooks/test_build_errors.py; here a copy of
the book with the bad page is built as an author builds it, and MkDocs must stop and print the hook's message.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.site.katex_cache import CACHE_FILE
from tests.conftest import ROOT, add_pages, copy_project, mkdocs_build


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
    located = [line for line in stderr.splitlines() if "docs/scratch.md:" in line and "description" not in line]
    assert len(located) == 1, stderr  # one problem on the page, reported once (besides its missing description)
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


@pytest.mark.slow
def test_every_problem_of_every_page_and_data_file_is_reported_at_once(tmp_path: Path) -> None:
    # Three pages with mistakes of three kinds, and a data value that placeholders on two of them need: one
    # build prints them all, sorted by file and line, the data problem once at its own line with the places it
    # breaks under it, then a count.
    project = copy_project(tmp_path / "book")
    add_pages(
        project,
        {
            "first.md": "# First\n\nA slip: <!-- grpo:value eazy.mean -->.\n\nA formula: $`\\frac{1}{`$.\n\n"
            "The clip: <!-- grpo:value ppo.epsilon -->.\n",
            "second.md": "# Second\n\n<!-- gpro:value easy.mean -->\n\n"
            "The clip again: <!-- grpo:value ppo.epsilon -->.\n",
            "third.md": "# Third\n\nA typed mean of 0.8.\n",
        },
    )
    data = project / "grpo_examples" / "data" / "ppo.toml"
    text = data.read_text(encoding="utf-8")
    assert text.splitlines()[3].startswith("epsilon = 0.2")  # line 4, by hand
    data.write_text(text.replace("epsilon = 0.2", 'epsilon = "wide"', 1), encoding="utf-8")

    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    # each problem's place, at the start of its line (the first after MkDocs' "ERROR   -  ")
    located = re.findall(r"^(?:ERROR +- +)?(\S+:\d+(?::\d+)?): ", result.stderr, re.MULTILINE)
    assert located == [
        "docs/first.md:3",
        "docs/first.md:5",
        "docs/second.md:3",
        "docs/third.md:3:17",  # "A typed mean of " is 16 characters
        "grpo_examples/data/ppo.toml:4:1",
    ], result.stderr
    assert "docs/second.md:3: this comment looks like a placeholder written wrong" in result.stderr
    assert "grpo_examples/data/ppo.toml:4:1: epsilon: expected a number, got 'wide'" in result.stderr
    breaks = result.stderr.split("got 'wide'", 1)[1]
    assert "\n      docs/first.md: line 7\n" in breaks and "\n      docs/second.md: line 5\n" in breaks
    assert result.stderr.count("got 'wide'") == 1  # once, however many placeholders it breaks
    assert "5 problems in 4 files" in result.stderr


@pytest.mark.slow
def test_the_check_reports_what_the_build_reports(tmp_path: Path) -> None:
    # make check on a book with a broken page and a broken data file: the same report, sorted, with the count.
    project = copy_project(tmp_path / "book")
    (project / "docs" / "scratch.md").write_text("# Scratch\n\n<!-- grpo:value ppo.epsilon --> and 0.8.\n")
    data = project / "grpo_examples" / "data" / "ppo.toml"
    data.write_text(data.read_text(encoding="utf-8").replace("epsilon = 0.2", "epsilon = = 0.2", 1))
    command = [sys.executable, str(ROOT / "scripts" / "check_chapters.py"), "--project", str(project)]
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("docs/scratch.md:3:37: typed number 0.8 (decimal)")  # after 36 characters
    syntax = "grpo_examples/data/ppo.toml:4:11: epsilon: not valid TOML: Invalid value (at line 4, column 11)"
    assert syntax in lines
    assert lines[lines.index(syntax) + 1].startswith("    epsilon = = 0.2  # the clip range")  # the line as written
    assert lines[-2:] == ["2 problems in 2 files", "checked 15 pages and every data file"]


@pytest.mark.slow
def test_a_toml_syntax_error_in_the_groups_names_the_file_line_column_table_and_key(tmp_path: Path) -> None:
    # The file every page needs: no traceback, no page's name; the file, where the parser stopped, the key.
    project = copy_project(tmp_path / "book")
    groups = project / "grpo_examples" / "data" / "groups.toml"
    lines = groups.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("question = ") and i > 1)
    table = next(line.strip()[1:-1] for line in reversed(lines[:number]) if line.startswith("["))
    lines[number - 1] = 'question = "unclosed\n'
    groups.write_text("".join(lines), encoding="utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0 and "Traceback" not in result.stderr, result.stderr
    [line] = [line for line in result.stderr.splitlines() if "grpo_examples/data/groups.toml:" in line]
    assert f"grpo_examples/data/groups.toml:{number}:" in line
    assert f": {table}.question: not valid TOML: " in line, line
    assert "1 problem in 1 file" in result.stderr
