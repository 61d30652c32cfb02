"""The policy-gradient chapter in Chromium: its plots in both palettes and on a phone, and nothing loaded from
another host."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import WatchedPage
from tests.conftest import Server
from tests.site.test_policy_gradients_page import PAGE


@pytest.mark.parametrize("width", [1280, 360])
def test_renders_in_both_palettes(browser: Browser, site_server: Server, width: int) -> None:
    fills = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        page.goto(site_server.url + PAGE + "/")
        right = page.evaluate(
            "Math.max(...[...document.querySelectorAll('.grpo-plot')].map(s => s.getBoundingClientRect().right))"
        )
        assert right <= width
        fills[scheme] = page.evaluate("getComputedStyle(document.querySelector('#bandit-variance circle')).fill")
        font = page.evaluate("document.querySelector('#bandit-simulation text').getBoundingClientRect().height")
        assert font >= 10  # labels stay readable on a phone
        vector = page.evaluate("getComputedStyle(document.querySelector('.grpo-vector')).whiteSpace")
        assert vector == "nowrap"
        context.close()
    assert fills["light"] != fills["dark"]


def test_loads_only_local_files(page: WatchedPage, site_server: Server) -> None:
    page.page.goto(site_server.url + PAGE + "/")
    assert page.external_requests(site_server) == []
    assert page.console_errors == []
