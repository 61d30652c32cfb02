"""The book's own stylesheets reach a reader as one file (hooks/site/stylesheets.py), in mkdocs.yml's order."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from hooks.site import stylesheets
from tests.conftest import ROOT
from tests.site_html import page_html, site_pages

LISTED = [str(entry) for entry in load_config(str(ROOT / "mkdocs.yml")).extra_css]


def _linked(html: str) -> list[str]:
    return re.findall(r'<link rel="stylesheet" href="(?:\.\./)*([^"]+)"', html)


def test_every_page_links_material_katex_and_one_stylesheet_of_the_book(built_site: Path) -> None:
    own = [entry for entry in LISTED if entry.startswith("assets/stylesheets/")]
    assert len(own) >= 5  # the premise: the book keeps its styles in several files
    for path in site_pages(built_site):
        linked = _linked(page_html(built_site, path.rstrip("/")) if path else (built_site / "index.html").read_text())
        book = [href for href in linked if re.fullmatch(r"assets/stylesheets/book\.[0-9a-f]{8}\.css", href)]
        assert len(book) == 1, (path, linked)
        assert not set(own) & set(linked), path
        assert len(linked) == 4, (path, linked)  # Material's two, KaTeX's, the book's


def test_the_joined_stylesheet_holds_each_listed_file_whole_and_in_order(built_site: Path) -> None:
    [href] = [h for h in _linked(page_html(built_site, "grpo")) if h.startswith("assets/stylesheets/book.")]
    joined = (built_site / href).read_text(encoding="utf-8")
    positions = []
    for entry in (e for e in LISTED if e.startswith("assets/stylesheets/")):
        text = (ROOT / "docs" / entry).read_text(encoding="utf-8").strip()
        assert text in joined, entry
        positions.append(joined.index(text))
        assert not (built_site / entry).exists(), f"{entry} is served a second time on its own"
    assert positions == sorted(positions)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    """A docs folder holding a copy of the book's stylesheets, for the book's mkdocs.yml to build from."""
    shutil.copytree(ROOT / "docs" / "assets" / "stylesheets", tmp_path / "assets" / "stylesheets")
    return tmp_path


def _config(docs: Path) -> MkDocsConfig:
    return load_config(str(ROOT / "mkdocs.yml"), docs_dir=str(docs))


def test_an_edited_stylesheet_gets_a_new_name_so_no_cache_keeps_the_old(docs: Path) -> None:
    before = stylesheets.join(_config(docs))
    with (docs / "assets" / "stylesheets" / "book.css").open("a") as css:
        css.write("\n.grpo-new { color: red; }\n")
    after = stylesheets.join(_config(docs))
    assert before is not None and after is not None
    assert before.path != after.path and ".grpo-new" in after.text and ".grpo-new" not in before.text


def test_a_listed_stylesheet_that_is_missing_stops_the_build_naming_it(docs: Path) -> None:
    (docs / "assets" / "stylesheets" / "plots.css").unlink()
    with pytest.raises(
        PluginError,
        match=r"extra_css lists assets/stylesheets/plots\.css, but docs/assets/stylesheets/plots\.css does not exist",
    ):
        stylesheets.join(_config(docs))
