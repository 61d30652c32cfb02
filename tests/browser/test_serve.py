"""`mkdocs serve`, as an author runs it: an edit to a chapter, to grpo_examples/ or to hooks/ shows in the
browser on the next reload, which the browser does by itself, without restarting the server."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from tests.conftest import copy_project

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    project = copy_project(tmp_path / "book")
    port = free_port()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": f"http://127.0.0.1:{port}/"}
    command = [sys.executable, "-m", "mkdocs", "serve", "--livereload", "-a", f"127.0.0.1:{port}"]
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(command, cwd=project, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/grpo/"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).close()
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError((tmp_path / "serve.log").read_text()) from None
            time.sleep(0.2)
    yield project, url
    server.terminate()
    server.wait(timeout=10)
    log.close()


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
