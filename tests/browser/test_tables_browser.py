"""Tables in Chromium: nothing moves a built table after it is parsed (which is what cost a full restyle), and a
built table's computed style is, property for property, that of the same table styled by Material's own rules.
How the build wraps them is tests/site/test_tables.py."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser

from tests.conftest import Server
from tests.site_html import site_pages

# Every table removed from the document after the parser put it there, from the page's first script on: a
# parser only inserts, so any removal is a script's (Material's moved each table into its box on every load).
RECORD_REMOVED_TABLES = """
window.__removedTables = 0;
new MutationObserver(records => {
  for (const record of records) for (const node of record.removedNodes)
    if (node.nodeType === 1 && (node.matches('table') || node.querySelector('table'))) window.__removedTables++;
}).observe(document, { childList: true, subtree: true });
"""

# Once Material's components are up (its document$ has emitted) and a task later: each table, how it sits.
TABLES_SETTLED = """() => new Promise(resolve => document$.subscribe(() => setTimeout(() => resolve({
  removed: window.__removedTables,
  tables: [...document.querySelectorAll('article table')].map(t => ({
    in_box: t.parentElement.matches('.md-typeset__scrollwrap > .md-typeset__table'),
    boxed_once: t.parentElement.parentElement.parentElement.closest('.md-typeset__table') === null,
    classed: t.classList.contains('grpo-table'),
  })),
}), 0)))"""


def test_no_script_moves_a_table_and_each_sits_in_one_box(
    browser: Browser, site_server: Server, built_site: Path
) -> None:
    pages = [page for page in site_pages(built_site) if "<table" in (built_site / page / "index.html").read_text()]
    assert len(pages) >= 8, pages
    context = browser.new_context(viewport={"width": 412, "height": 823})
    context.add_init_script(RECORD_REMOVED_TABLES)
    seen = {}
    for path in pages:
        tab = context.new_page()
        tab.goto(site_server.url + path, wait_until="load")
        seen[path] = tab.evaluate(TABLES_SETTLED)
        tab.close()
    context.close()
    for path, found in seen.items():
        assert found["tables"], path
        assert found["removed"] == 0, path
        assert all(table == {"in_box": True, "boxed_once": True, "classed": True} for table in found["tables"]), path


# Beside a built table's box, the same box holding a copy of the table without its class, so that Material's
# own `table:not([class])` rules style the copy; then each element's computed style, copy against built. The
# book's own rule for its tables (book.css: tabular figures) is the one difference meant to be there; a table
# of three columns or more is laid out as cards on a phone (book.css), so there the table compared has two.
STYLE_DIFFERENCES = """selector => {
  const booksOwn = new Set(['font-variant', 'font-variant-numeric']);
  const box = document.querySelector(selector);
  const copy = box.cloneNode(true);
  copy.querySelector('table').removeAttribute('class');
  box.after(copy);
  const ours = [box, ...box.querySelectorAll('*')], theirs = [copy, ...copy.querySelectorAll('*')];
  const differences = [];
  ours.forEach((element, i) => {
    const a = getComputedStyle(element), b = getComputedStyle(theirs[i]);
    for (const property of a) {
      const built = a.getPropertyValue(property), material = b.getPropertyValue(property);
      if (!booksOwn.has(property) && built !== material)
        differences.push(`${element.tagName.toLowerCase()}.${property}: ${built} vs Material's ${material}`);
    }
  });
  copy.remove();
  return { compared: ours.length, differences: differences.slice(0, 20) };
}"""

View = Literal["light", "dark", "phone", "print"]


@pytest.mark.parametrize("path", ["grpo/", "glossary/"])
@pytest.mark.parametrize("view", ["light", "dark", "phone", "print"])
def test_a_built_table_is_styled_as_material_styles_its_own(
    browser: Browser, site_server: Server, path: str, view: View
) -> None:
    context = browser.new_context(
        viewport={"width": 412 if view == "phone" else 1280, "height": 900},
        color_scheme="dark" if view == "dark" else "light",
    )
    tab = context.new_page()
    if view == "print":
        tab.emulate_media(media="print")
    tab.goto(site_server.url + path, wait_until="load")
    box = "article .md-typeset__scrollwrap"
    found = tab.evaluate(STYLE_DIFFERENCES, f"{box}:not(:has(.grpo-table--stack))" if view == "phone" else box)
    context.close()
    assert found["compared"] > 20
    assert found["differences"] == []
