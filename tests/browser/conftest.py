"""A real Chromium, driven by Playwright, for the tests in this folder (and only them: see tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, Locator, Page, sync_playwright

from scripts.ensure_browser import HOW_TO_INSTALL, find_chromium
from tests.conftest import Server

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """A Chromium on this machine; without one the browser tests fail (in CI and out) with what to install."""
    path = find_chromium()
    if path is None:
        pytest.fail(HOW_TO_INSTALL, pytrace=False)
    return path


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Browser]:
    """One headless Chromium for the session, driven by Playwright."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@dataclass
class WatchedPage:
    """A browser page that records every request it makes and every console error it shows."""

    page: Page
    requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)

    def external_requests(self, server: Server) -> list[str]:
        """Requests that went anywhere but the local server (data: URLs are not requests to a host)."""
        return [url for url in self.requests if not url.startswith((server.url, "data:"))]


def watch(page: Page) -> WatchedPage:
    """Start recording a page's requests, console errors and uncaught exceptions."""
    watched = WatchedPage(page)
    page.on("request", lambda request: watched.requests.append(request.url))
    page.on("console", lambda message: watched.console_errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: watched.console_errors.append(str(error)))
    return watched


@pytest.fixture
def page(browser: Browser) -> Iterator[WatchedPage]:
    """A fresh desktop-sized page in its own context, watched."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield watch(context.new_page())
    context.close()


def page_top(element: Locator) -> float:
    """Where element starts, in CSS pixels from the top of the page (not of the window, which scrolls)."""
    return float(element.evaluate("e => e.getBoundingClientRect().top + scrollY"))


def assert_marked_invalid(box: Locator, valid: Locator) -> None:
    """A widget's number box holding what the widget does not take looks it, beside a valid one: an opaque border
    of another colour, drawn twice as thick (widgets.css grpo-number), the box no larger."""
    border, shadow = "e => getComputedStyle(e).borderTopColor", "e => getComputedStyle(e).boxShadow"
    assert box.evaluate(border).startswith("rgb(")  # opaque: not a tint a reader could miss
    assert box.evaluate(border) != valid.evaluate(border)
    assert "inset" in box.evaluate(shadow) and valid.evaluate(shadow) == "none"
    heights = [found["height"] for found in (box.bounding_box(), valid.bounding_box()) if found is not None]
    assert len(heights) == 2 and heights[0] == heights[1]


# The text of each inline code on the page that wraps between two letters or digits: a name cut where the line ran
# out, not at a separator (hooks/site/code_breaks.py), a space or a hyphen.
CODE_PARTED = r"""() => [...document.querySelectorAll('.md-content code')]
  .filter(code => !code.closest('pre') && code.checkVisibility() && code.getClientRects().length > 1)
  .filter(code => {
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT), range = document.createRange();
    let top = null, before = '';
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (let i = 0; i < text.length; i++) {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const box = range.getClientRects()[0];
        if (!box) continue;
        if (top !== null && box.top > top + 3 && /[A-Za-z0-9]/.test(before) && /[A-Za-z0-9]/.test(text.data[i])) {
          return true;
        }
        top = box.top;
        before = text.data[i];
      }
    }
    return false;
  })
  .map(code => code.textContent.slice(0, 60))"""
