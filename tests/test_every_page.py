"""Every page of the book as published, in a real Chromium, in the light and the dark palette.

The pages are found in the build (tests/site_html.py site_pages), so a new chapter is checked by itself:
- axe-core (node_modules/axe-core, pinned in package.json) finds no accessibility violation at all, of any
  impact: Lighthouse's accessibility score is axe's, and the book aims at 100;
- nothing is written to the console as an error, and no request goes anywhere but the local server;
- every formula keeps KaTeX's MathML, and that MathML, not the visual HTML, is what a screen reader gets.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Page

from tests.axe import AXE, COLOUR_RULES, run_axe
from tests.conftest import PublishedSite, watch
from tests.site_html import site_pages

pytestmark = pytest.mark.browser

# prefers-color-scheme, and the Material scheme it selects
PALETTES: dict[Literal["light", "dark"], str] = {"light": "default", "dark": "slate"}

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


def _math_nodes(page: Page) -> int:
    """How many MathML formulas Chromium exposes to assistive technology."""
    session = page.context.new_cdp_session(page)
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    session.detach()
    return sum(1 for n in nodes if not n.get("ignored") and n.get("role", {}).get("value") == "MathMLMath")


@pytest.fixture(scope="module")
def visits(browser: Browser, published_site: PublishedSite) -> Iterator[dict[tuple[str, str], Visit]]:
    """Each page of the build, opened in each palette: what axe, the console and the network saw."""
    pages = site_pages(published_site.site)
    assert len(pages) >= 10 and "" in pages and "grpo/" in pages and "print/" in pages
    seen: dict[tuple[str, str], Visit] = {}
    for palette in PALETTES:
        context = browser.new_context(color_scheme=palette, viewport={"width": 1280, "height": 900})
        context.add_init_script(path=AXE)  # in every page before its own scripts: no injection per page
        watched = watch(context.new_page())
        for path in pages:
            watched.requests.clear()
            watched.console_errors.clear()
            watched.page.goto(published_site.url + path)
            scheme = watched.page.evaluate("() => document.body.dataset.mdColorScheme")
            # Every rule in the light palette; in the dark one, the rules that colours decide.
            violations = run_axe(watched.page, None if palette == "light" else COLOUR_RULES)
            light = palette == "light"
            formulas = watched.page.evaluate(FORMULAS) if light else []
            seen[(palette, path)] = Visit(
                scheme,
                violations,
                list(watched.console_errors),
                watched.external_requests(published_site),
                formulas,
                _math_nodes(watched.page) if light else 0,
            )
        context.close()
    yield seen


@pytest.mark.parametrize("palette", PALETTES)
def test_axe_finds_no_violation_on_any_page(
    visits: dict[tuple[str, str], Visit], palette: Literal["light", "dark"]
) -> None:
    found = {path: v.violations for (p, path), v in visits.items() if p == palette and v.violations}
    assert all(v.scheme == PALETTES[palette] for (p, _), v in visits.items() if p == palette)
    assert found == {}


@pytest.mark.parametrize("palette", PALETTES)
def test_no_page_writes_a_console_error(visits: dict[tuple[str, str], Visit], palette: str) -> None:
    found = {path: v.console_errors for (p, path), v in visits.items() if p == palette and v.console_errors}
    assert found == {}


@pytest.mark.parametrize("palette", PALETTES)
def test_no_page_makes_a_request_off_the_machine(visits: dict[tuple[str, str], Visit], palette: str) -> None:
    found = {path: v.external_requests for (p, path), v in visits.items() if p == palette and v.external_requests}
    assert found == {}


def test_every_formula_keeps_its_mathml_for_screen_readers(visits: dict[tuple[str, str], Visit]) -> None:
    light = {path: v for (p, path), v in visits.items() if p == "light"}
    assert sum(len(v.formulas) for v in light.values()) > 50
    for path, visit in light.items():
        assert all(f["mathml"] and f["html_hidden"] for f in visit.formulas), path
        shown = sum(f["shown"] and not f["read_as_text"] for f in visit.formulas)
        # Chromium hands a screen reader one MathML formula per formula shown (hidden ones: closed notes;
        # a header cell that is only a formula is read from its text instead: hooks/math_labels.py).
        assert visit.math_in_accessibility_tree >= shown, path


def test_the_search_dialog_with_its_results_passes_axe(browser: Browser, published_site: PublishedSite) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(published_site.url + "grpo/")
    page.keyboard.press("/")  # Material's shortcut: opens the search
    page.keyboard.type("advantage")
    page.locator(".md-search-result__item").first.wait_for()
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
