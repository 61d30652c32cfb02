"""The book on a phone, in a real Chromium: no page wider than the screen, every worked result in view, and a
computed value's provenance reached by a tap or a key.

Every page of the build is opened at 320, 360 and 412 px in both palettes. A displayed formula with steps
(hooks/site/katex_render.js) wraps them under each other on a narrow screen; its last step, where a worked
formula shows its result, must lie inside the screen without scrolling anything sideways.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Page

from scripts.page_ready import FILLED_IN, wait_until_whole
from tests.browser.conftest import CODE_PARTED
from tests.conftest import Server
from tests.site_html import site_pages

WIDTHS = (320, 360, 412)
PALETTES: tuple[Literal["light", "dark"], ...] = ("light", "dark")

# Per page: how wide the document is, and where each worked formula's last step (its result, a number) is laid
# out.
MEASURE = (
    r"""() => ({
  width: document.documentElement.scrollWidth,
  results: [...document.querySelectorAll('.md-content .katex-display')]
    .filter(box => box.checkVisibility() && box.querySelector('.grpo-steps'))
    .map(box => {
      const last = [...box.querySelectorAll('.grpo-steps__step')].at(-1);
      const r = last.getBoundingClientRect();
      const tex = box.querySelector('annotation').textContent;
      return {tex, left: r.left, right: r.right, scrolled: box.scrollLeft, worked: /\d\s*$/.test(last.textContent)};
    })
    .filter(result => result.worked),  // a result ends in a number; a general formula may still scroll
  // table cells a reader sees that lie past either edge of the screen, or in a box scrolled sideways
  cells_off: [...document.querySelectorAll('.md-content td')]
    .filter(cell => cell.checkVisibility())
    .filter(cell => { const r = cell.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth + 0.5; })
    .map(cell => (cell.dataset.label || '?') + ': ' + cell.innerText.slice(0, 30)),
  // cards' cells with some of their text in the label's column, the left quarter of the card: a cell's code
  // spans, links and words must flow together right of its label, not be laid out as separate items
  cells_split: [...document.querySelectorAll('.md-content td[data-label]')]
    .filter(cell => cell.checkVisibility() && getComputedStyle(cell).display !== 'table-cell')
    .filter(cell => {
      const box = cell.getBoundingClientRect(), walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      const lefts = [];
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        if (!text.textContent.trim() || text.parentElement.closest('.katex-mathml')) continue;
        const range = document.createRange();
        range.selectNodeContents(text);
        lefts.push(...[...range.getClientRects()].map(r => r.left));
      }
      return lefts.some(left => left - box.left < box.width / 4);
    })
    .map(cell => cell.dataset.label + ': ' + cell.innerText.slice(0, 30)),
  code_parted: ("""
    + CODE_PARTED
    + r""")(),
  advantage_cells: [...document.querySelectorAll('.md-content td[data-label]')]
    .filter(cell => cell.checkVisibility() && /^A(,|ᵢ|\b)|advantage/i.test(cell.dataset.label)).length,
})"""
)


@dataclass
class Seen:
    width: int
    results: list[dict[str, Any]]
    cells_off: list[str]
    cells_split: list[str]
    code_parted: list[str]
    advantage_cells: int


@pytest.fixture(scope="module")
def seen(browser: Browser, built_site: Path, site_server: Server) -> Iterator[dict[tuple[int, str, str], Seen]]:
    """Every page at every phone width in both palettes: its width and its worked results' places."""
    found: dict[tuple[int, str, str], Seen] = {}
    pages = site_pages(built_site)
    for width in WIDTHS:
        for palette in PALETTES:
            context = browser.new_context(color_scheme=palette, viewport={"width": width, "height": 800})
            page = context.new_page()
            for path in pages:
                page.goto(site_server.url + path)
                wait_until_whole(page)
                measured = page.evaluate(MEASURE)
                found[(width, palette, path)] = Seen(**measured)
            context.close()
    yield found


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_is_wider_than_the_screen(seen: dict[tuple[int, str, str], Seen], width: int) -> None:
    wider = {(p, path): s.width for (w, p, path), s in seen.items() if w == width and s.width > width}
    assert wider == {}


@pytest.mark.parametrize("width", WIDTHS)
def test_every_worked_result_is_on_the_screen(seen: dict[tuple[int, str, str], Seen], width: int) -> None:
    results = [(path, r) for (w, p, path), s in seen.items() if w == width and p == "light" for r in s.results]
    assert len(results) > 40  # the chapters' worked formulas are laid out in steps
    off = [(path, r["tex"][-60:]) for path, r in results if r["left"] < 0 or r["right"] > width or r["scrolled"]]
    assert off == []


@pytest.mark.parametrize("width", WIDTHS)
def test_every_table_cell_is_on_the_screen(seen: dict[tuple[int, str, str], Seen], width: int) -> None:
    off = {path: s.cells_off for (w, _, path), s in seen.items() if w == width and s.cells_off}
    assert off == {}
    split = {path: s.cells_split for (w, _, path), s in seen.items() if w == width and s.cells_split}
    assert split == {}
    # The group tables' advantage columns are among them: on /grpo/ each row's "A, correct" and "A, wrong".
    assert seen[(width, "light", "grpo/")].advantage_cells >= 10


@pytest.mark.parametrize("width", WIDTHS)
def test_a_long_name_in_code_wraps_at_a_separator_not_inside_a_word(
    seen: dict[tuple[int, str, str], Seen], width: int
) -> None:
    parted = {path: s.code_parted for (w, p, path), s in seen.items() if w == width and p == "light" and s.code_parted}
    assert parted == {}


def _open_popovers(page: Page) -> list[str]:
    return list(page.evaluate("() => [...document.querySelectorAll(':popover-open')].map(p => p.textContent)"))


def _expanded_buttons(page: Page) -> list[str]:
    """The buttons Chromium tells assistive technology are expanded: what a screen reader announces."""
    session = page.context.new_cdp_session(page)
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    session.detach()
    return [
        n.get("name", {}).get("value", "")
        for n in nodes
        if n.get("role", {}).get("value") == "button"
        and any(p["name"] == "expanded" and p["value"]["value"] for p in n.get("properties", []))
    ]


def test_a_tap_opens_a_values_provenance_and_a_tap_elsewhere_closes_it(browser: Browser, site_server: Server) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(site_server.url + "grpo/")
    mean = page.locator("button.grpo-value", has_text="0.8").first
    assert _open_popovers(page) == []
    mean.tap()
    assert _open_popovers(page) == ["Computed at build time: grpo_examples.group('easy').mean"]
    assert _expanded_buttons(page) == ["0.8"]
    why = page.locator(".grpo-why:popover-open").bounding_box()
    assert why is not None and why["x"] >= 0 and why["x"] + why["width"] <= 360  # on the phone's screen
    page.locator("h1").tap()
    assert _open_popovers(page) == []
    context.close()


def test_the_keyboard_reaches_a_values_provenance(browser: Browser, site_server: Server) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_server.url + "grpo/")
    page.wait_for_function(FILLED_IN)
    mean = page.locator("button.grpo-value", has_text="0.8").first
    for _ in range(400):  # Tab through the page, as a keyboard reader does, until the value has focus
        page.keyboard.press("Tab")
        if mean.evaluate("b => b === document.activeElement"):
            break
    assert mean.evaluate("b => b === document.activeElement")
    page.keyboard.press("Enter")
    assert _open_popovers(page) == ["Computed at build time: grpo_examples.group('easy').mean"]
    page.keyboard.press("Escape")
    assert _open_popovers(page) == []
    page.keyboard.press("Space")
    assert len(_open_popovers(page)) == 1
    context.close()


def test_a_value_does_not_look_like_an_abbreviation(browser: Browser, site_server: Server) -> None:
    page = browser.new_page()
    page.goto(site_server.url + "grpo/")
    style = page.locator("button.grpo-value").first.evaluate(
        "b => { const s = getComputedStyle(b); return [s.textDecorationStyle, s.textDecorationLine, s.cursor] }"
    )
    assert style[1] == "none" or style[0] != "dotted"
    assert style[2] == "pointer"
    page.close()
