"""A chapter runs no code of its own on the published page and loads only the site's files (hooks/site/own_files.py).

Each refused case was published as written before this check, and would run in a reader's browser or fetch from
another host; each is written the way a chapter would write it (Markdown or raw HTML), drawn through the book's own
page hook and Markdown, and reported by the build's HTML check at its line.
"""

from __future__ import annotations

import pytest

from hooks import checks
from hooks.engine.report import Report
from hooks.site import images
from hooks.site.own_files import foreign
from tests.chapter_pipeline import PAGE, page_html

RUNS = "would run or embed code"
HANDLER = "an event handler"
ELSEWHERE = "the page would load a file from another host"
CHANGES = "changes how the whole page loads or looks"
PLAYS = "plays on the site only, and the book is also its PDF and EPUB: show a figure"
FORM = "<form> would send what a reader types to the address its action names"
ANIMATES = "can make a link run code or fetch from another host"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("<script>alert(1)</script>", RUNS),
        ("<SCRIPT SRC=/x.js></SCRIPT>", RUNS),
        ('<iframe src="https://example.org/"></iframe>', RUNS),
        ('<object data="x.swf"></object>', RUNS),
        ('<img src="x.png" onerror="alert(1)">', HANDLER),
        ("<img/onerror=alert(1) src=x>", HANDLER),  # a slash separates attributes too
        ('A word.\n{: onclick="alert(1)" }', HANDLER),  # attr_list writes it into the paragraph's tag
        ("[a link](javascript:alert(1))", "a javascript: address runs code"),
        ('<a href="java&#x09;script:alert(1)">a link</a>', "a javascript: address runs code"),  # a tab, dropped
        ("![a plot](https://example.org/plot.png)", ELSEWHERE + " (example.org)"),
        ("![a plot][plot]\n\n[plot]: //example.org/plot.png", ELSEWHERE + " (example.org)"),
        ('<img srcset="plot.png 1x, https://example.org/plot@2x.png 2x" alt="a plot">', ELSEWHERE),
        ('<p style="background: url(https://example.org/a.png)">x</p>', ELSEWHERE),
        ('<svg><image href="https://example.org/a.png"/></svg>', ELSEWHERE),
        # a form posts what a reader types where its action says: a page of the book asking for a password
        ('<form action="https://example.org/collect"><input name="password"><button>Go</button></form>', FORM),
        ('<FORM method=post><input name="email"></FORM>', FORM),
        # the book is also its PDF and EPUB, which cannot play them
        ('<video controls src="assets/run.mp4">The run</video>', PLAYS),
        ('<VIDEO poster="https://example.org/p.png"><source src="assets/run.webm"></VIDEO>', PLAYS),
        ('<audio controls><source src="assets/a.mp3" type="audio/mpeg"></audio>', PLAYS),
        ('<img src="//[example.org/a.png">', ELSEWHERE),  # an address urllib cannot split: no traceback
        ('<link rel="stylesheet" href="https://example.org/a.css">', CHANGES),
        ("<style>body { display: none }</style>", CHANGES),
        ('<meta http-equiv="refresh" content="0; url=https://example.org/">', CHANGES),
        # Chromium runs the address an animation sets when the reader clicks the link
        ('<svg><a><animate attributeName="href" values="javascript:alert(1)"/><text>a</text></a></svg>', ANIMATES),
        ('<svg><a><set attributeName=" xlink:href" to="javascript:alert(1)"/><text>a</text></a></svg>', ANIMATES),
        # Chromium posts to each address of ping when the reader follows the link: a tracker of every click
        ('<a href="ppo.md" ping="/here https://example.org/count">PPO</a>', "a link's ping= sends a request"),
        ('[PPO](ppo.md){: ping="https://example.org/count" }', "a link's ping= sends a request"),
    ],
)
def test_a_chapter_that_runs_code_or_loads_from_elsewhere_is_refused(line: str, message: str) -> None:
    [found] = foreign(page_html(f"# Page\n\nProse.\n\n{line}\n"))
    assert message in found.message, found


@pytest.mark.parametrize(
    "line",
    [
        "A [link to a site](https://example.org/paper.pdf), one [in the book](ppo.md#gae), a [mail](mailto:a@b.c).",
        "![a plot](assets/plot.svg) and ![inline bytes](data:image/png;base64,iVBORw0KGgo=)",
        "[The run, as a video](assets/run.mp4), and `<video>` written about, not shown",
        '<figure><img src="../assets/plot.svg" srcset="../assets/plot.svg 1x" alt="a plot"></figure>',
        "<div style=\"background: url('assets/a.png')\">x</div>",
        "On onclick= handlers, `<script>` tags and javascript: links: `<img src=x onerror=f()>`, &lt;script&gt;.",
        '```html\n<script src="https://example.org/x.js"></script>\n```',
        '<script type="application/json">{"a": 1}</script>',  # data, which the browser does not run
        "<!-- grpo:widget clip ppo -->",  # the book's own widget: its data is a script of JSON
        '<svg><circle r="4"><animate attributeName="r" values="4;8;4" dur="2s"/></circle></svg>',  # not a link
    ],
)
def test_links_own_files_code_and_prose_about_them_pass(line: str) -> None:
    assert foreign(page_html(f"# Page\n\n{line}\n")) == []


def test_every_one_is_reported_at_its_line_with_the_tag() -> None:
    source = "# Page\n\nProse.\n\n<img src=x.png alt=a onerror=alert(1)>\n\nMore.\n\n![a plot](https://example.org/plot.png)\n"
    report = Report()
    checks.check_html(page_html(source), checks.Source(PAGE, source), report)
    found = [(problem.line, problem.message.split(" (")[0], problem.offending) for problem, _ in report.problems()]
    assert found == [
        (5, "an event handler", "<img src=x.png alt=a onerror=alert(1)>"),
        (9, "the page would load a file from another host", '<img alt="a plot" src="https://example.org/plot.png" />'),
    ]


def test_an_image_without_words_is_reported_at_its_line() -> None:
    # Markdown publishes alt="" for ![](...), which says "decoration" to a screen reader, and axe lets it pass
    source = (
        "# Page\n\n![](assets/plot.png)\n\n![ ](assets/b.png)\n\n"
        '<img src="assets/c.png">\n\n![The clip range](assets/named.png) and <img src="assets/d.png" alt="A dot">\n'
    )
    report = Report()
    checks.check_html(page_html(source), checks.Source(PAGE, source), report)
    found = [(problem.line, problem.offending) for problem, _ in report.problems()]
    assert found == [
        (3, '<img alt="" src="assets/plot.png" />'),
        (5, '<img alt=" " src="assets/b.png" />'),
        (7, '<img src="assets/c.png">'),
    ], found
    assert all(problem.message == images.UNNAMED for problem, _ in report.problems())
    assert "say what it shows, ![The clip range of PPO](...)" in images.UNNAMED


def test_an_image_the_epub_cannot_hold_is_reported_at_its_line() -> None:
    # A WebP figure built the site, then stopped `make build` at the EPUB, named without its line
    source = (
        "# Page\n\n![A plot](assets/plot.webp)\n\n![A plot](assets/plot.PNG) ![A plot](assets/plot.jpeg?v=2)\n\n"
        '<img src="assets/b.avif" alt="A dot">\n\n![A dot](data:image/webp;base64,UklGRg==)\n\n![](assets/c.bmp)\n'
        "\n![A plot](https://example.org/plot)\n"  # refused once, as another host's, not also for its type
    )
    report = Report()
    checks.check_html(page_html(source), checks.Source(PAGE, source), report)
    found = [(problem.line, problem.message, problem.offending) for problem, _ in report.problems()]
    assert found == [
        (3, images.UNSHOWN_TYPE, '<img alt="A plot" src="assets/plot.webp" />'),
        (7, images.UNSHOWN_TYPE, '<img src="assets/b.avif" alt="A dot">'),
        (11, images.UNNAMED, '<img alt="" src="assets/c.bmp" />'),
        (11, images.UNSHOWN_TYPE, '<img alt="" src="assets/c.bmp" />'),
        (
            13,
            foreign('<img src="https://example.org/plot">')[0].message,
            '<img alt="A plot" src="https://example.org/plot" />',
        ),
    ], found
    assert "save it as one of those" in images.UNSHOWN_TYPE
