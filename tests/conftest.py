"""Shared fixtures: the real `mkdocs build` of the book and a local server for it.

The tests are in four folders, one per layer (tests/README.md); the browser's fixtures are in
tests/browser/conftest.py, so only the tests there can start one, and every test there is marked `browser`.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from hooks.site.build_date import SOURCES
from scripts.local_server import QuietHandler, serve

ROOT = Path(__file__).resolve().parent.parent
PROJECT_FILES = SOURCES  # what a build reads, as the sitemap's date counts it
BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in tests/browser/ drives Chromium: mark it, so that `pytest -m "not browser"` starts none."""
    for item in items:
        if item.path.is_relative_to(BROWSER_TESTS):
            item.add_marker(pytest.mark.browser)


def mkdocs_build(project: Path, site: Path, strict: bool = True) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of the project folder into site, as a separate process (as an author runs it)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", *(["--strict"] if strict else []), "--site-dir", str(site)]
    return subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=300, check=False)


def copy_project(destination: Path) -> Path:
    """A copy of the book's sources (KaTeX linked, not copied) that a test may edit and build."""
    destination.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, destination / name)
    (destination / "node_modules").symlink_to(ROOT / "node_modules")
    return destination


def add_pages(project: Path, pages: dict[str, str]) -> None:
    """Pages in the copy's docs/, outside the nav (not_in_nav), so that strict mode does not warn about that."""
    for name, text in pages.items():
        (project / "docs" / name).write_text(text, encoding="utf-8")
    with (project / "mkdocs.yml").open("a", encoding="utf-8") as config:
        config.write("\nnot_in_nav: |\n" + "".join(f"  /{name}\n" for name in pages))


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The book as `mkdocs build --strict` makes it from the working tree."""
    site = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT, site)
    assert result.returncode == 0, result.stderr
    return site


@dataclass
class Server:
    """A built site served on 127.0.0.1 (scripts/local_server.py), at this address."""

    url: str


@pytest.fixture(scope="session")
def site_server(built_site: Path) -> Iterator[Server]:
    """The built site, served on a free port of 127.0.0.1."""
    with serve(built_site) as url:
        yield Server(url)


SITE_PATH = "/grpo-book/"  # a project site on GitHub Pages lives under /<repository>/


@dataclass
class PublishedSite(Server):
    """A build served as GitHub Pages serves it, and the folder it was built into."""

    site: Path


class _PagesHandler(QuietHandler):
    """The site under SITE_PATH; any other address gets the site's 404.html with status 404, as on Pages."""

    def translate_path(self, path: str) -> str:
        if not path.startswith(SITE_PATH):
            return str(Path(self.directory) / "__not_in_the_site__")
        return super().translate_path("/" + path[len(SITE_PATH) :])

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        not_found = Path(self.directory) / "404.html"
        if code != 404 or not not_found.is_file():
            super().send_error(code, message, explain)
            return
        body = not_found.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@pytest.fixture(scope="session")
def published_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PublishedSite]:
    """The book as it is published: built for its address (site_url under SITE_PATH) and served there."""
    site = tmp_path_factory.mktemp("published")
    with serve(site, _PagesHandler) as root, pytest.MonkeyPatch.context() as patch:
        url = root.removesuffix("/") + SITE_PATH  # the address is known before the build, which needs it
        patch.setenv("SITE_URL", url)
        result = mkdocs_build(ROOT, site)
        assert result.returncode == 0, result.stderr
        patch.undo()
        yield PublishedSite(url, site)


@pytest.fixture
def use_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Point group() at a groups.toml written by the test; the shipped file and empty caches afterwards (the
    groups', the chapters' that read them, and the hooks' Book built from them, if the hooks are loaded)."""
    group_module = importlib.import_module("grpo_examples.group")
    chapters = importlib.import_module("grpo_examples")

    def clear() -> None:
        group_module.group.cache_clear()
        group_module._tables.cache_clear()
        chapters.chapter.cache_clear()  # the practice chapter reads the groups
        if "hooks.checks" in sys.modules:
            sys.modules["hooks.checks"].book.cache_clear()

    def use(text: str) -> None:
        path = tmp_path / "groups.toml"
        path.write_text(text, encoding="utf-8")
        monkeypatch.setattr(group_module, "GROUPS_FILE", path)
        clear()

    yield use
    monkeypatch.undo()
    clear()
