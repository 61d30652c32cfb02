"""Data and chapters from strangers, through the real `mkdocs build` of a copy of the book (issue 21).

Each case was a hole on main at ab814f4: markup from data running in the reader's page, widget data broken by a
string, a snippet reading a file outside the book, a build that hung or ended in a traceback, an author's page
replaced without a word. Each now builds (bounded, the text shown as written) or stops with one message that
names the file and says what to do; never a traceback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, add_pages, copy_project, mkdocs_build

GROUPS = Path("grpo_examples/data/groups.toml")
A_RESPONSE = '"7 × 8 = 56. \\\\boxed{56}"'  # the third response of [easy], as groups.toml writes it
WIDGET_DATA = re.compile(r'<script[^>]*class="grpo-widget__data"[^>]*>(.*?)</script>', re.DOTALL)

pytestmark = pytest.mark.slow


def _book(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "book")


def _edit(project: Path, name: Path | str, old: str, new: str) -> None:
    path = project / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _refused(result: subprocess.CompletedProcess[str]) -> str:
    """The build (or the check) failed with a message and no traceback: its output."""
    output = result.stdout + result.stderr
    assert result.returncode != 0, f"{' '.join(map(str, result.args[:3]))} should have failed"
    assert "Traceback" not in output, output[-3000:]
    return output


def _checked(project: Path) -> str:
    """`make check` of the book in project failed with a message and no traceback: its output."""
    command = [sys.executable, str(ROOT / "scripts" / "check_chapters.py"), "--project", str(project)]
    return _refused(subprocess.run(command, capture_output=True, text=True, check=False, timeout=120))


@pytest.mark.parametrize(
    "response",
    [
        '"7 × 8 = 56. \\\\boxed{5\\n<img src=x onerror=alert(1)>6}"',
        '"7 × 8 = 56.\\n<script>alert(1)</script> \\\\boxed{56}"',
        '"7 × 8 = 56.\\n--8<-- \\"README.md\\" \\\\boxed{56}"',
    ],
    ids=["img in a box", "script", "snippet"],
)
def test_a_line_break_in_data_is_refused_at_its_key(tmp_path: Path, response: str) -> None:
    # a newline took the rest of a response out of the verifier's table: raw HTML ran on two pages
    project = _book(tmp_path)
    _edit(project, GROUPS, A_RESPONSE, response)
    output = _refused(mkdocs_build(project, tmp_path / "site"))
    assert re.search(
        r"grpo_examples/data/groups\.toml:\d+:\d+: easy\.responses\[3\]: a line break at character \d+: "
        r"write the text on one line",
        output,
    ), output[-2000:]
    assert not (tmp_path / "site" / "verifiable-rewards" / "index.html").exists()


def test_tex_and_markup_in_data_reach_the_page_as_written(tmp_path: Path) -> None:
    # $`...`$ in a response was rendered by KaTeX inside the widget's JSON: invalid JSON, a dead widget
    project = _book(tmp_path)
    hostile = "$`x^2`$ <b>bold</b> `code` &amp; \\\\boxed{56}"
    _edit(project, GROUPS, A_RESPONSE, f'"{hostile}"')
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr[-3000:]
    shown = "$`x^2`$ <b>bold</b> `code` &amp; \\boxed{56}"  # the TOML string, unescaped
    found = 0
    for page in (tmp_path / "site").rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "<b>bold</b>" not in html, page  # never markup
        for data in WIDGET_DATA.findall(html):
            text = json.dumps(json.loads(data), ensure_ascii=False)  # valid JSON, or this raises
            found += json.dumps(shown, ensure_ascii=False)[1:-1] in text
    assert found, "the response should be in a widget's data, as written"


def test_an_answer_too_large_to_read_and_a_flood_of_boxes_build(tmp_path: Path) -> None:
    # \boxed{1e100000000} was an exact Fraction of 10^10^8 (minutes); 20,000 unclosed boxes a quadratic scan
    project = _book(tmp_path)
    _edit(project, GROUPS, A_RESPONSE, '"7 × 8 = 56. \\\\boxed{1e100000000}"')
    _edit(project, GROUPS, '"8 × 7 = 8 × 5', '"' + "\\\\boxed{" * 20_000 + " 8 × 7 = 8 × 5")
    result = mkdocs_build(project, tmp_path / "site", strict=False)
    # both responses are now wrong, and the chapters' prose says otherwise: the build may stop on that, with
    # messages; what matters is that it ends, without a traceback
    assert "Traceback" not in result.stdout + result.stderr


def test_a_page_markdown_would_take_minutes_on_stops_the_build_named(tmp_path: Path) -> None:
    # 30,000 '[' in one paragraph: Python-Markdown reads on from each to the paragraph's end, 140 s of this
    # machine's time; any page like it could hold CI for an hour (hooks/site/time_limit.py)
    project = _book(tmp_path)
    add_pages(project, {"scratch.md": "# Scratch\n\n" + "[" * 30_000 + "\n"})
    output = _refused(mkdocs_build(project, tmp_path / "site"))
    assert "docs/scratch.md: Markdown took more than 10 s on this page and was stopped" in output, output[-2000:]


def test_an_authors_print_page_is_not_replaced(tmp_path: Path) -> None:
    project = _book(tmp_path)
    add_pages(project, {"print.md": "# My print page\n\nMine.\n"})
    output = _refused(mkdocs_build(project, tmp_path / "site"))
    assert "docs/print.md: this name is the book's generated whole-book page (/print/): rename the page" in output


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('--8<-- "/etc/hostname"', "a snippet may paste only a file of the book"),
        ('--8<-- "../outside.txt"', "a snippet may paste only a file of the book"),
        ('--8<-- "docs/no-such-file.md"', "no such file in the book"),
        ('--8<-- ".env"', "a snippet may paste only a file of the book's docs/"),
        ('--8<-- "docs/../.env"', "a snippet may paste only a file of the book's docs/"),
    ],
    ids=["absolute", "parent", "missing", "the build machine's file", "through docs"],
)
def test_a_snippet_outside_the_book_is_refused_with_its_line(tmp_path: Path, line: str, message: str) -> None:
    # a file in the book's folder that is not the book's (.git/config keeps a CI checkout's token) was published
    project = _book(tmp_path)
    (tmp_path / "outside.txt").write_text("a secret\n", encoding="utf-8")
    (project / ".env").write_text("a secret\n", encoding="utf-8")
    add_pages(project, {"scratch.md": f"# Scratch\n\nText.\n\n```text\n{line}\n```\n"})
    output = _refused(mkdocs_build(project, tmp_path / "site"))
    assert f"docs/scratch.md:6: {message}" in output, output[-2000:]
    assert "a secret" not in output


def test_a_file_a_snippet_pastes_is_checked_as_the_page_is(tmp_path: Path) -> None:
    # pymdownx.snippets pastes the snippets of a pasted file too: one under tests/ pasted .env into the page; a
    # pasted file that is not UTF-8 stopped the build with a UnicodeDecodeError's traceback
    project = _book(tmp_path)
    (project / ".env").write_text("a secret\n", encoding="utf-8")
    folder = project / "grpo_examples" / "quoted"
    folder.mkdir()
    (folder / "nested.md").write_text('Quoted:\n\n--8<-- ".env"\n', encoding="utf-8")
    (folder / "latin.txt").write_bytes("a caf\u00e9\n".encode("latin-1"))
    page = '# Scratch\n\n--8<-- "{0}/nested.md"\n\n```text\n--8<-- "{0}/latin.txt"\n```\n'.format(
        "grpo_examples/quoted"
    )
    add_pages(project, {"scratch.md": page})
    output = _refused(mkdocs_build(project, tmp_path / "site"))
    assert "grpo_examples/quoted/nested.md:3: a snippet may paste only a file of the book's docs/" in output, output
    assert "docs/scratch.md: line 3" in output.split("grpo_examples/quoted/nested.md:3:")[1], output
    assert "grpo_examples/quoted/latin.txt:1: not UTF-8 text (the byte 0xe9)" in output, output
    assert "docs/scratch.md: line 6" in output.split("grpo_examples/quoted/latin.txt:1:")[1], output
    assert "a secret" not in output


def test_a_chapter_that_runs_code_or_loads_from_elsewhere_stops_the_build(tmp_path: Path) -> None:
    # published as written before: a contributor's script ran for every reader, and the page fetched from a host
    project = _book(tmp_path)
    page = "# Scratch\n\nText.\n\n<img src=x onerror=alert(1)>\n\n![a plot](https://example.org/plot.png)\n"
    add_pages(project, {"scratch.md": page})
    output = _refused(mkdocs_build(project, tmp_path / "site"))
    assert "docs/scratch.md:5: an event handler (onerror=) runs code in the reader's browser" in output, output
    assert "docs/scratch.md:7: the page would load a file from another host (example.org)" in output, output


def test_a_file_of_docs_that_would_run_code_where_it_is_published_stops_the_build(tmp_path: Path) -> None:
    # MkDocs published them as they were, at the book's address: opened in a tab, each ran its script there
    project = _book(tmp_path)
    figures = project / "docs" / "assets" / "figures"
    figures.mkdir(parents=True)
    (figures / "notes.html").write_text("<p>Notes.</p><script>alert(1)</script>\n", encoding="utf-8")
    svg = '<svg xmlns="http://www.w3.org/2000/svg">\n<style>.a {{ fill: red }}</style>\n{}<circle r="3"/>\n</svg>\n'
    (figures / "plot.svg").write_text(svg.format("<script>alert(2)</script>\n"), encoding="utf-8")
    for output in _refused(mkdocs_build(project, tmp_path / "site")), _checked(project):  # make check says it too
        assert "docs/assets/figures/notes.html:1: the site would publish this file as it is" in output, output[-2000:]
        assert "docs/assets/figures/plot.svg:3: <script> would run or embed code" in output, output[-2000:]
        assert "plot.svg:2" not in output  # a figure's own <style> may stay
    # A figure without a script, and a data file to download, are published as they are.
    (figures / "notes.html").unlink()
    (figures / "plot.svg").write_text(svg.format(""), encoding="utf-8")
    (figures / "table.csv").write_text("G,mean\n4,0.5\n", encoding="utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr[-2000:]
    assert (tmp_path / "site" / "assets" / "figures" / "plot.svg").read_text(encoding="utf-8") == svg.format("")
    assert (tmp_path / "site" / "assets" / "figures" / "table.csv").is_file()


def test_a_file_of_docs_that_links_outside_the_book_stops_the_build(tmp_path: Path) -> None:
    # MkDocs follows links in docs/: it published what they point to (a file, a whole folder) from the machine, and a
    # link to a folder above it every file forty times over, ending in OSError's traceback ("Too many levels")
    project = _book(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("a secret\n", encoding="utf-8")
    (project / "docs" / "assets" / "leak.txt").symlink_to(outside / "secret.txt")
    (project / "docs" / "assets" / "linked").symlink_to(outside, target_is_directory=True)
    (project / "docs" / "assets" / "loop").symlink_to("..", target_is_directory=True)  # docs/ again, forever
    (project / "docs" / "assets" / "readme.txt").symlink_to(project / "README.md")  # a file of the book: fine
    (outside / "page.md").write_text("# Outside\n\nA typed 0.8 of a page outside the book.\n", encoding="utf-8")
    for output in _refused(mkdocs_build(project, tmp_path / "site")), _checked(project):  # make check says it too
        problems = [line for line in output.splitlines() if "outside the book" in line or "is a link" in line]
        assert [line.split(": this")[0].split()[-1] for line in problems] == [
            "docs/assets/leak.txt:1",
            "docs/assets/linked:1",
            "docs/assets/loop:1",
        ], output
        assert "a link to a file outside the book, which the site would publish" in problems[0]
        assert all("this folder is a link, and the site would publish what it holds" in line for line in problems[1:])
        assert "a secret" not in output and "typed number" not in output  # neither read
        assert "Too many levels" not in output
    assert not list((tmp_path / "site").rglob("secret.txt"))


def test_a_page_that_is_not_utf8_is_a_message_at_its_line(tmp_path: Path) -> None:
    # saved as Latin-1 by an editor: MkDocs stopped with a UnicodeDecodeError's traceback
    project = _book(tmp_path)
    add_pages(project, {"scratch.md": "---\ntitle: Scratch\ndescription: A page.\n---\n\n# Scratch\n\nText.\n"})
    page = project / "docs" / "scratch.md"
    page.write_bytes(page.read_bytes() + "Café au lait.\n".encode("latin-1"))  # line 9
    output = _refused(mkdocs_build(project, tmp_path / "site"))
    assert "docs/scratch.md:9: not UTF-8 text (the byte 0xe9): save the file as UTF-8" in output, output[-2000:]


def test_a_snippet_line_in_prose_is_not_read_as_a_number(tmp_path: Path) -> None:
    project = _book(tmp_path)
    add_pages(project, {"scratch.md": '# Scratch\n\n--8<-- "tests/site/new_chapter/sampling.md"\n'})
    result = mkdocs_build(project, tmp_path / "site")
    assert "-8 (signed number)" not in result.stdout + result.stderr


def test_a_source_date_out_of_range_is_a_message(tmp_path: Path) -> None:
    project = _book(tmp_path)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "99999999999999999"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")]
    result = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert "SOURCE_DATE_EPOCH=99999999999999999 is no date this machine can write" in _refused(result)


@pytest.mark.parametrize("blocker", ["cache folder is a file", "cache file is a folder"])
def test_a_cache_that_cannot_be_written_is_a_warning_that_names_it(tmp_path: Path, blocker: str) -> None:
    project = _book(tmp_path)
    if blocker == "cache folder is a file":
        (project / ".cache").write_text("not a folder\n", encoding="utf-8")
    else:
        (project / ".cache" / "katex-formulas.json").mkdir(parents=True)
    output = _refused(mkdocs_build(project, tmp_path / "site"))  # strict: the warning stops it
    assert "the cache of rendered formulas cannot be written to" in output
    assert "remove what stands in its way" in output
    if blocker == "cache file is a folder":
        assert [p.name for p in (project / ".cache").iterdir()] == ["katex-formulas.json"]  # no temp file left
    result = mkdocs_build(project, tmp_path / "site", strict=False)
    assert result.returncode == 0 and (tmp_path / "site" / "index.html").exists()  # the site is whole without it


def test_a_broken_katex_install_is_not_blamed_on_a_formula(tmp_path: Path) -> None:
    project = _book(tmp_path)
    (project / "node_modules").unlink()
    shutil.copytree(ROOT / "node_modules" / "katex", project / "node_modules" / "katex")
    (project / "node_modules" / "katex" / "dist" / "katex.js").write_text("throw new Error('broken')\n")
    output = _refused(mkdocs_build(project, tmp_path / "site"))
    assert "the KaTeX process" in output and "This is not a problem of a formula" in output
    assert "fix the TeX" not in output


def test_snippets_are_read_from_the_book_wherever_mkdocs_runs(tmp_path: Path) -> None:
    # pymdownx.snippets' base path was the working directory: `mkdocs build -f book/mkdocs.yml` run from / pasted
    # /etc/hostname for a fence that names etc/hostname
    project = _book(tmp_path)
    add_pages(project, {"scratch.md": '# Scratch\n\n```text\n--8<-- "etc/hostname"\n```\n'})
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(project / "mkdocs.yml")]
    command += ["--site-dir", str(tmp_path / "site")]
    result = subprocess.run(command, cwd="/", env=env, capture_output=True, text=True, timeout=300, check=False)
    assert "docs/scratch.md:4: a snippet may paste only a file of the book's docs/" in _refused(result)
