"""Print: the whole book is one page (print/), generated from the nav, holding each chapter whole, and every page
links to it; a theme that leaves it no place stops the build. What a printed page looks like, in Chromium, is
tests/browser/test_print_browser.py."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from tests.conftest import PublishedSite, copy_project, mkdocs_build
from tests.site_html import article, page_html, site_pages


def _nav_order(site: Path) -> list[str]:
    """The pages of the site's navigation, in order, as the home page's sidebar lists them."""
    home = page_html(site, "")
    primary = home[home.index('md-nav--primary"') :]
    order: list[str] = []
    for href in re.findall(r'<a href="([^"#]*)" class="md-nav__link', primary):
        page = "" if href in ("", ".", "./") else href.removeprefix("./").removesuffix("index.html")
        if page not in order:
            order.append(page)
    return order


def _title(html: str) -> str:
    """The text of the first h1 or h2 of a piece of HTML, without its permalink."""
    heading = re.search(r"<h[12][^>]*>(.*?)</h[12]>", html, re.DOTALL)
    assert heading is not None
    return unescape(re.sub(r"<[^>]+>", "", heading.group(1).replace("¶", ""))).strip()


def test_the_whole_book_holds_every_page_of_the_nav_in_order(published_site: PublishedSite) -> None:
    site = published_site.site
    nav = _nav_order(site)
    assert len(nav) >= 10 and set(nav) <= set(site_pages(site))
    book = article(page_html(site, "print"))
    sections = re.findall(r'<section class="grpo-book-chapter" id="[^"]+"[^>]*>(.*?)</section>', book, re.DOTALL)
    assert [_title(section) for section in sections] == [_title(article(page_html(site, p))) for p in nav]
    # Each chapter whole: as many formulas, tables and figures as on its own page.
    for page, section in zip(nav, sections, strict=True):
        own = article(page_html(site, page))
        for mark in ('class="katex"', "<table", "<figure", "<svg"):
            assert section.count(mark) == own.count(mark), (page, mark)


def test_every_page_links_to_the_whole_book(published_site: PublishedSite) -> None:
    for page in site_pages(published_site.site):
        html = page_html(published_site.site, page.rstrip("/"))
        link = re.search(r'<a href="([^"]*)" class="grpo-print-link">The whole book on one page</a>', html)
        assert link is not None, page
        expected = "./" if page == "print/" else "../" * page.count("/") + "print/"
        assert link.group(1) == expected, page


@pytest.mark.slow
def test_a_theme_that_drops_the_page_content_stops_the_build_with_the_fix(tmp_path: Path) -> None:
    """The whole book is written into the print page where the template rendered its content
    (hooks/site/print_book.py): a template in overrides/ that renders no content leaves it nowhere to go."""
    project = copy_project(tmp_path / "book")
    (project / "overrides" / "partials" / "content.html").write_text("<p>No content here.</p>\n", encoding="utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "print/index.html: the whole-book page came out of the theme without its content" in result.stderr
    assert "a template in overrides/ must render page.content" in result.stderr
