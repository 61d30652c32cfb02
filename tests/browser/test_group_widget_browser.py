"""The group widget's words and drawing, in a real Chromium: what the chapter says of it is true of what shows,
the reward view's axis fits the rewards, each number is written one way and "≈" keeps to its number, and the
spoken summary reads as sentences.

tests/browser/test_widget_browser.py drives the widget's controls and checks its port of the formula; here are
the details a reader sees (or hears) around those numbers. Expected values are worked by hand in the comments.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

import grpo_examples as gx
from scripts.page_ready import LAID_OUT
from tests.browser.conftest import WatchedPage
from tests.conftest import Server

FIGURE = 'figure.grpo-widget[data-widget-kind="group"]'
NBSP = "\u00a0"


@pytest.fixture
def chapter(page: WatchedPage, site_server: Server) -> Iterator[Page]:
    """The GRPO chapter with its group widget drawn; afterwards, no console error."""
    page.page.goto(site_server.url + "grpo/")
    expect(page.page.locator(f"{FIGURE} .gw")).to_be_visible()
    page.page.wait_for_function(LAID_OUT)  # a block not laid out yet has no innerText
    yield page.page
    assert page.console_errors == []


# ---------------------------------------------------------------- 1. the words after the widget


# Words that point at a table's parts: true of the static tables, not of the drawn widget, which has none.
TABLE_WORDS = re.compile(r"\b(columns?|rows?|tables?)\b", re.IGNORECASE)


@pytest.mark.parametrize("javascript", [True, False], ids=["drawn", "without JavaScript"])
def test_the_words_after_the_widget_are_true_of_what_shows(
    browser: Browser, site_server: Server, javascript: bool
) -> None:
    # The paragraph after the widget tells the reader what GRPO adds to the rewards. A reader with JavaScript
    # sees the drawn widget (no table: rows of bars, a Rewards/Advantages switch); one without sees the tables.
    # Both must find what it names, the advantage, and neither may be sent to a column they cannot see.
    context = browser.new_context(java_script_enabled=javascript)
    page = context.new_page()
    page.goto(site_server.url + "grpo/")
    figure = page.locator(FIGURE)
    words = page.locator(f"{FIGURE} + p").evaluate("p => p.textContent")
    assert "advantage" in words.lower(), words
    if javascript:
        expect(figure.locator(".gw")).to_be_visible()
        expect(figure.locator(".grpo-widget__static")).to_be_hidden()
        assert TABLE_WORDS.findall(words) == [], words
        # The drawn widget shows the advantage at once (its formula and the filled-in lines) and on every row
        # one choice away.
        expect(figure.locator(".gw-stats")).to_contain_text("Aᵢ = (rᵢ − μ) / σ")
        expect(figure.get_by_label("Advantages", exact=True)).to_be_visible()
    else:
        headers = figure.locator(".grpo-widget__static table").first.locator("th").all_inner_texts()
        assert "advantage Aᵢ" in headers, headers
    context.close()


# ---------------------------------------------------------------- 2. the axis of each view


def _axis(page: Page) -> dict[str, object]:
    """The tick labels and where each sits (percent of the track), and each bar's two ends in percent."""
    found: dict[str, object] = page.evaluate(
        """() => {
            const ticks = [...document.querySelectorAll('.gw-ticks .gw-tick')];
            const track = document.querySelector('.gw-response .gw-track').getBoundingClientRect();
            const ends = [...document.querySelectorAll('.gw-response .gw-bar')].map((bar) => {
                const box = bar.getBoundingClientRect();
                return [100 * (box.left - track.left) / track.width, 100 * (box.right - track.left) / track.width];
            });
            return {ticks: ticks.map((t) => [t.textContent, parseFloat(t.style.left)]), ends};
        }"""
    )
    return found


def test_the_reward_view_fits_its_axis_to_the_rewards(chapter: Page) -> None:
    chapter.add_style_tag(content=".gw-bar { transition: none !important; }")  # measured where they end up
    # Rewards of 0 and 1 on an axis from 0 to 1: a correct response's bar fills its track, a wrong one's has no
    # length (a 2 px stub at 0 shows where it is).
    axis = _axis(chapter)
    assert axis["ticks"] == [["0", 0], ["1", 100]]
    ends = axis["ends"]
    assert isinstance(ends, list)
    for start, end in ends[:4]:
        assert start == pytest.approx(0, abs=0.5) and end == pytest.approx(100, abs=0.5)
    assert ends[4][0] == pytest.approx(0, abs=0.5) and ends[4][1] < 2
    # The hard group's rewards are 0 and 1 too: the same axis.
    chapter.get_by_label("The hard problem", exact=True).check()
    assert _axis(chapter)["ticks"] == [["0", 0], ["1", 100]]


# Where each response's track draws its zero line.
ZERO_LINES = """() => [...document.querySelectorAll('.gw-response .gw-track')]
    .map((track) => getComputedStyle(track).backgroundPositionX)"""


def test_the_advantage_view_keeps_its_symmetric_axis(chapter: Page) -> None:
    chapter.add_style_tag(content=".gw-bar { transition: none !important; }")
    chapter.get_by_label("Advantages", exact=True).check()
    # Easy: +0.5 four times, -2.0 once, on -2..+2 with 0 in the middle.
    axis = _axis(chapter)
    assert axis["ticks"] == [["−2", 0], ["−1", 25], ["0", 50], ["+1", 75], ["+2", 100]]
    ends = axis["ends"]
    assert isinstance(ends, list)
    assert ends[0] == pytest.approx([50, 62.5], abs=0.5) and ends[4] == pytest.approx([0, 50], abs=0.5)
    # The zero line of every track is where 0 is on the axis: the middle here, the left end for rewards.
    assert set(chapter.evaluate(ZERO_LINES)) == {"50%"}
    chapter.get_by_label("Rewards", exact=True).check()
    assert set(chapter.evaluate(ZERO_LINES)) == {"0%"}


# ---------------------------------------------------------------- 3. one notation for epsilon


def test_epsilon_is_written_as_the_conventions_and_the_page_write_it(chapter: Page) -> None:
    # The conventions' labels ("TRL: sample std + 1e-4"), on the widget's buttons and in the page's conventions
    # table, write epsilon as 1e-4; the widget's statistics and filled-in formula must write it the same way.
    chapter.get_by_label("Advantages", exact=True).check()
    for convention in gx.CONVENTIONS.values():
        if convention.eps == 0:
            continue
        chapter.get_by_label(convention.label, exact=True).check()
        written = convention.label.rsplit(" + ", 1)[1]
        assert written == f"{convention.eps:.0e}".replace("e-0", "e-")  # 1e-4, 1e-6
        stats = dict(
            zip(
                chapter.locator(".gw-stats dt").all_inner_texts(),
                chapter.locator(".gw-stats dd").all_inner_texts(),
                strict=True,
            )
        )
        assert stats["eps"] == written
        worked = chapter.locator(".gw-worked").inner_text()
        assert worked.count(f" + {written})") == 2, worked  # one line for the correct, one for the wrong
    text = chapter.locator("article").inner_text()
    assert re.findall(r"0\.0+1\b", text) == []  # no epsilon spelt out in decimals anywhere on the page


# ---------------------------------------------------------------- 4. "≈" and its number


# Each "≈" in the widget, and whether it sits on the same line as the first character of the number after it.
APPROX = """(root) => {
    const found = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = node.data.indexOf('≈'); i >= 0; i = node.data.indexOf('≈', i + 1)) {
            const range = document.createRange();
            range.setStart(node, i); range.setEnd(node, i + 1);
            const sign = range.getClientRects()[0];
            range.setStart(node, i + 2); range.setEnd(node, i + 3);
            const next = range.getClientRects()[0];
            found.push({text: node.data.slice(Math.max(0, i - 12), i + 10), after: node.data[i + 1],
                        together: !sign || !next || Math.abs(sign.top - next.top) < 2});
        }
    }
    return found;
}"""


def test_approximately_never_parts_from_its_number(chapter: Page) -> None:
    # A sixth response, wrong: [1, 1, 1, 1, 0, 0] has mean 2/3, std sqrt(2)/3 and advantages ≈ +0.7071 and
    # ≈ −1.4142, so the statistics, each row, the filled-in formula and the note all write "≈". In a widget
    # squeezed to a few characters a line, every space is a place to break: none may come after a "≈".
    chapter.get_by_label("Advantages", exact=True).check()
    chapter.get_by_role("button", name="Add a wrong response").click()
    chapter.get_by_label("TRL: sample std + 1e-4", exact=True).check()
    widget = chapter.locator(".gw")
    squeezed = ".gw-stats dd, .gw-worked span, .gw-note, .gw-value"
    chapter.add_style_tag(content=squeezed + " { display: block; width: 4em; white-space: normal; }")
    found = widget.evaluate(APPROX)
    assert len(found) >= 8, found  # the stats, six rows, two formula lines and the note
    assert [f["text"] for f in found if f["after"] != NBSP] == []
    assert [f["text"] for f in found if not f["together"]] == []


# ---------------------------------------------------------------- 5. the spoken summary


LOWER_AFTER_STOP = re.compile(r"[.!?]\s+[a-z]")


def test_the_spoken_summary_starts_each_sentence_with_a_capital(chapter: Page) -> None:
    # Read aloud on every change; a sentence that starts in lower case ("wrong. the book: …") reads as a slip,
    # and a screen reader may not pause at it. Every convention, both views, an edit and an all-equal group.
    summary = chapter.locator(".gw-summary")
    heard = []
    for convention in gx.CONVENTIONS.values():
        chapter.get_by_label(convention.label, exact=True).check()
        heard.append(summary.inner_text())
        for view in ("Advantages", "Rewards"):
            chapter.get_by_label(view, exact=True).check()
            heard.append(summary.inner_text())
    chapter.get_by_role("button", name="Response 5: mark correct").click()  # all correct: no learning signal
    heard.append(summary.inner_text())
    chapter.get_by_label("The hard problem", exact=True).check()
    heard.append(summary.inner_text())
    assert all(h and h[0].isupper() for h in heard), heard
    assert [h for h in heard if LOWER_AFTER_STOP.search(h)] == []
