"""When a page of the built book is whole in a browser: what a screenshot, the printed book and the browser tests
wait for after the page's load.

Two parts of a page come after it has loaded: the whole-book page's later chapters, which
docs/assets/javascripts/whole-book.js moves into the page, each in a section marked busy until then; and the
layout of every block below the first screen, which the browser does only near the screen until
overrides/partials/later-layout.html has done it, a few blocks a frame. Until both are done the page is shorter
than it will be, and a block not laid out has no text.
"""

from __future__ import annotations

from playwright.sync_api import Page

# True once no part of the page is still being filled in.
FILLED_IN = "() => document.querySelector('[aria-busy=\"true\"]') === null"

# True once every block of the page is laid out.
LAID_OUT = "() => document.querySelector('.md-content__inner > :not([data-grpo-laid-out])') === null"


def wait_until_whole(page: Page) -> None:
    """Wait until the page is filled in, then laid out (a chapter filled in goes into a block laid out already)."""
    page.wait_for_function(FILLED_IN)
    page.wait_for_function(LAID_OUT)
