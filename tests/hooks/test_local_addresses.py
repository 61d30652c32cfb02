"""Every address of the site's own on a page names a file the site publishes (hooks/site/local_addresses.py).

MkDocs resolves a Markdown link from the chapter's file and leaves raw HTML as written, which the browser reads from
the page's address: before this check, `<img src="assets/figures/plot.png">` in docs/ppo.md built without a word and
was a broken image at /ppo/ (and an EPUB that epubcheck refused). Each case is the HTML a page of docs/ppo.md holds
after Markdown; the expected fix was worked out by hand from the page's address, /ppo/.
"""

from __future__ import annotations

import pytest

from hooks import checks
from hooks.engine.report import Report
from hooks.site.local_addresses import Site, unpublished

SITE = Site(
    frozenset({"index.html", "ppo/index.html", "grpo/index.html", "guide/index.html", "assets/figures/plot.png"}),
    {
        "index.md": "index.html",
        "ppo.md": "ppo/index.html",
        "grpo.md": "grpo/index.html",
        "guide/index.md": "guide/index.html",
    },
)


def _found(html: str, page: str = "ppo/index.html", source: str = "ppo.md") -> list[tuple[str, str]]:
    return [(found.address, found.message) for found in unpublished(html, page, source, SITE)]


@pytest.mark.parametrize(
    "html",
    [
        '<img alt="A plot" src="../assets/figures/plot.png" />',  # as MkDocs writes a Markdown image
        '<a href="../grpo/">GRPO</a> <a href="../grpo">GRPO</a> <a href="../">home</a>',
        '<a href="../grpo/#the-idea">the idea</a>',
        '<a href="#the-idea">x</a> <a href="?q=1">x</a> <a href="https://arxiv.org/abs/2402.03300">x</a>',
        '<a href="mailto:a@example.org">x</a> <img alt="a dot" src="data:image/png;base64,AAAA">',
        '<img srcset="../assets/figures/plot.png 1x, ../assets/figures/plot.png 2x" alt="a plot">',
        '<a href="../assets/figures/plot%2Epng">x</a> <a href="../assets/figures/plot.png?v=2">x</a>',
        # prose and code about HTML, and a comment, are no addresses
        '<p><code>&lt;img src="nosuch.png"&gt;</code> and <code>src=nosuch.png</code></p><!-- <img src="old.png"> -->',
        '<img data-src="nosuch.png" alt="x"> <span title="href=nosuch.html">x</span>',
    ],
)
def test_an_address_the_site_publishes_passes(html: str) -> None:
    assert _found(html) == []


def test_raw_html_written_from_the_chapters_file_is_told_the_address_from_the_page() -> None:
    found = _found('<p><img alt="A plot" src="assets/figures/plot.png"> and <a href="grpo.md">GRPO</a></p>')
    assert [address for address, _ in found] == ["assets/figures/plot.png", "grpo.md"]
    assert "write ../assets/figures/plot.png, or in Markdown ![...](assets/figures/plot.png), which" in found[0][1]
    assert "from the page's address, /ppo/, not from the chapter's file" in found[0][1]
    assert "write ../grpo/, or in Markdown [...](grpo.md), which MkDocs reads from the chapter's file" in found[1][1]


def test_the_fix_is_worked_out_from_each_pages_own_address() -> None:
    # docs/guide/examples.md is the page /guide/examples/: two folders down from the site's root, not one
    found = _found('<img src="../assets/figures/plot.png" alt="x">', "guide/examples/index.html", "guide/examples.md")
    assert "write ../../assets/figures/plot.png, or" in found[0][1]
    assert "from the page's address, /guide/examples/," in found[0][1]
    # docs/guide/index.md is the page /guide/, and docs/index.md the site's root: file and address agree
    assert _found('<img src="../assets/figures/plot.png" alt="x">', "guide/index.html", "guide/index.md") == []
    assert _found('<img src="assets/figures/plot.png" alt="x">', "index.html", "index.md") == []
    found = _found('<a href="ppo.md">PPO</a>', "index.html", "index.md")
    assert "write ppo/, or in Markdown [...](ppo.md)," in found[0][1]
    # a link MkDocs left as written (no .md: not a chapter's file to it), and one from a guide's page
    assert "write ../grpo/, or in Markdown [...](grpo.md)," in _found('<a href="grpo">GRPO</a>')[0][1]
    found = _found('<a href="../ppo.md">PPO</a>', "guide/examples/index.html", "guide/examples.md")
    assert "write ../../ppo/, or in Markdown [...](../ppo.md)," in found[0][1]


@pytest.mark.parametrize(
    ("html", "address", "words"),
    [
        ('<img src="../assets/nosuch.png" alt="x">', "../assets/nosuch.png", "the site has no file at"),
        ('<img src="../assets/figures/Plot.png" alt="x">', "../assets/figures/Plot.png", "the site has no file at"),
        ('<a href="../../outside/">x</a>', "../../outside/", "the site has no file at"),
        ('<video poster="nosuch.png"></video>', "nosuch.png", "the site has no file at"),
        ('<img srcset="../assets/figures/plot.png 1x, plot@2x.png 2x" alt="x">', "plot@2x.png", "the site has no file"),
        ('<a href="/grpo/">GRPO</a>', "/grpo/", "the book may be published under a path (SITE_URL)"),
        ("<IMG SRC='../assets/nosuch.png' ALT=x>", "../assets/nosuch.png", "the site has no file at"),
        ('<img src="../assets/n&#111;such.png" alt="x">', "../assets/nosuch.png", "the site has no file at"),
    ],
)
def test_an_address_that_names_nothing_is_reported_with_what_to_write(html: str, address: str, words: str) -> None:
    found = _found(html)
    assert [written for written, _ in found] == [address]
    assert words in found[0][1]


def test_the_root_address_of_a_page_is_given_relative() -> None:
    [(_, message)] = _found('<a href="/grpo/">GRPO</a>')
    assert message.endswith("write it from the page's address, /ppo/: ../grpo/")


def test_a_page_whose_text_lower_cased_is_longer_is_parsed() -> None:
    # 'İ' lower-cases to two characters: the fast search would read the wrong span; the parser reads the tags
    assert _found('<p>İİİ</p><img src="../assets/nosuch.png" alt="İ">') == [
        ("../assets/nosuch.png", _found('<img src="../assets/nosuch.png">')[0][1])
    ]
    assert _found('<p>İİİ</p><img src="../assets/figures/plot.png" alt="İ">') == []


def test_each_is_reported_at_its_line_of_the_chapter() -> None:
    source = '# PPO\n\nProse.\n\n<img src="assets/figures/plot.png" alt="A plot">\n\nMore <a href="/grpo/">GRPO</a>.\n'
    html = (
        '<h1>PPO</h1><p>Prose.</p><p><img src="assets/figures/plot.png" alt="A plot"></p>'
        '<p>More <a href="/grpo/">GRPO</a>.</p>'
    )
    report = Report()
    checks.check_addresses(html, checks.Source("docs/ppo.md", source), ("ppo/index.html", "ppo.md"), SITE, report)
    found = [(problem.file, problem.line, problem.offending) for problem, _ in report.problems()]
    assert found == [("docs/ppo.md", 5, "assets/figures/plot.png"), ("docs/ppo.md", 7, "/grpo/")]
