"""Tables come wrapped from the build, in Material's box with the book's class, and Material's table rules are
retargeted to that class (hooks/site/tables.py).

The expected strings were written by hand from Material's markup (`renderTable` in its source:
`div.md-typeset__scrollwrap > div.md-typeset__table > table`) and its stylesheet's rules. The browser tests
(tests/browser/test_tables_browser.py) are the judges: nothing removes a table from a built page after it is
parsed, and a built table's computed style is, property for property, that of the same table styled by
Material's own rules.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hooks.site.tables import (
    CLASS,
    STACK_CLASS,
    TableStyleError,
    material_stylesheet,
    retargeted_rules,
    wrap,
)
from tests.conftest import ROOT

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


def _table(header: list[str], *rows: list[str]) -> str:
    """A table as Python-Markdown writes one."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table>\n<thead>\n<tr>{head}</tr>\n</thead>\n<tbody>\n{body}\n</tbody>\n</table>"


def test_a_table_of_three_columns_is_marked_to_stack_and_each_cell_named_by_its_column() -> None:
    html = wrap(_table(["group", "mean", "A, wrong"], ["easy", "0.8", "−2.0"], ["hard", "0.2", "−0.5"]))
    assert f'<table class="{CLASS} {STACK_CLASS}">' in html
    assert re.findall(r'<td data-label="([^"]*)">([^<]*)</td>', html) == [
        ("group", "easy"), ("mean", "0.8"), ("A, wrong", "−2.0"),
        ("group", "hard"), ("mean", "0.2"), ("A, wrong", "−0.5"),
    ]  # fmt: skip


def test_a_table_of_two_columns_stays_a_table() -> None:
    table = _table(["symbol", "meaning"], ["G", "the group size"])
    assert wrap(table) == table.replace("<table>", WRAPPED, 1).replace("</table>", "</table></div></div>")


def test_a_label_is_what_a_screen_reader_reads_of_the_header() -> None:
    # A formula: its MathML's text, not KaTeX's HTML for the eye (aria-hidden) nor the TeX annotation.
    formula = (
        '<span class="katex"><span class="katex-mathml"><math><semantics><mrow><mi>μ</mi></mrow>'
        '<annotation encoding="application/x-tex">\\mu</annotation></semantics></math></span>'
        '<span class="katex-html" aria-hidden="true"><span class="mord">μ</span></span></span>'
    )
    # A computed value: its text, not the provenance its popover holds until opened.
    value = (
        '<button type="button" class="grpo-value" popovertarget="w">0.95</button>'
        '<span class="grpo-why" id="w" popover>Computed at build time: <code>x</code></span>'
    )
    html = wrap(_table([f"mean {formula}", f"λ = {value}", 'say "<b>&amp;</b>"'], ["1", "2", "3"]))
    assert re.findall(r'data-label="([^"]*)"', html) == ["mean μ", "λ = 0.95", "say &quot;&amp;&quot;"]


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


def test_the_books_stylesheet_names_tables_by_the_class_the_build_gives_them() -> None:
    book_css = (ROOT / "docs" / "assets" / "stylesheets" / "book.css").read_text(encoding="utf-8")
    assert "table:not([class])" not in book_css, "a rule for classless tables matches none of the book's"
    assert re.search(rf"table\.{CLASS}\b", book_css)


def test_a_labels_formula_keeps_its_scripts_and_accents() -> None:
    # ‖ĝ(c)‖² and θ₁ as MathML writes them: the label reads as the header looks, not "g^(c)…2" or "θ1".
    mathml = (
        "<mo>∥</mo><mover accent='true'><mi>g</mi><mo>^</mo></mover><mo>(</mo><mi>c</mi><mo>)</mo>"
        "<msup><mo>∥</mo><mn>2</mn></msup><mtext> at </mtext><msub><mi>θ</mi><mn>1</mn></msub>"
        "<msub><mi>ε</mi><mtext>high</mtext></msub>"
    )
    math = f"<math><semantics><mrow>{mathml}</mrow></semantics></math>"
    formula = f'<span class="katex"><span class="katex-mathml">{math}</span></span>'
    html = wrap(_table([f"miss {formula}", "b", "c"], ["1", "2", "3"]))
    assert re.findall(r'data-label="([^"]*)"', html)[0] == "miss ∥ĝ(c)∥² at θ₁εhigh"  # no subscript letters for high
