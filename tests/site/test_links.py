"""Every internal link and anchor of the built site resolves, checked by crawling the HTML that was built
(on top of MkDocs' own validation in strict mode, which sees only the links written in Markdown: not the
theme's, nor the whole-book page's, nor the 404 page's)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import SITE_PATH, PublishedSite
from tests.site_links import check_site, duplicate_ids

SITE_URL = "http://127.0.0.1:8000/"  # mkdocs.yml's site_url when SITE_URL is not set, as for built_site


def test_every_internal_link_and_anchor_of_the_build_resolves(built_site: Path) -> None:
    pages = list(built_site.rglob("*.html"))
    assert len(pages) >= 10 and (built_site / "404.html").is_file() and (built_site / "print/index.html").is_file()
    broken = check_site(built_site, SITE_URL)
    assert broken == [], "\n".join(map(str, broken))


def test_links_resolve_in_the_build_published_under_a_sub_path(published_site: PublishedSite) -> None:
    # On GitHub Pages the book lives under /<repository>/: the 404 page's absolute addresses must carry it.
    assert published_site.url.endswith(SITE_PATH)
    not_found = (published_site.site / "404.html").read_text(encoding="utf-8")
    assert f'href="{SITE_PATH}assets/' in not_found
    broken = check_site(published_site.site, published_site.url)
    assert broken == [], "\n".join(map(str, broken))


def test_no_page_holds_an_id_twice(built_site: Path) -> None:
    # The whole-book page joins every chapter: their ids must have been kept apart.
    doubled = {page.relative_to(built_site).as_posix(): duplicate_ids(page) for page in built_site.rglob("*.html")}
    assert {page: ids for page, ids in doubled.items() if ids} == {}


def test_the_crawler_reports_a_missing_page_a_missing_anchor_and_a_missing_address(
    built_site: Path, tmp_path: Path
) -> None:
    # The property above is only as good as the crawler: break a copy of the build three ways, see each reported.
    site = tmp_path / "site"
    shutil.copytree(built_site, site)
    shutil.rmtree(site / "glossary")
    chapter = site / "grpo" / "index.html"
    html = chapter.read_text(encoding="utf-8")
    first_heading_id = html.split('<h2 id="', 1)[1].split('"', 1)[0]
    html = html.replace(f'id="{first_heading_id}"', 'id="renamed"', 1)
    html = html.replace("</article>", '<a href="/elsewhere/">out</a></article>', 1)
    chapter.write_text(html, encoding="utf-8")
    reasons = [str(b) for b in check_site(site, SITE_URL)]
    assert any("glossary/" in r and "no such file" in r for r in reasons), reasons
    assert any(f"#{first_heading_id}" in r and "no id" in r for r in reasons), reasons
    assert any("/elsewhere/" in r for r in reasons), reasons
