"""The light/dark toggle (overrides/partials/palette.html) and what a page changes on <html> and <body> once its
content is in the document.

The toggle behaves as Material's own: the system's palette on a first visit, the reader's choice after it,
stored under Material's key, Enter switches from the keyboard, the browser's theme-color follows the header.
It is run while the header is parsed, so once the article is in the document nothing changes a class or
palette attribute of <html> or <body>: each such change would restyle every element of the page
(benchmarks/rationale.md, "Where a long chapter's start-up time went").
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.conftest import Server

WATCHED = ["class", "data-js-focus-visible", "data-md-color-scheme", "data-md-color-primary", "data-md-color-accent",
           "data-md-color-media", "data-md-color-switching"]  # fmt: skip

# Every change of a WATCHED attribute of <html> or <body>, and whether the article was already in the document.
RECORD_CHANGES = """
window.__changes = [];
new MutationObserver((records) => {
  const article = document.querySelector('article') !== null;
  for (const r of records)
    window.__changes.push({node: r.target.nodeName, attr: r.attributeName, old: r.oldValue, article});
}).observe(document, {subtree: true, attributes: true, attributeOldValue: true, attributeFilter: WATCHED});
""".replace("WATCHED", json.dumps(WATCHED))

# The changes that set a new value once the article existed (the value after each record is the next record's old
# value for the same attribute, or the value it has now).
LATE_CHANGES = """() => {
  const late = [];
  window.__changes.forEach((c, i) => {
    if (!['HTML', 'BODY'].includes(c.node)) return;
    const next = window.__changes.slice(i + 1).find(d => d.node === c.node && d.attr === c.attr);
    const now = next ? next.old : document.querySelector(c.node).getAttribute(c.attr);
    if (c.article && now !== c.old) late.push(`${c.node} ${c.attr}: ${c.old} -> ${now}`);
  });
  return late;
}"""


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(color_scheme="dark", viewport={"width": 1280, "height": 900})
    yield context
    context.close()


def _scheme(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.mdColorScheme"))


def _toggle(page: Page) -> str:
    """The title of the toggle the reader sees (the other one is hidden)."""
    return page.locator("form[data-grpo-palette] label:visible").get_attribute("title") or ""


def test_a_first_visit_takes_the_systems_palette_and_the_header_colours_the_browser(
    context: BrowserContext, site_server: Server
) -> None:
    page = context.new_page()
    page.goto(site_server.url + "grpo/")
    assert _scheme(page) == "slate"
    assert _toggle(page) == "Switch to light mode"
    header = page.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor")
    red, green, blue = (int(v) for v in header.removeprefix("rgb(").removesuffix(")").split(",")[:3])
    assert page.locator("meta[name=theme-color]").get_attribute("content") == f"#{red:02x}{green:02x}{blue:02x}"
    assert page.locator("meta[name=color-scheme]").get_attribute("content") == "dark"


def test_the_readers_choice_is_kept_across_pages(context: BrowserContext, site_server: Server) -> None:
    page = context.new_page()
    page.goto(site_server.url + "grpo/")
    page.locator("form[data-grpo-palette] label:visible").click()
    assert _scheme(page) == "default"
    assert _toggle(page) == "Switch to dark mode"
    expect(page.locator("body")).not_to_have_attribute("data-md-color-switching", "")  # the mark comes off again
    stored = page.evaluate("JSON.parse(localStorage.getItem(__md_scope.pathname + '.__palette'))")
    assert stored["index"] == 0 and stored["color"]["scheme"] == "default"
    page.goto(site_server.url + "ppo/")
    assert _scheme(page) == "default"  # the choice, though the system is dark


def test_enter_switches_the_palette_from_the_keyboard(context: BrowserContext, site_server: Server) -> None:
    page = context.new_page()
    page.goto(site_server.url + "grpo/")
    page.locator("#__palette_1").focus()
    page.keyboard.press("Enter")
    assert _scheme(page) == "default"
    page.keyboard.press("Enter")
    assert _scheme(page) == "slate"


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
def test_nothing_restyles_the_whole_page_once_its_article_is_in(
    browser: Browser, site_server: Server, color_scheme: str
) -> None:
    context = browser.new_context(color_scheme=color_scheme)  # type: ignore[arg-type]
    context.add_init_script(RECORD_CHANGES)
    page = context.new_page()
    page.goto(site_server.url + "ppo/", wait_until="load")
    page.wait_for_timeout(500)  # Material's components start after load
    assert page.evaluate("window.__changes.length") > 0  # the watch saw the page's own early settings
    assert page.evaluate(LATE_CHANGES) == []
    context.close()
