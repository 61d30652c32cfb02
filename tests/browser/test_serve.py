"""`mkdocs serve`, as an author runs it: an edit to a chapter, to grpo_examples/ or to hooks/ shows in the
browser on the next reload, which the browser does by itself, without restarting the server."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from scripts.mkdocs_serve import serving
from tests.conftest import copy_project

pytestmark = pytest.mark.slow


def test_stopping_the_server_leaves_no_copy_of_the_site(tmp_path: Path) -> None:
    # MkDocs builds the site it serves in the system's temporary folder, and removes it when stopped as an author
    # stops it, with Ctrl-C (scripts/mkdocs_serve.py stops it so); stopped with SIGTERM, each run left it there.
    project, temporary = copy_project(tmp_path / "book"), tmp_path / "tmp"
    temporary.mkdir()
    with serving(project, tmp_path / "serve.log", {**os.environ, "TMPDIR": str(temporary)}):
        assert len(list(temporary.glob("mkdocs_*/index.html"))) == 1  # the site, while it is served
    assert list(temporary.glob("mkdocs_*")) == []
    assert "Shutting down..." in (tmp_path / "serve.log").read_text()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    project = copy_project(tmp_path / "book")
    with serving(project, tmp_path / "serve.log") as url:
        yield project, url + "grpo/"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def wait_for_text(page: Page, pattern: str, timeout: float = 30) -> None:
    """Wait, without touching the page, until the page reloaded itself and shows the pattern."""
    deadline = time.monotonic() + timeout
    while not re.search(pattern, _content(page)):
        assert time.monotonic() < deadline, f"the page never showed {pattern!r}"
        page.wait_for_timeout(200)
    page.wait_for_load_state("load")  # the text can show before the reload's load event fires


def _content(page: Page) -> str:
    try:
        return page.content()
    except PlaywrightError:  # caught mid-reload: look again on the next round
        return ""


def test_edits_show_after_the_automatic_reload(browser: Browser, served: tuple[Path, str]) -> None:
    project, url = served
    page = browser.new_page()
    page.goto(url)
    reloads: list[str] = []
    page.on("load", lambda loaded: reloads.append(loaded.url))

    # 1. A chapter edit.
    edit(project / "docs" / "grpo.md", "## The idea", "## The idea, edited")
    wait_for_text(page, "The idea, edited")

    # 2. An edit to grpo_examples' data: one more wrong answer makes the mean 3/5 = 0.6.
    edit(project / "grpo_examples" / "data" / "groups.toml", "7 × 8 = 56. \\\\boxed{56}", "7 × 8 = 54. \\\\boxed{54}")
    wait_for_text(page, r"\\frac\{3\}\{5\} = 0\.6")

    # 3. An edit to a hook module: the generated sentence changes wording.
    edit(project / "hooks" / "chapters" / "groups.py", "only because being", "purely because being")
    wait_for_text(page, "purely because being wrong was rare")

    # 4. An edit to a grpo_examples module.
    edit(project / "grpo_examples" / "conventions.py", 'trainer="TRL"', 'trainer="TRL (edited)"')
    wait_for_text(page, r"TRL \(edited\)")

    assert len(reloads) >= 4, "the browser reloaded by itself after each edit"
    page.close()


OVERLAY = "#grpo-build-problems"


def wait_for_overlay(page: Page, shown: bool, timeout: float = 30) -> None:
    """Wait, without touching the page, until it reloaded itself with the problems' overlay shown (or gone)."""
    deadline = time.monotonic() + timeout
    while ('id="grpo-build-problems"' in _content(page)) != shown:
        assert time.monotonic() < deadline, f"the overlay never {'showed' if shown else 'went'}"
        page.wait_for_timeout(200)
    page.wait_for_load_state("load")


def test_a_build_error_shows_on_every_page_until_a_save_fixes_it(browser: Browser, served: tuple[Path, str]) -> None:
    project, url = served
    page = browser.new_page()
    page.goto(url)
    assert page.locator(OVERLAY).count() == 0

    # A slip on the GRPO page and a bad value in a data file: the open tab reloads and shows both.
    edit(project / "docs" / "grpo.md", "## The idea", "## The idea <!-- grpo:value eazy.mean -->")
    edit(project / "grpo_examples" / "data" / "ppo.toml", "epsilon = 0.2", 'epsilon = "wide"')
    wait_for_overlay(page, shown=True)
    overlay = page.locator(OVERLAY)
    assert overlay.is_visible()
    text = overlay.inner_text()
    assert "The book has 2 problems in 2 files" in text
    assert "docs/grpo.md:" in text and "unknown name 'eazy'" in text and "did you mean 'easy'?" in text
    assert "<!-- grpo:value eazy.mean -->" in text  # the text as written
    assert "grpo_examples/data/ppo.toml:4:1" in text and "epsilon: expected a number, got 'wide'" in text
    assert "docs/ppo.md: lines" in text  # the places the data problem breaks

    # Every page of the book shows it, not only the broken ones.
    other = browser.new_page()
    other.goto(url.replace("/grpo/", "/glossary/"))
    assert other.locator(OVERLAY).is_visible()
    assert "unknown name 'eazy'" in other.locator(OVERLAY).inner_text()
    other.close()

    # Fixed, the page comes back by itself, without the overlay, with its numbers.
    edit(project / "docs" / "grpo.md", "## The idea <!-- grpo:value eazy.mean -->", "## The idea")
    edit(project / "grpo_examples" / "data" / "ppo.toml", 'epsilon = "wide"', "epsilon = 0.2")
    wait_for_overlay(page, shown=False)
    # Two saves may make two builds, and the tab reloads after each: expect() waits out the second reload.
    expect(page.locator("h2", has_text="The idea")).to_have_count(1)
    expect(page.locator(".grpo-value").nth(10)).to_be_attached()
    page.close()


def test_the_server_starts_with_an_error_and_shows_it(browser: Browser, tmp_path: Path) -> None:
    # A page broken before `make serve` starts: the server starts anyway (MkDocs alone exits), and shows it.
    project = copy_project(tmp_path / "book")
    edit(project / "docs" / "ppo.md", "\n## ", "\n$`\\frac{1}{`$\n\n## ")
    # and a front matter Material's template cannot read: its traceback stopped the server's build
    edit(project / "docs" / "glossary.md", "title: Notation and glossary", "title: Notation and glossary\nhide: 5")
    with serving(project, tmp_path / "serve.log") as url:
        page = browser.new_page()
        page.goto(url + "ppo/")
        overlay = page.locator(OVERLAY)
        assert overlay.is_visible()
        assert "KaTeX cannot render this formula" in overlay.inner_text()
        assert "docs/ppo.md:" in overlay.inner_text()
        assert "docs/glossary.md:3\n\n'hide' lists what the page hides" in overlay.inner_text()
        page.goto(url + "glossary/")  # the page with the front matter, as a stand-in under the overlay
        assert page.locator(OVERLAY).is_visible()
        page.get_by_role("button", name="Hide until the next save").click()
        assert not overlay.is_visible()  # the author can read the page under it
        page.close()
    log = (tmp_path / "serve.log").read_text()
    assert "KaTeX cannot render this formula" in log  # the terminal has it too
    assert "Traceback" not in log


def _wait_for_log(log: Path, text: str, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while text not in (seen := log.read_text()):
        assert time.monotonic() < deadline, seen[-2000:]
        time.sleep(0.2)
    return seen


def test_an_edit_of_the_hook_file_is_not_reported_as_a_good_build(served: tuple[Path, str], tmp_path: Path) -> None:
    # MkDocs loads hooks/entry.py once: an edit to it used to "build" with the old file, errors and all (issue 21)
    project, _ = served
    log = tmp_path / "serve.log"
    entry = project / "hooks" / "entry.py"
    original = entry.read_text(encoding="utf-8")
    entry.write_text(original + "\nbroken = (\n", encoding="utf-8")
    seen = _wait_for_log(log, "hooks/entry.py:")
    line = original.count("\n") + 2
    assert f"hooks/entry.py:{line}: '(' was never closed: fix it, then restart `make serve`" in seen
    entry.write_text(original + "\n# a comment\n", encoding="utf-8")
    seen = _wait_for_log(log, "hooks/entry.py changed: MkDocs loads it once")
    assert "restart `make serve` to use it" in seen


def test_serving_where_another_server_listens_stops_before_building(tmp_path: Path) -> None:
    # a `make serve` left running in another terminal: MkDocs built the whole book, then ended in OSError's traceback
    project = copy_project(tmp_path / "book")
    with socket.create_server(("127.0.0.1", 0)) as other:
        port = other.getsockname()[1]
        command = [sys.executable, "-m", "mkdocs", "serve", "--dirty", "--dev-addr", f"127.0.0.1:{port}"]
        environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        result = subprocess.run(command, cwd=project, env=environment, capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output, output
    assert f"cannot serve the book at 127.0.0.1:{port}: Address already in use; another `make serve`" in output
    assert f"make serve ADDR=127.0.0.1:{port + 1}" in output
    assert "building all" not in output  # stopped before the first build
