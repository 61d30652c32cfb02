"""Print, in Chromium: a chapter prints as text, formulas, figures and the widgets' static tables, without the
site's header, navigation, search or footer, dark on white whatever the palette; and the whole book (print/)
prints each chapter on new paper, filled in whether the reader prints before it is or follows a link into it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route

from scripts.page_ready import FILLED_IN
from tests.browser.conftest import watch
from tests.conftest import PublishedSite, Server
from tests.site_html import article, page_html

PALETTE = {"light": "default", "dark": "slate"}  # Material's scheme for each prefers-color-scheme

# What the site shows around a chapter on screen, and must not put on paper.
MACHINERY = {
    "header": ".md-header",
    "tabs and navigation": ".md-sidebar--primary",
    "table of contents": ".md-sidebar--secondary",
    "footer": ".md-footer",
    "search": ".md-search",
    "back-to-top button": ".md-top",
    "permalinks": ".headerlink",
    "the widget's controls": ".gw",
}


@pytest.fixture
def printed(browser: Browser, published_site: PublishedSite, request: pytest.FixtureRequest) -> Iterator[Page]:
    """The GRPO chapter (it has a widget and computed notes), laid out for print in the palette asked for."""
    context = browser.new_context(color_scheme=getattr(request, "param", "light"))
    page = context.new_page()
    page.goto(published_site.url + "grpo/")
    page.locator(".gw").first.wait_for()  # the widget has drawn itself, as a reader's would before printing
    page.emulate_media(media="print")
    yield page
    context.close()


def _shown(page: Page, selector: str) -> list[bool]:
    shown: list[bool] = page.locator(selector).evaluate_all("els => els.map(e => e.checkVisibility())")
    return shown


def test_a_chapter_prints_without_the_sites_machinery(printed: Page) -> None:
    on_paper = {what: selector for what, selector in MACHINERY.items() if any(_shown(printed, selector))}
    assert on_paper == {}
    assert all(_shown(printed, "article h1"))
    assert all(_shown(printed, ".katex")[:5])


def test_widgets_print_as_their_static_tables(printed: Page) -> None:
    tables = printed.locator(".grpo-widget__static table")
    assert tables.count() >= 2 and all(_shown(printed, ".grpo-widget__static table"))
    assert "−2.0" in tables.first.inner_text()  # the easy group's wrong answer, as the chapter states it


def _visible_text(page: Page, selector: str) -> list[str]:
    """The text of each shown element, its hidden parts left out. Not innerText: the book lays out far-off
    sections lazily (content-visibility), and innerText is empty for them until they are scrolled to."""
    texts: list[str] = page.locator(selector).evaluate_all(
        """els => els.filter(e => e.checkVisibility()).map(e => {
            const shown = (n) => n.nodeType === Node.TEXT_NODE ? n.textContent : n.nodeType !== Node.ELEMENT_NODE ? ""
                : getComputedStyle(n).display === "none" ? "" : [...n.childNodes].map(shown).join("");
            return shown(e).trim();
        })"""
    )
    return texts


# Words that speak of controls: a reader of paper, or of a page without JavaScript, has none.
CONTROLS = re.compile(
    r"\b(sliders?|drag|click|tap|try it|flip (a|the)|move the (two|probabilit)|and watch)\b", re.IGNORECASE
)


def test_on_paper_no_caption_or_paragraph_speaks_of_controls(printed: Page) -> None:
    captions = _visible_text(printed, "figure.grpo-widget figcaption")
    assert captions and all("as grpo_examples computed them" in c.lower() for c in captions), captions
    words = _visible_text(printed, "article p, article figcaption")
    assert [w for w in words if CONTROLS.search(w)] == []


def test_on_screen_the_drawn_widget_has_the_words_for_its_controls(browser: Browser, site_server: Server) -> None:
    for path in ("grpo/", "ppo/", "grpo-in-practice/"):
        context = browser.new_context()
        page = context.new_page()
        page.goto(site_server.url + path)
        page.locator("figure.grpo-widget--live figcaption .grpo-interactive").first.wait_for()  # drawn and shown
        captions = _visible_text(page, "figure.grpo-widget figcaption")
        assert captions and all("your browser recomputes" in c.lower() or CONTROLS.search(c) for c in captions), (
            path,
            captions,
        )
        assert all("as grpo_examples computed them" not in c.lower() for c in captions), (path, captions)
        context.close()


@pytest.mark.parametrize("path", ["grpo/", "ppo/", "grpo-in-practice/"])
def test_without_javascript_no_words_speak_of_controls(browser: Browser, site_server: Server, path: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_server.url + path)
    captions = _visible_text(page, "figure.grpo-widget figcaption")
    assert captions and all("as grpo_examples computed them" in c.lower() for c in captions), captions
    assert [w for w in _visible_text(page, "article p, article figcaption") if CONTROLS.search(w)] == []
    context.close()


def test_the_whole_book_on_screen_speaks_of_tables_not_controls(browser: Browser, site_server: Server) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_server.url + "print/")
    page.wait_for_function(FILLED_IN)
    captions = _visible_text(page, "figure.grpo-widget figcaption")
    assert len(captions) >= 3 and all("as grpo_examples computed them" in c.lower() for c in captions), captions
    # The reader's chapters; the author's guide, printed with them, describes the widgets' controls on purpose.
    chapters = ".grpo-book-chapter:not([id^='guide']) :is(p, figcaption)"
    assert [w for w in _visible_text(page, chapters) if CONTROLS.search(w)] == []
    context.close()


def test_notes_on_how_numbers_were_computed_print_open(printed: Page) -> None:
    notes = printed.locator("article details")
    assert notes.count() >= 2
    assert all(not open_ for open_ in notes.evaluate_all("ds => ds.map(d => d.open)"))  # closed on screen
    assert all(_shown(printed, "article details > :not(summary)"))


# What colours a printed page: its text, links, inline code, and the plots' series (a page with plots).
_COLOURS = """() => Object.fromEntries([
  ['text', 'article p', 'color'], ['link', 'article p a', 'color'], ['code', 'article code', 'color'],
  ['page', 'body', 'backgroundColor'],
  ...[1, 2, 3].map(i => [`series ${i}`, `.grpo-plot .grpo-series-${i}`, 'stroke']),
].map(([what, selector, property]) => [what, getComputedStyle(document.querySelector(selector))[property]]))"""


def test_the_dark_palette_prints_as_the_light_one(browser: Browser, published_site: PublishedSite) -> None:
    printed = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme)
        page = context.new_page()
        page.goto(published_site.url + "training-run/")
        assert page.evaluate("() => document.body.dataset.mdColorScheme") == PALETTE[scheme]
        # Material eases link colours over 125 ms; paper has no transitions, so neither does this reading.
        page.add_style_tag(content="*, *::before, *::after { transition: none !important; }")
        page.emulate_media(media="print")
        printed[scheme] = page.evaluate(_COLOURS)
        context.close()
    assert printed["dark"] == printed["light"]
    assert _luminance(printed["light"]["text"]) < 0.05 and _luminance(printed["light"]["page"]) > 0.9


def test_a_chapter_prints_to_a_pdf_of_a_few_pages(printed: Page, tmp_path: Path) -> None:
    pdf = printed.pdf(path=tmp_path / "grpo.pdf", format="A4")
    assert 2 <= _pages(pdf) <= 30


def _luminance(css_colour: str) -> float:
    """Relative luminance (WCAG) of an rgb()/rgba() colour, as browsers report computed colours."""
    r, g, b = (int(v) / 255 for v in re.findall(r"[\d.]+", css_colour)[:3])
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


# The whole book on one page


def test_the_whole_book_prints_each_chapter_on_new_paper(browser: Browser, published_site: PublishedSite) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(published_site.url + "print/")
    chapters = page.locator("section.grpo-book-chapter")
    assert chapters.count() >= 10
    page.emulate_media(media="print")
    breaks = chapters.evaluate_all("cs => cs.map(c => getComputedStyle(c).breakBefore)")
    assert set(breaks) == {"page"}
    assert _pages(page.pdf(format="A4")) >= chapters.count() + 1
    context.close()


def test_the_whole_book_shows_widgets_as_their_tables_and_loads_no_widget_script(
    browser: Browser, published_site: PublishedSite
) -> None:
    context = browser.new_context()
    watched = watch(context.new_page())
    watched.page.goto(published_site.url + "print/", wait_until="load")
    watched.page.wait_for_function(FILLED_IN)
    watched.page.wait_for_timeout(500)  # the loader would have asked for a widget's script by now
    figures = watched.page.locator("figure.grpo-widget")
    assert figures.count() >= 3  # the group, the clip and the KL widgets
    assert all(_shown(watched.page, "figure.grpo-widget .grpo-widget__static table"))
    assert [url for url in watched.requests if url.endswith("-widget.js")] == []
    assert watched.console_errors == []
    context.close()


# The whole book's chapters after the first come in <template>s, filled in by whole-book.js after load.

# Each chapter's id, and the elements and text of what it holds: in its template while it waits, else in it.
CHAPTERS = """() => [...document.querySelectorAll('section.grpo-book-chapter')].map(section => {
  const template = section.querySelector(':scope > template');
  const held = template ? template.content : section;
  return { id: section.id, waiting: template !== null, elements: held.querySelectorAll('*').length,
           text: held.textContent };
})"""
# whole-book.js has run: the chapters are parsed and no template is left in the page.
SCRIPT_RAN = """() => document.querySelectorAll('section.grpo-book-chapter').length >= 10
  && document.querySelector('section.grpo-book-chapter > template') === null"""
MATERIAL_BUNDLE = re.compile(r"/assets/javascripts/bundle\.[0-9a-f]+\.min\.js$")


def test_the_whole_book_fills_in_every_chapter_whole_and_in_order(
    browser: Browser, published_site: PublishedSite
) -> None:
    as_written = browser.new_context(java_script_enabled=False)
    page = as_written.new_page()
    page.goto(published_site.url + "print/")
    written = page.evaluate(CHAPTERS)
    assert page.locator("noscript").count() == 1
    as_written.close()
    # The first chapter is in the page from the start; every later one waits in its template.
    assert [chapter["waiting"] for chapter in written] == [False] + [True] * (len(written) - 1)

    context = browser.new_context()
    watched = watch(context.new_page())
    watched.page.goto(published_site.url + "print/")
    watched.page.wait_for_function(FILLED_IN)
    filled = watched.page.evaluate(CHAPTERS)
    assert [chapter["id"] for chapter in filled] == [chapter["id"] for chapter in written]
    for shown, held in zip(filled[1:], written[1:], strict=True):
        assert not shown["waiting"]
        assert (shown["elements"], shown["text"]) == (held["elements"], held["text"]), held["id"]
    assert watched.console_errors == []
    context.close()


@pytest.fixture
def whole_book_before_load(browser: Browser, published_site: PublishedSite) -> Iterator[Page]:
    """print/ with Material's script held back: the page never finishes parsing, so it never loads and
    whole-book.js never starts filling in by frames; only printing or a link can fill it."""
    context = browser.new_context()
    page = context.new_page()
    held: list[Route] = []
    page.route(MATERIAL_BUNDLE, lambda route: held.append(route))
    yield page
    for route in held:
        route.abort()
    context.close()


def _last_chapters_heading(published_site: PublishedSite) -> str:
    """The id of the first section heading of the book's last chapter: far down, with a screen's text below."""
    last_chapter = article(page_html(published_site.site, "print")).rsplit('<section class="grpo-book-chapter"', 1)[1]
    heading = re.search(r'<h[3-6] id="([^"]+)"', last_chapter)
    assert heading is not None
    return heading.group(1)


def test_printing_before_the_book_is_filled_in_prints_every_chapter(
    whole_book_before_load: Page, published_site: PublishedSite
) -> None:
    page = whole_book_before_load
    page.goto(published_site.url + "print/", wait_until="commit")
    page.wait_for_function(SCRIPT_RAN)
    assert page.evaluate("document.querySelectorAll('[aria-busy=\"true\"]').length") >= 10
    page.pdf(format="A4")  # the browser tells the page it is about to print, as a reader's Print does
    assert page.evaluate("document.readyState") == "loading"  # so only printing can have filled it in
    assert page.evaluate(FILLED_IN)
    assert page.locator(f"#{_last_chapters_heading(published_site)}").count() == 1


@pytest.mark.parametrize("arrival", ["the page's address", "a link on the page"])
def test_a_link_into_a_later_chapter_fills_it_in_and_lands_on_its_heading(
    whole_book_before_load: Page, published_site: PublishedSite, arrival: str
) -> None:
    page = whole_book_before_load
    target = _last_chapters_heading(published_site)
    if arrival == "the page's address":
        page.goto(published_site.url + f"print/#{target}", wait_until="commit")
        page.wait_for_function(SCRIPT_RAN)
    else:
        page.goto(published_site.url + "print/", wait_until="commit")
        page.wait_for_function(SCRIPT_RAN)
        assert not page.evaluate(FILLED_IN)
        page.evaluate(f"location.hash = '#{target}'")
    page.wait_for_function(FILLED_IN)
    assert page.evaluate("document.readyState") == "loading"
    top = page.locator(f"#{target}").evaluate("heading => heading.getBoundingClientRect().top")
    header = page.locator(".md-header").evaluate("header => header.getBoundingClientRect().bottom")
    assert header <= top < header + 100, (header, top)  # at the top of the screen, not under the header
