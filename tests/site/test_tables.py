"""Tables come wrapped from the build, Material's script leaves them in place, and they look as Material's own.

The unit tests' expected strings were written by hand from Material's markup (`renderTable` in its
source: `div.md-typeset__scrollwrap > div.md-typeset__table > table`) and its stylesheet's rules. The
browser tests are the judges: nothing removes a table from a built page after it is parsed (which is what
cost a full restyle), and a built table's computed style is, property for property, that of the same table
styled by Material's own rules.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser

from hooks.tables import CLASS, TableStyleError, material_stylesheet, retargeted_rules, wrap
from tests.conftest import Server
from tests.site_html import site_pages

WRAPPED = '<div class="md-typeset__scrollwrap"><div class="md-typeset__table"><table class="grpo-table">'
MATERIAL = Path(pytest.importorskip("material").__file__).parent
MATERIAL_STYLESHEETS = sorted(MATERIAL.glob("templates/assets/stylesheets/main.*.min.css"))


def test_a_table_without_a_class_comes_in_materials_box_with_the_books_class() -> None:
    html = "<p>x</p>\n<table>\n<tr><td>1</td></tr>\n</table>\n<p>y</p>"
    assert wrap(html) == f"<p>x</p>\n{WRAPPED}\n<tr><td>1</td></tr>\n</table></div></div>\n<p>y</p>"


def test_a_table_with_a_class_is_left_as_it_was() -> None:
    html = '<table class="highlighttable"><tr><td>1</td></tr></table>'
    assert wrap(html) == html


def test_a_tables_other_attributes_are_kept() -> None:
    assert wrap('<table id="t" style="x"></table>').startswith(
        '<div class="md-typeset__scrollwrap"><div class="md-typeset__table"><table class="grpo-table" id="t" style="x">'
    )


def test_each_closing_tag_closes_the_box_its_own_table_opened() -> None:
    inner_classed = '<table><tr><td><table class="c"><tr><td>i</td></tr></table></td></tr></table>'
    assert wrap(inner_classed) == (
        f'{WRAPPED}<tr><td><table class="c"><tr><td>i</td></tr></table></td></tr></table></div></div>'
    )
    outer_classed = '<table class="c"><tr><td><table><tr><td>i</td></tr></table></td></tr></table>'
    assert wrap(outer_classed) == (
        f'<table class="c"><tr><td>{WRAPPED}<tr><td>i</td></tr></table></div></div></td></tr></table>'
    )


def test_words_that_start_like_a_table_tag_are_not_tables() -> None:
    html = "<tbody></tbody><table-note>n</table-note><p>&lt;table&gt;</p>"
    assert wrap(html) == html


def test_materials_rules_are_retargeted_inside_their_media_blocks_and_the_rest_dropped() -> None:
    stylesheet = (
        '@charset "UTF-8";/* a comment {with braces} */html{color:red}'
        ".md-typeset table:not([class]) td,.md-typeset p{padding:0}"
        "@media print{.md-typeset table:not([class]){display:table}.md-header{display:none}}"
        "@media screen{.md-nav{margin:0}}"
    )
    assert retargeted_rules(stylesheet) == (
        ".md-typeset table.grpo-table td{padding:0}@media print{.md-typeset table.grpo-table{display:table}}"
    )


def test_a_stylesheet_without_materials_table_rule_fails_the_build() -> None:
    with pytest.raises(TableStyleError, match="no rule for"):
        retargeted_rules(".md-typeset td{padding:0}")
    with pytest.raises(TableStyleError, match="is mkdocs-material installed"):
        material_stylesheet(["/nonexistent"])


def test_every_rule_of_the_installed_material_for_its_tables_is_retargeted() -> None:
    assert len(MATERIAL_STYLESHEETS) == 1, MATERIAL_STYLESHEETS
    stylesheet = MATERIAL_STYLESHEETS[0].read_text(encoding="utf-8")
    rules = retargeted_rules(stylesheet)
    assert "table:not([class])" not in rules
    assert rules.count(f"table.{CLASS}") == stylesheet.count("table:not([class])")
    assert f"@media print{{.md-typeset table.{CLASS}{{display:table}}}}" in rules  # kept inside its @media


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


@pytest.mark.browser
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
# book's own rule for its tables (book.css: tabular figures) is the one difference meant to be there.
STYLE_DIFFERENCES = """() => {
  const booksOwn = new Set(['font-variant', 'font-variant-numeric']);
  const box = document.querySelector('article .md-typeset__scrollwrap');
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


@pytest.mark.browser
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
    found = tab.evaluate(STYLE_DIFFERENCES)
    context.close()
    assert found["compared"] > 20
    assert found["differences"] == []


def test_the_books_stylesheet_names_tables_by_the_class_the_build_gives_them() -> None:
    book_css = (Path(__file__).parent.parent / "docs/assets/stylesheets/book.css").read_text(encoding="utf-8")
    assert "table:not([class])" not in book_css, "a rule for classless tables matches none of the book's"
    assert re.search(rf"table\.{CLASS}\b", book_css)
