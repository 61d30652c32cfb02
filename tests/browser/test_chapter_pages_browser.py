"""The chapter pages in Chromium: the training run's plots in both palettes and on a phone, titles on a phone, and
nothing loaded from another host."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import WatchedPage
from tests.conftest import Server
from tests.site.test_chapter_pages import CHAPTERS
from tests.site_html import site_pages


@pytest.mark.parametrize("width", [1280, 360])
def test_training_run_renders_in_both_palettes(browser: Browser, site_server: Server, width: int) -> None:
    strokes = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        page.goto(site_server.url + "training-run/")
        overflow = page.evaluate(
            "Math.max(...[...document.querySelectorAll('.grpo-plot')].map(s => s.getBoundingClientRect().right))"
        )
        assert overflow <= width
        strokes[scheme] = page.evaluate(
            "getComputedStyle(document.querySelector('#training-reward .grpo-series-1')).stroke"
        )
        font = page.evaluate(
            "(() => { const t = document.querySelector('#training-reward text');"
            " return t.getBoundingClientRect().height; })()"
        )
        assert font >= 10  # tick labels stay readable on a phone
        context.close()
    assert strokes["light"] != strokes["dark"]


def test_no_title_keeps_a_line_for_its_hidden_permalink_on_a_phone(
    browser: Browser, built_site: Path, site_server: Server
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800})
    page = context.new_page()
    extra = {}
    for path in site_pages(built_site):
        page.goto(site_server.url + path)
        # How much taller the title is with its permalink than without it.
        extra[path] = page.evaluate("""() => {
          const title = document.querySelector('article h1'), link = title?.querySelector('.headerlink');
          if (!link) return 0;
          const before = title.getBoundingClientRect().height;
          link.remove();
          return before - title.getBoundingClientRect().height;
        }""")
    context.close()
    assert extra and all(height == 0 for height in extra.values()), extra


def test_chapters_load_only_local_files(page: WatchedPage, site_server: Server) -> None:
    for name in CHAPTERS:
        page.page.goto(site_server.url + name + "/")
    assert page.external_requests(site_server) == []
    assert page.console_errors == []


# Each inline formula's touching character (a parenthesis, a comma: no space between) that is not on the
# formula's line, and each formula held with its text that is wider than its column.
LOOSE_FORMULAS = """() => {
  const found = [], tex = (element) => element.querySelector('annotation')?.textContent;
  for (const formula of document.querySelectorAll('article .katex')) {
    if (formula.closest('.katex-display')) continue;
    const parts = [...formula.querySelector('.katex-html').getClientRects()].filter((r) => r.width > 0);
    const sides = [[formula.previousSibling, true, parts[0]], [formula.nextSibling, false, parts.at(-1)]];
    for (const [node, atEnd, part] of sides) {
      const text = node?.nodeType === Node.TEXT_NODE ? node.textContent : "";
      const at = atEnd ? text.length - 1 : 0;
      if (!part || !text || /\\s/.test(text[at])) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      const touching = range.getBoundingClientRect();
      if (touching.bottom <= part.top + 2 || touching.top >= part.bottom - 2) {
        found.push(`'${text[at]}' on another line than ${tex(formula)}`);
      }
    }
  }
  for (const glued of document.querySelectorAll('article .grpo-glued')) {
    const column = glued.parentElement.closest('p, li, td, th, dd, dt, div').getBoundingClientRect();
    if (glued.getBoundingClientRect().right > column.right + 1) {
      found.push(`${tex(glued)}: wider than its column with the text it touches (a space lets the line break)`);
    }
  }
  return found;
}"""


@pytest.mark.parametrize("width", [320, 360, 390, 1280])
def test_no_line_starts_with_a_formulas_comma_or_ends_on_its_parenthesis(
    browser: Browser, built_site: Path, site_server: Server, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    found = {}
    for path in site_pages(built_site):
        page.goto(site_server.url + path)
        found[path] = page.evaluate(LOOSE_FORMULAS)
    context.close()
    assert {path: loose for path, loose in found.items() if loose} == {}
