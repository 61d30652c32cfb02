"""Each page preloads the KaTeX fonts most of its formulas are set in (hooks/site/katex_fonts.py), in Chromium:
with the preloads taken out, Chromium asks, on every page, for exactly the fonts the module reads from the
page's classes, and so for every font preloaded: nothing is preloaded in vain. The module's rules are
tested on their own in tests/site/test_katex_fonts.py."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Route

from hooks.site.katex import STYLESHEET
from hooks.site.katex_fonts import font_rules, fonts_used
from scripts.page_ready import wait_until_whole
from tests.conftest import PublishedSite
from tests.site_html import KATEX_FONT_PRELOAD, KATEX_MAIN, KATEX_MATH, preloaded_fonts, site_pages

# Two frames, so that what was last added to the page is laid out and has asked for its fonts; then those.
LAID_OUT_AND_FONTS_LOADED = """() => new Promise(frame => requestAnimationFrame(() => requestAnimationFrame(frame)))
  .then(() => document.fonts.ready).then(() => true)"""


def _fonts_asked_for(context: BrowserContext, url: str) -> list[str]:
    """The KaTeX fonts Chromium asks for on a page served without its preloads: those its layout needs."""
    page = context.new_page()

    def without_preloads(route: Route) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=KATEX_FONT_PRELOAD.sub("", response.text()))

    page.route(url, without_preloads)
    fonts: set[str] = set()
    page.on("request", lambda r: fonts.add("fonts/" + Path(r.url).name) if r.resource_type == "font" else None)
    unloaded: list[str] = []  # a font asked for and not served: the site ships woff2 only (hooks/site/katex_fonts.py)
    page.on("requestfailed", lambda r: unloaded.append(r.url) if r.resource_type == "font" else None)
    page.on("response", lambda r: unloaded.append(r.url) if r.request.resource_type == "font" and not r.ok else None)
    page.goto(url, wait_until="load")
    wait_until_whole(page)  # a block is laid out, and asks for its fonts, near the screen or after
    page.evaluate(LAID_OUT_AND_FONTS_LOADED)
    page.close()
    assert not unloaded, f"{url}: fonts not served: {unloaded}"
    return sorted(fonts)


def test_every_page_preloads_fonts_chromium_asks_for(browser: Browser, published_site: PublishedSite) -> None:
    rules = font_rules((published_site.site / "assets" / "katex" / STYLESHEET).read_text(encoding="utf-8"))
    pages = site_pages(published_site.site)
    built = {page: (published_site.site / page / "index.html").read_text() for page in pages}
    preloaded = {page: preloaded_fonts(html) for page, html in built.items()}
    assert sum(map(bool, preloaded.values())) >= 8, "fewer than eight pages preload a KaTeX font"
    assert all(fonts == [KATEX_MAIN, KATEX_MATH] for fonts in preloaded.values() if fonts), (
        preloaded
    )  # in most formulas
    context = browser.new_context(viewport={"width": 412, "height": 823})
    asked = {page: _fonts_asked_for(context, published_site.url + page) for page in pages}
    context.close()
    assert asked == {page: fonts_used(html, *rules) for page, html in built.items()}
    assert all(set(preloaded[page]) <= set(asked[page]) for page in pages)
    assert any(set(asked[page]) - set(preloaded[page]) for page in pages), "no page has a rare font left to load"
