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


def test_an_address_in_raw_html_is_checked_from_the_pages_address_and_the_fix_builds(tmp_path: Path) -> None:
    # built without a word before: MkDocs leaves raw HTML's addresses as written, and the browser reads them from the
    # page's address, /grpo/, not from docs/: a broken image on the published site, and an EPUB that epubcheck refused
    project = copy_project(tmp_path / "book")
    figures = project / "docs" / "assets" / "figures"
    figures.mkdir(parents=True)
    (figures / "plot.png").write_bytes(b"\x89PNG\r\n\x1a\n")  # its bytes are not read, its name is
    number = _append(project, '<img src="assets/figures/plot.png" alt="A plot"> and <a href="../book.pdf">the PDF</a>')
    # and a Markdown image without words, found at its line though MkDocs rewrote its address ('../assets/...')
    (figures / "rewards.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    unnamed = _append(project, "![](assets/figures/rewards.png)")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    message = (
        f"docs/grpo.md:{number}: the browser reads assets/figures/plot.png from the page's address, /grpo/, not from "
        "the chapter's file, and finds nothing there: write ../assets/figures/plot.png, or in Markdown "
        "![...](assets/figures/plot.png), which MkDocs reads from the chapter's file"
    )
    assert message in result.stderr, result.stderr
    assert f"docs/grpo.md:{unnamed}: this image has no words for a reader who cannot see it" in result.stderr
    assert result.stderr.count("docs/grpo.md:") == 2, result.stderr  # the PDF `make build` writes is the site's
    # The address the message gives is the one that works.
    chapter = project / "docs" / "grpo.md"
    fixed = chapter.read_text(encoding="utf-8").replace('"assets/figures', '"../assets/figures')
    chapter.write_text(fixed.replace("![](assets", "![The rewards](assets"), encoding="utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr[-2000:]
    page = tmp_path / "site" / "grpo" / "index.html"
    assert '<img src="../assets/figures/plot.png" alt="A plot">' in page.read_text(encoding="utf-8")
    assert (page.parent / "../assets/figures/plot.png").resolve().is_file()


def test_a_link_to_a_heading_another_page_lacks_stops_the_build_at_its_line(tmp_path: Path) -> None:
    # MkDocs warned once every page was written, with no line, and under `make serve` only in the terminal
    project = copy_project(tmp_path / "book")
    number = _append(project, "As [the idea](grpo.md#the-ideas) says, and [its sources](#sources).")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert (
        f"docs/grpo.md:{number}: there is no #the-ideas on this page (a heading renamed, or the id misspelt): link "
        "to one of its ids: #the-idea, "
    ) in result.stderr, result.stderr
    assert result.stderr.count("docs/grpo.md:") == 1, result.stderr  # #sources is a heading of the page
    # A page with problems is built as a stand-in, without its headings: a link to one of them waits for the fix.
    ppo = project / "docs" / "ppo.md"
    ppo.write_text(ppo.read_text(encoding="utf-8") + "\n<!-- grpo:value easy.nosuch -->\n", encoding="utf-8")
    chapter = project / "docs" / "grpo.md"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("grpo.md#the-ideas", "ppo.md#sources"), "utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert "docs/ppo.md:" in result.stderr and "there is no #" not in result.stderr, result.stderr
