"""Later layout: below the first screen the browser lays out a block of a page only near the screen, until a
script has laid out every block, a few a frame, once the page is parsed (docs/assets/stylesheets/
later-layout.css, overrides/partials/later-layout.html). A reader must not see the difference: nothing on
the first screen moves, a link into the page lands on its heading, print and a browser without JavaScript
get every block, and once laid out the page holds for a screen reader all it held before."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from scripts.page_ready import LAID_OUT
from tests.conftest import PublishedSite
from tests.site_html import article, page_html

PHONE = {"width": 412, "height": 823}
LONG_CHAPTER = "ppo/"  # the longest chapter: most of it is below the first screen

# Every layout shift inside the article once the page is parsed, when the later layout starts (buffered, so none is
# missed). Before that the browser may paint a page it has parsed in part: on a busy machine a worked step on the
# first screen was painted half-parsed and re-centred when the rest came (five loads in twelve with Chromium's
# CPU slowed six times, all 400-700 ms before the page was parsed), which is the parser's doing, not this script's.
RECORD_SHIFTS = """window.grpoShifts = [];
let parsed = Infinity;
document.addEventListener('DOMContentLoaded', () => { parsed = performance.now(); });
new PerformanceObserver(list => {
  for (const shift of list.getEntries())
    for (const source of shift.sources)
      if (shift.startTime >= parsed && source.node && source.node.nodeType === 1 && source.node.closest('.md-content'))
        window.grpoShifts.push(source.node.outerHTML.slice(0, 80));
}).observe({ type: 'layout-shift', buffered: true });"""

TWO_FRAMES = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"

CONTENT_VISIBILITY = (
    "[...document.querySelectorAll('.md-content__inner > *')].map(b => getComputedStyle(b).contentVisibility)"
)


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    yield context
    context.close()


def _accessible_roles(page: Page) -> Counter[str]:
    session = page.context.new_cdp_session(page)
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    session.detach()
    return Counter(str(n.get("role", {}).get("value")) for n in nodes if not n.get("ignored"))


def test_blocks_below_the_first_screen_wait_for_the_screen_only_until_the_script_lays_them_out(
    phone: BrowserContext, published_site: PublishedSite
) -> None:
    page = phone.new_page()
    page.goto(published_site.url + LONG_CHAPTER)
    page.wait_for_function(LAID_OUT)
    assert set(page.evaluate(CONTENT_VISIBILITY)) == {"visible"}
    # Taken back, the marks show what the stylesheet does before the script comes by.
    page.evaluate("document.querySelectorAll('[data-grpo-laid-out]').forEach(b => delete b.dataset.grpoLaidOut)")
    before = page.evaluate(CONTENT_VISIBILITY)
    assert set(before[:15]) == {"visible"}  # the first screen's blocks are never held back
    assert len(before) > 50 and set(before[15:]) == {"auto"}
    page.emulate_media(media="print")
    assert set(page.evaluate(CONTENT_VISIBILITY)) == {"visible"}  # paper gets every block


def test_without_javascript_every_block_is_laid_out(browser: Browser, published_site: PublishedSite) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(published_site.url + LONG_CHAPTER)
    assert set(page.evaluate(CONTENT_VISIBILITY)) == {"visible"}
    context.close()


def test_once_laid_out_a_screen_reader_has_the_whole_page(phone: BrowserContext, published_site: PublishedSite) -> None:
    """Chromium leaves a block it has not laid out out of the accessibility tree: once the script is done, laying
    out every block by force adds nothing to it, and holding the later blocks back again takes from it."""
    page = phone.new_page()
    page.goto(published_site.url + LONG_CHAPTER)
    page.wait_for_function(LAID_OUT)
    found = _accessible_roles(page)
    page.add_style_tag(content=".md-content__inner > * { content-visibility: visible !important }")
    page.evaluate(TWO_FRAMES)
    whole = _accessible_roles(page)
    assert whole["paragraph"] > 30 and whole["MathMLMath"] > 30
    for role in ("paragraph", "heading", "table", "MathMLMath", "MathMLFraction", "figure", "list"):
        assert found[role] == whole[role], role
    page.evaluate("document.querySelectorAll('style:last-of-type').forEach(s => s.remove())")
    page.evaluate("document.querySelectorAll('[data-grpo-laid-out]').forEach(b => delete b.dataset.grpoLaidOut)")
    page.evaluate(TWO_FRAMES)
    assert _accessible_roles(page)["paragraph"] < whole["paragraph"]  # what this test would see if one were missed


def test_nothing_in_the_article_moves_while_its_blocks_are_laid_out(
    phone: BrowserContext, published_site: PublishedSite
) -> None:
    """The page's fonts are held back, so its text is set once, in the fallback fonts: a KaTeX font that arrives
    late re-sets the formulas in it, and a worked step on the first screen then wraps anew. That is the fonts'
    doing, not the later layout's (the rarer KaTeX fonts are not preloaded, a trade measured in
    benchmarks/rationale.md); on a busy machine it made this test fail at random on a step of /ppo/."""
    phone.route("**/*.woff2", lambda route: route.abort())
    phone.add_init_script(RECORD_SHIFTS)
    page = phone.new_page()
    page.goto(published_site.url + LONG_CHAPTER)
    page.wait_for_function(LAID_OUT)
    page.evaluate(TWO_FRAMES)
    assert page.evaluate("window.grpoShifts") == []


def test_a_link_to_the_last_heading_of_a_long_chapter_lands_on_it_once_all_is_laid_out(
    phone: BrowserContext, published_site: PublishedSite
) -> None:
    headings = re.findall(r'<h2 id="([^"]+)"', article(page_html(published_site.site, LONG_CHAPTER.strip("/"))))
    assert len(headings) > 4
    target = headings[-1]
    page = phone.new_page()
    page.goto(published_site.url + f"{LONG_CHAPTER}#{target}")
    page.wait_for_function(LAID_OUT)
    page.evaluate(TWO_FRAMES)
    top = page.locator(f"#{target}").evaluate("heading => heading.getBoundingClientRect().top")
    header = page.locator(".md-header").evaluate("header => header.getBoundingClientRect().bottom")
    assert header <= top < header + 100, (header, top)  # at the top of the screen, not under the header
