"""Chapter text and data text that must not act as anything but text (issue 21), through the book's own page hook
and Markdown (tests/chapter_pipeline.py): placeholders expand only in prose, the drift guard reads what a reader
reads in linear time, and a widget's JSON survives any string.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from hooks import checks
from hooks.engine import drift_guard, scan
from hooks.engine.placeholders import expand
from hooks.engine.report import Report
from hooks.engine.widget import script_json
from hooks.site import provenance
from tests.chapter_pipeline import PAGE, PROBLEM, page_html, refusal

VALUE = "<!-- grpo:value easy.mean -->"
SHOWN = '<span class="grpo-value"'


@pytest.mark.parametrize(
    "text",
    [
        f"Para.\n\n    {VALUE}\n\nNext.\n",  # an indented code block
        f"> ```\n> {VALUE}\n> ```\n",  # a fence inside a blockquote
        f"1. An item.\n\n        {VALUE}\n",  # code inside a list item: eight spaces
        f"!!! note\n\n        {VALUE}\n",  # code inside an admonition
        f"Text[^a].\n\n[^a]: A note.\n\n        {VALUE}\n",  # code inside a footnote
    ],
    ids=["indented", "quoted fence", "list", "admonition", "footnote"],
)
def test_a_placeholder_in_any_code_is_shown_as_written(text: str) -> None:
    html = page_html(text)
    assert SHOWN not in html
    assert "<code>" in html and "&lt;!-- grpo:value easy.mean --&gt;" in html


@pytest.mark.parametrize(
    "text",
    [
        f"1. An item.\n\n    A paragraph of it: {VALUE}.\n",
        f"!!! note\n\n    In the note: {VALUE}.\n",
        f"Text[^a].\n\n[^a]: A note.\n\n    More of it: {VALUE}.\n",
        f"Text[^a].\n\n[^a]: A note of {VALUE}.\n",  # a footnote is prose, not a link reference definition
        f"Term\n\n:   Its definition: {VALUE}.\n\n    More of it: {VALUE}.\n",
        f"> A quote: {VALUE}.\n",
    ],
    ids=["list paragraph", "admonition", "footnote", "footnote's first line", "definition", "blockquote"],
)
def test_a_placeholder_in_an_indented_paragraph_still_expands(text: str) -> None:
    html = page_html(text)
    assert html.count(SHOWN) == text.count(VALUE), html
    assert "grpo:value" not in html.replace("grpo_examples", "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f'<span title="{VALUE}">x</span>', "a placeholder inside an HTML tag"),
        (f'<a href="https://example.org/{VALUE}">x</a>', "a placeholder inside an HTML tag"),
        (f"[a link](https://example.org/{VALUE})", "a placeholder inside a link's address or title"),
        (f'[a link](page.md "{VALUE}")', "a placeholder inside a link's address or title"),
        (f'![an image](plot.svg "{VALUE}")', "a placeholder inside a link's address or title"),
        (f'[id]: https://example.org "{VALUE}"', "a placeholder inside a link's address or title"),
        (f"![a plot of {VALUE}](plot.svg)", "a placeholder in an image's description (its alt text)"),
        (f"![a plot of {VALUE}][plot]", "a placeholder in an image's description (its alt text)"),
        (f"*[GRPO]: Group Relative, {VALUE}", "a placeholder in an abbreviation's definition"),
        # attr_list writes these into the tag as they are: `<p title="mean <button ...">`
        (f'A paragraph {{: title="mean {VALUE}" }}', "a placeholder inside braces would land in an attribute list"),
        (f'## A heading {{ title="{VALUE}" }}', "a placeholder inside braces would land in an attribute list"),
        (f'[a link](page.md){{: title="{VALUE}" }}', "a placeholder inside braces would land in an attribute list"),
    ],
    ids=[
        "attribute",
        "href",
        "link",
        "link title",
        "image title",
        "reference",
        "image",
        "image by reference",
        "abbreviation",
        "attribute list",
        "heading's attribute list",
        "link's attribute list",
    ],
)
def test_a_placeholder_in_a_tag_or_a_link_is_an_error_at_its_line(text: str, message: str) -> None:
    error = refusal(f"# Page\n\nProse.\n\n{text}\n")
    found = [(int(m.group("line")), m.group("message")) for m in PROBLEM.finditer(error)]
    assert found and found[0][0] == 5 and found[0][1].startswith(message), found


def test_a_placeholder_beside_a_tag_or_a_link_expands() -> None:
    html = page_html(f'A <b>bold</b> {VALUE}, [a link](page.md) {VALUE} and `<span title="` {VALUE}.\n')
    assert html.count(SHOWN) == 3
    html = page_html(f"An image ![a plot](plot.svg) {VALUE} and ![another][plot] {VALUE}.\n\n[plot]: plot.svg\n")
    assert html.count(SHOWN) == 2
    html = page_html(f"An abbreviation, GRPO, and *emphasis* [GRPO]: {VALUE}.\n\n*[GRPO]: Group Relative\n")
    assert html.count(SHOWN) == 1 and '<abbr title="Group Relative">GRPO</abbr>' in html, html
    html = page_html(f"Braces {{: .note }} and a value {VALUE} {{beside them}}.\n")
    assert html.count(SHOWN) == 1


def test_a_value_in_a_links_text_keeps_its_provenance_as_a_title_not_a_button() -> None:
    # HTML allows no button inside a link, and a tap on the value would follow the link too
    html = provenance.disclose(page_html(f"See [the mean, {VALUE}](page.md) and {VALUE}.\n"), "page")
    [link] = re.findall(r"<a [^>]*>(.*?)</a>", html, re.DOTALL)
    assert link.startswith(f'the mean, {SHOWN} title="Computed at build time: grpo_examples.group('), link
    assert "<button" not in link
    assert html.count('<button type="button" class="grpo-value"') == 1  # the value beside the link: a button


def test_a_placeholder_markdown_kept_as_a_comment_is_reported() -> None:
    # the scan's idea of code and Markdown's disagree (raw HTML keeps its indented lines): the number would vanish
    report = Report()
    source = checks.Source(PAGE, f"# Page\n\n<div>\n\n    {VALUE}\n\n</div>\n")
    checks.check_html(f"<div>\n\n    {VALUE}\n\n</div>", source, report)
    [(problem, _)] = report.problems()
    assert (problem.file, problem.line, problem.offending) == (PAGE, 5, VALUE)
    assert "left as it stands" in problem.message


def test_code_lines_of_the_real_book_are_what_markdown_makes_code() -> None:
    # every line the scan calls code in the book's pages is inside a <pre> of the built page's Markdown: checked
    # the other way, through the real pages, by check_html in every build
    for page in sorted(checks.ROOT.joinpath("docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        assert all(not line.code or line.fence is not None for line in scan.lines(text)), page  # no indented code


# ---------------------------------------------------------------- the drift guard, on what a reader reads


@pytest.mark.parametrize(
    ("typed", "offending"),
    [
        ("80 %", "80 %"),
        ("80\u00a0%", "80\u00a0%"),
        ("⅘", "⅘"),
        ("4⁄5", "4⁄5"),
        ('[a link](page.md "0.8")', "0.8"),
        ("&minus;2.0", "−2.0"),
    ],
    ids=["percent with a space", "no-break space", "vulgar fraction", "fraction slash", "link title", "minus entity"],
)
def test_the_guard_reads_numbers_in_every_form_a_reader_sees(typed: str, offending: str) -> None:
    found = drift_guard.findings(checks.book(), f"The number {typed} here.\n")
    assert [f.offending for f in found] == [offending]


def test_a_minus_entity_keeps_its_sign() -> None:
    [found] = drift_guard.findings(checks.book(), "An advantage of &minus;2.0.\n")
    assert "easy.advantage.wrong" in found.message  # −2.0, not hard.advantage.correct's +2.0


def test_a_line_of_thousands_of_markings_is_read() -> None:
    # each marking looked back over the whole line (41 s for 5,000 on a build); now a window and a bisection
    line = "7<!-- literal: ok --> " * 20_000 + "and 0.8<!-- literal: a coin --> too\n"
    assert drift_guard.findings(checks.book(), line) == []


def test_a_huge_exponent_is_read_without_computing_it() -> None:
    found = drift_guard.findings(checks.book(), "A 1e100000000, a 2e-99999999999999999999 and $`10^{-100000000}`$.\n")
    assert [f.offending for f in found] == ["1e100000000", "2e-99999999999999999999", "10^{-100000000}"]


def test_snippet_lines_are_not_read_as_numbers() -> None:
    text = '--8<-- "tests/site/new_chapter/sampling.md"\n\n--8<--\nREADME.md\n--8<--\n'
    assert drift_guard.findings(checks.book(), text) == []
    assert [(s.line, s.path) for s in scan.snippets(text)] == [
        (1, "tests/site/new_chapter/sampling.md"),
        (4, "README.md"),
    ]


# ---------------------------------------------------------------- a widget's JSON, whatever the data says


@pytest.mark.parametrize(
    "text", ["$`x^2`$", "</script><script>alert(1)</script>", "a & b", "line\nbreak", "`code`", "--8<-- x"]
)
def test_script_json_keeps_any_string_as_written(text: str) -> None:
    written = script_json({"text": text})
    assert json.loads(written) == {"text": text}
    assert not re.search(r"[<>&`$\n]", written)  # nothing Markdown, KaTeX or the HTML parser could act on


def test_fractions_of_the_vulgar_kind_have_their_value() -> None:
    [found] = drift_guard.findings(checks.book(), "Most of them, ⅘, were right.\n")
    assert "easy.mean" in found.message and Fraction(4, 5) == Fraction("0.8")


def test_a_line_of_thousands_of_spans_comments_and_placeholders_is_read() -> None:
    # each lookup of "is this inside a code span" walked every span of the line: n squared for a hostile line
    line = "`x` <!-- grpo:value easy.mean --> <!-- a note --> $`x`$ 7<!-- literal: x --> " * 20_000
    expanded = expand(checks.book(), line + "\n")
    assert expanded.problems == [] and expanded.markdown.count(SHOWN) == 20_000
    assert drift_guard.findings(checks.book(), line + "\n") == []
    assert scan.unclosed(line) is None


def test_a_character_a_reader_does_not_see_is_reported_at_its_line_and_column() -> None:
    # "The answer is \u202e56\u202c." is shown as "The answer is 65." in a browser and read as 56 in a review; a
    # zero-width space makes 0.8 on the page two numbers the drift guard cannot see. Each is named, and the line is
    # shown with each as <U+...>, which a terminal can neither hide nor reorder.
    source = "# Page\n\nProse.\n\nThe answer is \u202e56\u202c, and \u2067this\u2069.\n\nIts mean is 0.\u200b8.\n"
    report = Report()
    checks.invisible_characters(checks.Source(PAGE, source), report)
    found = [(problem.line, problem.column, problem.message, problem.offending) for problem, _ in report.problems()]
    assert [(number, column) for number, column, _, _ in found] == [(5, 15), (5, 18), (5, 25), (5, 30), (7, 15)]
    assert found[0][3] == "The answer is <U+202E>56<U+202C>, and <U+2067>this<U+2069>."
    assert found[4][3] == "Its mean is 0.<U+200B>8."
    assert found[0][2].startswith("the direction control U+202E (RIGHT-TO-LEFT OVERRIDE): remove it")
    assert found[4][2].startswith("the invisible character U+200B (ZERO WIDTH SPACE): remove it")
    assert "\u202e" not in report.text() and "\u200b" not in report.text()
    # and the page hook reports them, as the build and `make check` run it, where the drift guard saw nothing
    assert "7:15: the invisible character U+200B (ZERO WIDTH SPACE)" in refusal(source)
    assert "5:15: the direction control U+202E" in refusal(source)
