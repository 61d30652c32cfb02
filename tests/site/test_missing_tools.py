"""What a reader of the README lacks, the build and the tests say, with what to install: never a traceback.

Each case takes a real tool away (Node.js from PATH, KaTeX or one of its files from node_modules, numpy
from the Python, Chromium, libfaketime, epubcheck and Java) and runs the real command.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.ensure_browser import HOW_TO_INSTALL as HOW_TO_INSTALL_CHROMIUM
from scripts.ensure_browser import find_chromium
from scripts.ensure_epubcheck import HOW_TO_INSTALL as HOW_TO_INSTALL_EPUBCHECK
from scripts.ensure_faketime import HOW_TO_INSTALL as HOW_TO_INSTALL_FAKETIME
from tests.conftest import ROOT, copy_project, mkdocs_build

pytestmark = pytest.mark.slow


def _path_with_only(tmp_path: Path, *commands: str) -> str:
    """A PATH that holds these commands and nothing else."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for command in commands:
        found = shutil.which(command)
        assert found is not None, command
        (folder / command).symlink_to(found)
    return str(folder)


def _build(project: Path, site: Path, **env: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env}
    return subprocess.run(command, cwd=project, env=environment, capture_output=True, text=True, timeout=300)


def _refused(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode != 0, "the build should have stopped"
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    return result.stderr


def test_without_nodejs_the_build_says_to_install_it(tmp_path: Path) -> None:
    result = _build(ROOT, tmp_path / "site", PATH=_path_with_only(tmp_path, "git"))
    assert "Node.js is needed to render the math at build time: install it" in _refused(result)


def test_without_katex_the_build_says_to_run_npm_ci(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "book")
    (project / "node_modules").unlink()
    assert "KaTeX is not installed at" in (stderr := _refused(mkdocs_build(project, tmp_path / "site")))
    assert "run `npm ci` in the project folder" in stderr


@pytest.mark.parametrize("lost", ["dist/fonts", "dist/katex-swap.min.css", "dist/katex.js"])
def test_without_a_katex_file_the_build_says_to_reinstall_it(tmp_path: Path, lost: str) -> None:
    project = copy_project(tmp_path / "book")
    (project / "node_modules").unlink()
    katex = project / "node_modules" / "katex"
    shutil.copytree(ROOT / "node_modules" / "katex", katex)
    shutil.rmtree(katex / lost) if (katex / lost).is_dir() else (katex / lost).unlink()
    stderr = _refused(mkdocs_build(project, tmp_path / "site"))
    assert f"lacks {lost}: reinstall it with `npm ci`" in stderr


def test_without_numpy_the_build_says_how_to_install_the_books_python_packages(tmp_path: Path) -> None:
    # The same Python, with every installed package but numpy: a site-packages of links, and no site.py.
    packages = tmp_path / "site-packages"
    packages.mkdir()
    installed = Path(next(p for p in sys.path if p.endswith("site-packages")))
    for entry in installed.iterdir():
        if not entry.name.startswith("numpy"):
            (packages / entry.name).symlink_to(entry)
    python = str(getattr(sys, "_base_executable", sys.executable))  # the interpreter under the virtualenv
    command = [python, "-S", "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")]
    environment = {**os.environ, "PYTHONPATH": str(packages), "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300)
    stderr = _refused(result)
    assert "the book's hooks need the Python package 'numpy'" in stderr
    assert "Run `make build` or `make serve`" in stderr


def _pytest(tmp_path: Path, *arguments: str, **env: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *arguments]
    environment = {**os.environ, **env}
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600)


def test_without_chromium_the_browser_tests_say_what_to_install(tmp_path: Path) -> None:
    # No browser starts here: the Chromium the fixture is pointed at does not exist.
    test = tmp_path / "test_needs_a_browser.py"
    test.write_text("def test_it(browser):\n    pass\n")
    # A test outside tests/ that asks for the browser fixture of tests/browser/ (loaded as a plugin): nothing else
    # runs, and no site is built.
    plugin = "tests.browser.conftest"
    result = _pytest(tmp_path, "-p", plugin, str(test), CHROMIUM_PATH=str(tmp_path / "no-chromium-here"))
    output = result.stdout + result.stderr
    assert result.returncode != 0 and HOW_TO_INSTALL_CHROMIUM.splitlines()[0] in output
    assert "sudo apt-get install chromium" in output and "Traceback" not in output


def test_without_faketime_the_reproducibility_test_says_what_to_install(tmp_path: Path) -> None:
    test = "tests/site/test_reproducible.py::test_the_sitemap_carries_the_commit_date_not_the_files_or_the_clock"
    result = _pytest(tmp_path, test, PATH=_path_with_only(tmp_path, "git", "node"))
    output = result.stdout + result.stderr
    assert result.returncode != 0 and HOW_TO_INSTALL_FAKETIME.splitlines()[0] in output
    assert "sudo apt-get install faketime" in output and "Traceback" not in output


def _books(tmp_path: Path, **env: str) -> str:
    """`python -m scripts.books` as `make build` runs it, on a folder that is no site (it looks for its tools first)."""
    command = [sys.executable, "-m", "scripts.books", str(tmp_path)]
    result = subprocess.run(
        command, cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode != 0 and "Traceback" not in result.stderr
    return result.stderr


def test_without_chromium_the_book_files_say_what_to_install(tmp_path: Path) -> None:
    stderr = _books(tmp_path, CHROMIUM_PATH=str(tmp_path / "no-chromium-here"))
    assert HOW_TO_INSTALL_CHROMIUM.splitlines()[0] in stderr and "sudo apt-get install chromium" in stderr


def test_without_java_or_epubcheck_the_book_files_say_what_to_install(tmp_path: Path) -> None:
    chromium = find_chromium()
    assert chromium is not None
    stderr = _books(tmp_path, CHROMIUM_PATH=chromium, PATH=_path_with_only(tmp_path, "git"))
    assert HOW_TO_INSTALL_EPUBCHECK.splitlines()[0] in stderr and "sudo apt-get install epubcheck" in stderr
