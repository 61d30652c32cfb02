"""Every page of the book as published, in a real Chromium: light and dark palettes, and a phone's width.

The pages are found in the build (tests/site_html.py site_pages), so a new chapter is checked by itself:
- axe-core (node_modules/axe-core, pinned in package.json) finds no accessibility violation at all, of any
  impact: Lighthouse's accessibility score is axe's, and the book aims at 100;
- nothing is written to the console as an error, and no request goes anywhere but the local server;
- every formula keeps KaTeX's MathML, and that MathML, not the visual HTML, is what a screen reader gets;
- on a wide screen no name in inline code is cut inside a word (on a phone: tests/browser/test_phone_browser.py);
- a code block that scrolls sideways is in the tab order before Material mounts it (as it comes into view),
  and on a touch screen, where Material gives none a tab stop, none is left a named group without one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from scripts.page_ready import LAID_OUT, wait_until_whole
from tests.axe import AXE, COLOUR_RULES, run_axe
from tests.browser.conftest import CODE_PARTED, watch
from tests.conftest import PublishedSite
from tests.site_html import site_pages

# prefers-color-scheme, and the Material scheme it selects
PALETTES: dict[Literal["light", "dark"], str] = {"light": "default", "dark": "slate"}

View = Literal["light", "dark", "phone"]
# Each view: its palette and its window. At a phone's width the navigation is a drawer, tables and wide formulas
# scroll sideways, and Lighthouse (which emulates a 412 px phone) sees the page so.
VIEWS: dict[View, tuple[Literal["light", "dark"], dict[str, int]]] = {
    "light": ("light", {"width": 1280, "height": 900}),
    "dark": ("dark", {"width": 1280, "height": 900}),
    "phone": ("light", {"width": 412, "height": 823}),
}

# True once every box shown that scrolls sideways can take focus and no other box shown was made to (the page's
# script decides it after layout: overrides/partials/a11y-script.html).
SCROLLABLES_SETTLED = """() => [...document.querySelectorAll(
    '.md-typeset__scrollwrap, .katex-display, .md-typeset pre > code')]
  .filter(box => box.checkVisibility())
  .every(box => (box.scrollWidth > box.clientWidth + 1) === (box.tabIndex === 0))"""

# The code blocks of a page, each as: does it scroll sideways, its tab stop, its role, has Material mounted it
# (its copy button's wrapper is in).
CODE_BLOCKS = """() => [...document.querySelectorAll('.md-typeset pre > code')].map(code => ({
  scrolls: code.scrollWidth > code.clientWidth + 1,
  tabindex: code.getAttribute('tabindex'),
  role: code.getAttribute('role'),
  mounted: code.parentElement.querySelector('.md-code__nav') !== null,
}))"""

# For each formula KaTeX wrote: is it shown, does it keep MathML with the TeX, is its HTML hidden from readers.
FORMULAS = """() => [...document.querySelectorAll('.katex')].map(k => ({
  shown: k.checkVisibility(),
  mathml: k.querySelectorAll(':scope > .katex-mathml > math').length === 1
    && k.querySelector('.katex-mathml annotation[encoding="application/x-tex"]') !== null,
  html_hidden: k.querySelector(':scope > .katex-html')?.getAttribute('aria-hidden') === 'true',
  read_as_text: k.getAttribute('aria-hidden') === 'true'
    && k.previousElementSibling?.classList.contains('grpo-sr-only') === true,
}))"""


@dataclass
class Visit:
    """What one page showed in one palette."""

    scheme: str
    violations: list[dict[str, Any]]
    console_errors: list[str]
    external_requests: list[str]
    formulas: list[dict[str, bool]]  # in the light palette only: the markup is the same in both
    math_in_accessibility_tree: int
    scrollables: int  # boxes that scroll sideways and took focus
    code_parted: list[str]  # in the light palette only: inline code cut inside a name (phones: test_phone_browser)


def _math_nodes(page: Page) -> int:
    """How many MathML formulas Chromium exposes to assistive technology."""
    session = page.context.new_cdp_session(page)
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    session.detach()
    return sum(1 for n in nodes if not n.get("ignored") and n.get("role", {}).get("value") == "MathMLMath")


@pytest.fixture(scope="module")
def visits(browser: Browser, published_site: PublishedSite) -> Iterator[dict[tuple[str, str], Visit]]:
    """Each page of the build, opened in each view: what axe, the console and the network saw."""
    pages = site_pages(published_site.site)
    assert len(pages) >= 10 and "" in pages and "grpo/" in pages and "print/" in pages
    seen: dict[tuple[str, str], Visit] = {}
    for view, (palette, window) in VIEWS.items():
        context = browser.new_context(color_scheme=palette, viewport=window)  # type: ignore[arg-type]
        context.add_init_script(path=AXE)  # in every page before its own scripts: no injection per page
        watched = watch(context.new_page())
        for path in pages:
            watched.requests.clear()
            watched.console_errors.clear()
            watched.page.goto(published_site.url + path)
            wait_until_whole(watched.page)  # axe, the formulas and the scroll boxes need every block
            with contextlib.suppress(PlaywrightTimeoutError):  # if it never settles, axe says which box is wrong
                watched.page.wait_for_function(SCROLLABLES_SETTLED, timeout=10_000)
            scheme = watched.page.evaluate("() => document.body.dataset.mdColorScheme")
            # Every rule in the light palette, wide and narrow; in the dark one, the rules that colours decide.
            violations = run_axe(watched.page, COLOUR_RULES if view == "dark" else None)
            light = view == "light"
            formulas = watched.page.evaluate(FORMULAS) if light else []
            seen[(view, path)] = Visit(
                scheme,
                violations,
                list(watched.console_errors),
                watched.external_requests(published_site),
                formulas,
                _math_nodes(watched.page) if light else 0,
                watched.page.locator(".md-typeset [data-grpo-scrolls]").count(),
                watched.page.evaluate(CODE_PARTED) if light else [],
            )
        context.close()
    yield seen


@pytest.mark.parametrize("view", VIEWS)
def test_axe_finds_no_violation_on_any_page(visits: dict[tuple[str, str], Visit], view: View) -> None:
    found = {path: v.violations for (seen_in, path), v in visits.items() if seen_in == view and v.violations}
    palette = VIEWS[view][0]
    assert all(v.scheme == PALETTES[palette] for (seen_in, _), v in visits.items() if seen_in == view)
    assert found == {}


@pytest.mark.parametrize("view", VIEWS)
def test_no_page_writes_a_console_error(visits: dict[tuple[str, str], Visit], view: View) -> None:
    found = {path: v.console_errors for (seen_in, path), v in visits.items() if seen_in == view and v.console_errors}
    assert found == {}


@pytest.mark.parametrize("view", VIEWS)
def test_no_page_makes_a_request_off_the_machine(visits: dict[tuple[str, str], Visit], view: View) -> None:
    found = {
        path: v.external_requests for (seen_in, path), v in visits.items() if seen_in == view and v.external_requests
    }
    assert found == {}


def test_at_a_phone_width_wide_tables_and_formulas_scroll_and_take_focus(
    visits: dict[tuple[str, str], Visit],
) -> None:
    # The fixture waited until exactly the boxes that scroll took focus; that some do is what makes it a test.
    assert sum(v.scrollables for (seen_in, _), v in visits.items() if seen_in == "phone") > 0


def test_on_a_wide_screen_no_name_in_code_is_cut_inside_a_word(visits: dict[tuple[str, str], Visit]) -> None:
    """A table's columns are as narrow as their content lets them be: a name in code must let its column shrink
    only to where it may break (a separator, a hyphen), or the column is cut inside a name on a desktop too."""
    parted = {path: visit.code_parted for (view, path), visit in visits.items() if visit.code_parted}
    assert parted == {}


def test_every_formula_keeps_its_mathml_for_screen_readers(visits: dict[tuple[str, str], Visit]) -> None:
    light = {path: v for (p, path), v in visits.items() if p == "light"}
    assert sum(len(v.formulas) for v in light.values()) > 50
    for path, visit in light.items():
        assert all(f["mathml"] and f["html_hidden"] for f in visit.formulas), path
        shown = sum(f["shown"] and not f["read_as_text"] for f in visit.formulas)
        # Chromium hands a screen reader one MathML formula per formula shown (hidden ones: closed notes;
        # a header cell that is only a formula is read from its text instead: hooks/site/math_labels.py).
        assert visit.math_in_accessibility_tree >= shown, path


def test_the_search_dialog_with_its_results_passes_axe(browser: Browser, published_site: PublishedSite) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(published_site.url + "grpo/")
    # The page behind the dialog as the other axe runs see it: filled in, laid out, its scroll boxes focusable.
    wait_until_whole(page)
    page.wait_for_function(SCROLLABLES_SETTLED)
    # Every animation ten times slower, as on a busy machine: the overlay's fade lasts 2.5 s, so the test shows
    # that it waits for the fade to end and not for a lucky moment (it failed so before that wait).
    session = context.new_cdp_session(page)
    session.send("Animation.enable")
    session.send("Animation.setPlaybackRate", {"playbackRate": 0.1})
    page.keyboard.press("/")  # Material's shortcut: opens the search
    page.keyboard.type("advantage")
    page.locator(".md-search-result__item").first.wait_for()
    # Material fades the overlay in; text behind a half-faded overlay fails axe's contrast rule on a busy machine.
    page.wait_for_function("() => document.getAnimations().length === 0")
    assert page.locator(".md-search").get_attribute("aria-label") == "Search"
    assert run_axe(page) == []
    context.close()


def test_the_not_found_page_is_served_under_the_site_path_with_its_styles(
    browser: Browser, published_site: PublishedSite
) -> None:
    context = browser.new_context()
    watched = watch(context.new_page())
    response = watched.page.goto(published_site.url + "no/such/chapter/")
    assert response is not None and response.status == 404
    assert watched.page.locator("h1").inner_text() == "Page not found"
    # Material's stylesheet arrived (absolute addresses under the site path): the header is laid out.
    assert watched.page.locator(".md-header").evaluate("h => getComputedStyle(h).position") == "sticky"
    home = watched.page.get_by_role("link", name="the first page of the book")
    assert home.evaluate("a => a.href") == published_site.url
    home.click()
    watched.page.wait_for_url(published_site.url)
    assert watched.page.title() == "GRPO, computed"
    # The only error is the browser's report of the 404 itself.
    assert [e for e in watched.console_errors if "404" not in e] == []
    assert watched.external_requests(published_site) == []
    assert run_axe(watched.page) == []
    context.close()


def test_at_a_phone_width_the_keyboard_scrolls_a_wide_formula(browser: Browser, published_site: PublishedSite) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 700})
    page = context.new_page()
    page.goto(published_site.url + "ppo/")
    page.wait_for_function(SCROLLABLES_SETTLED)
    wide = page.locator(".katex-display[tabindex='0']")
    assert wide.count() > 0 and wide.first.get_attribute("aria-label") == "Formula, scrolls sideways"
    wide.first.focus()
    page.keyboard.press("ArrowRight")
    # Chromium scrolls by keyboard smoothly, over a few frames.
    page.wait_for_function("box => box.scrollLeft > 0", arg=wide.first.element_handle(), timeout=5_000)
    # On a wide screen no formula of the chapter scrolls, and none stays in the tab order.
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_function(SCROLLABLES_SETTLED)
    assert wide.count() == 0
    context.close()


def test_a_code_block_takes_focus_before_material_mounts_it_in_view(
    browser: Browser, published_site: PublishedSite
) -> None:
    """Material mounts a code block (its copy button, its tab stop) only as it comes into view (content.lazy in
    mkdocs.yml): a block further down that scrolls sideways must be in the tab order already."""
    context = browser.new_context(viewport={"width": 412, "height": 823})
    page = context.new_page()
    page.goto(published_site.url + "guide/")
    page.wait_for_function(LAID_OUT)
    page.wait_for_function(SCROLLABLES_SETTLED)
    blocks = page.evaluate(CODE_BLOCKS)
    below = [block for block in blocks if not block["mounted"]]
    assert len(below) >= 3  # lazily mounted: most of the guide's nine blocks are below the first screen
    assert any(block["scrolls"] for block in below)
    assert all((block["tabindex"] == "0") == block["scrolls"] for block in blocks)
    last = page.locator(".md-typeset pre > code").last
    last.scroll_into_view_if_needed()
    page.wait_for_function(f"() => ({CODE_BLOCKS})().at(-1).mounted")
    assert page.evaluate(CODE_BLOCKS)[-1]["tabindex"] == blocks[-1]["tabindex"]
    context.close()


def test_on_a_touch_screen_no_code_block_is_left_a_group_without_a_tab_stop(
    browser: Browser, published_site: PublishedSite
) -> None:
    """On a screen without hover Material takes a code block's tab stop away as it mounts it; the page's own
    script must not have made it a named group first (overrides/partials/a11y-script.html)."""
    context = browser.new_context(viewport={"width": 412, "height": 823}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(published_site.url + "guide/")
    assert not page.evaluate("() => matchMedia('(hover)').matches")
    page.wait_for_function(LAID_OUT)
    codes = page.locator(".md-typeset pre > code")
    for index in range(codes.count()):
        codes.nth(index).scroll_into_view_if_needed()
    page.wait_for_function(f"() => ({CODE_BLOCKS})().every(block => block.mounted)")
    blocks = page.evaluate(CODE_BLOCKS)
    assert any(block["scrolls"] for block in blocks)
    assert [block for block in blocks if block["role"] or block["tabindex"]] == []
    context.close()
