"""A link, header cell or heading that is only a formula gets a name (hooks/site/math_labels.py): axe-core, and so
Lighthouse, takes none from MathML. Fed with the HTML the book's own Markdown and KaTeX make."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hooks.site.math_labels import label_lone_formulas, searchable
from tests.chapter_pipeline import page_html
from tests.conftest import add_pages, copy_project, mkdocs_build

TABLE = "| $`c`$ | $`\\pi_\\theta(c \\mid q)`$ | the candidate $`c`$ |\n|---|---|---|\n| a | b | c |\n"


def test_a_link_that_is_only_a_formula_is_named_by_its_mathml_text() -> None:
    labelled = label_lone_formulas(page_html("See [$`k_3`$](#k3) and [the $`k_3`$ estimator](#k3)."))
    assert labelled.count('<a href="#k3" aria-label="k3">') == 1  # only the first: the second has words
    assert labelled.count("<math") == 2  # the MathML stays for screen readers


def test_a_header_cell_that_is_only_a_formula_gets_text_for_screen_readers() -> None:
    labelled = label_lone_formulas(page_html(TABLE))
    headers = re.findall(r"<th>(.*?)</th>", labelled, re.DOTALL)
    assert headers[0].startswith('<span class="grpo-sr-only">c</span><span class="katex" aria-hidden="true">')
    assert headers[1].startswith('<span class="grpo-sr-only">πθ(c∣q)</span>')
    assert headers[2].startswith("the candidate") and "grpo-sr-only" not in headers[2]


def test_an_element_named_already_or_holding_more_is_left_alone() -> None:
    page = page_html('<a href="#x" aria-label="the estimator">$`k_3`$</a> and ## $`k_3`$ then words')
    assert label_lone_formulas(page) == page


def test_search_reads_each_formula_once_as_its_mathml_text() -> None:
    page = page_html("The policy $`\\pi_\\theta`$ and its ratio $`\\rho_t`$, in *words*.")
    assert page.count("\u03c0") == 2 and "\u200b" in page  # MathML and HTML for the eye; KaTeX's zero-width space
    assert searchable(page) == (
        '<p>The policy \u03c0\u03b8 and its ratio <span class="grpo-glued">\u03c1t,</span> in <em>words</em>.</p>'
    )


def test_search_leaves_out_a_formula_hidden_beside_its_text_and_keeps_what_it_cannot_read() -> None:
    headers = re.findall(r"<th>(.*?)</th>", searchable(label_lone_formulas(page_html(TABLE))), re.DOTALL)
    assert headers == [
        '<span class="grpo-sr-only">c</span>',
        '<span class="grpo-sr-only">\u03c0\u03b8(c\u2223q)</span>',
        "the candidate c",
    ]
    assert (
        searchable('<p>a <span class="katex"><span>never closed</p>')
        == '<p>a <span class="katex"><span>never closed</p>'
    )
    assert searchable("<p>x &lt; 1 &amp; <code>&lt;b&gt;</code></p>") == "<p>x &lt; 1 &amp; <code>&lt;b&gt;</code></p>"


def test_the_search_index_reads_each_formula_once_and_the_page_keeps_it_whole(built_site: Path) -> None:
    # Before: "o1,…,oGo1​,…,oG​" in a result's preview, the MathML's text then that of KaTeX's HTML.
    docs = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    assert [doc["location"] for doc in docs if "\u200b" in doc["text"] + doc["title"]] == []
    definition = next(doc["text"] for doc in docs if doc["location"] == "grpo/#the-definition")
    assert "responses o1,\u2026,oG from the policy" in definition
    page = (built_site / "grpo" / "index.html").read_text(encoding="utf-8")
    formulas = page.count('<span class="katex"')  # the served page keeps each formula's HTML for the eye
    assert len(re.findall(r'<span class="katex-html[ "][^>]*aria-hidden="true">', page)) == formulas > 30


def test_the_page_given_back_after_search_is_what_material_alone_would_serve(tmp_path: Path) -> None:
    # Material's plugin takes a valued data-search-* attribute out of the page it read; the page given back, too.
    project = copy_project(tmp_path / "book")
    front = "---\ntitle: Searched\ndescription: A page for the search index.\n---\n\n"
    text = front + '# Searched\n\n<p data-search-exclude="yes">Not for search.</p>\n\nThe policy $`\\pi_\\theta`$.\n'
    add_pages(project, {"searched.md": text})
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site" / "searched" / "index.html").read_text(encoding="utf-8")
    assert "<p>Not for search.</p>" in page and 'class="katex-html"' in page
    docs = json.loads((tmp_path / "site" / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    texts = [doc["text"] for doc in docs if doc["location"].startswith("searched/")]
    assert texts == ["<p>The policy \u03c0\u03b8.</p>"]


def test_the_search_index_holds_no_formula_as_tex(built_site: Path) -> None:
    # Indexed, the annotation put "\operatorname{mean}(r_1, \dots, r_G)" into the preview of a search result.
    docs = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    definition = next(doc["text"] for doc in docs if doc["location"] == "grpo/#the-definition")
    assert "mean\u2061(r1,…,rG)" in definition  # the formula, as its MathML reads
    tex = "r_1, \\dots, r_G"  # the TeX of that formula, which no page shows as code
    assert [doc["location"] for doc in docs if tex in doc["text"]] == []
