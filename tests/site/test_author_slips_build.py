"""The slips an author makes, each through a real `mkdocs build --strict` of an edited copy of the book: the
build fails, names the file and the line, and says what to write instead.

The same slips, and more, go through the page hook alone in tests/hooks/test_author_slips.py, in milliseconds;
here the build itself must stop on them, with MkDocs printing the hook's message whole.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import copy_project, mkdocs_build
from tests.hooks.test_author_slips import SLIPS as HOOK_SLIPS

# A slip of each kind, from the page hook's own list: (the line appended to the chapter, what the message must say).
BUILT = ("misspelt group", "misspelt field", "misspelt kind", "wrong option", "wrong argument",
         "unclosed placeholder", "TeX that KaTeX rejects", "typed number")  # fmt: skip
SLIPS = {name: HOOK_SLIPS[name] for name in BUILT}


def _append(project: Path, line: str) -> int:
    """Append a line to the copy's chapter (whose front matter MkDocs strips); return its line in the file."""
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
    assert "Aborted with a BuildError" in result.stdout  # MkDocs stopped the build; nothing crashed
    assert "Traceback" not in result.stderr
    assert f"docs/grpo.md:{number}:" in result.stderr, result.stderr
    assert result.stderr.count("docs/grpo.md:") == 1, result.stderr  # the slip is the chapter's only problem
    for words in expected:
        assert words in result.stderr, result.stderr
