"""The group widget with groups the book's own examples never hold, in a real Chromium.

docs/guide/widgets.md's contract lets a page hand the widget any group: one response (groups.toml allows
it), rewards all equal, very large or tiny rewards, rewards that are not 0 or 1. The page is served with
its widget data replaced by such a group (written by hooks/chapters/groups.py itself, numpy's advantages
included, which the widget checks itself against on load), then every view, every convention and the edit
buttons are tried: nothing shows NaN, Infinity or undefined, every bar has a finite place, no console error.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect

import grpo_examples as gx
from hooks.chapters.groups import widget_data
from hooks.engine.widget import script_json
from scripts.page_ready import LAID_OUT
from tests.axe import run_axe
from tests.browser.conftest import WatchedPage
from tests.conftest import Server
from tests.site_html import site_pages

ODD_GROUPS = {
    "one response, right": [1.0],
    "one response, wrong": [0.0],
    "all equal": [1.0, 1.0, 1.0, 1.0],
    "all equal, not 0 or 1": [0.5, 0.5, 0.5],
    "not 0 or 1": [0.25, 0.5, 1.0, -0.5, 0.75],
    "very large": [1e150, -1e150, 3e149],
    "very large, one apart": [1e12, 0.0, 1.0],
    "tiny": [1e-150, 0.0, 3e-150],
    "sixteen, one wrong": [1.0] * 15 + [0.0],
}
# The data of each group widget on the page (other kinds of widget keep theirs).
_WIDGET_DATA = re.compile(
    r"(data-widget-kind=\"group\".*?<script\b[^>]*\bgrpo-widget__data\b[^>]*>).*?(</script>)", re.DOTALL
)
_BAD = re.compile(r"NaN|Infinity|undefined|null")


def _group(rewards: list[float]) -> gx.Group:
    """A group with these rewards, in all the widget reads of one: its question, its responses, and numpy's
    advantages under each convention, from grpo_examples. The verifier gives only 0 or 1, so no group of
    groups.toml can hold most of these rewards; the rest of the Group is the easy group's, which the widget's
    data does not carry."""
    population = gx.POPULATION.advantages(rewards).tolist()
    responses = tuple(
        gx.Response(f"response {i + 1}", None, None, reward, 0.0, advantage)
        for i, (reward, advantage) in enumerate(zip(rewards, population, strict=True))
    )
    variants = {key: gx.Variant(tuple(c.advantages(rewards).tolist()), {}, 0.0) for key, c in gx.CONVENTIONS.items()}
    return dataclasses.replace(
        gx.group("easy"),
        name="odd",
        title="the odd group",
        question="An odd group?",
        answer="yes",
        responses=responses,
        variants=variants,
    )


@pytest.fixture(scope="module")
def widget_page(site_server: Server, built_site: Path) -> str:
    """The address of a page that holds a group widget, found in the build."""
    for page in site_pages(built_site):
        if page != "print/" and 'data-widget-kind="group"' in (built_site / page / "index.html").read_text():
            return site_server.url + page
    raise AssertionError("no page of the book holds a group widget")


def _serve_with(page: Page, url: str, rewards: list[float]) -> None:
    data = script_json([widget_data([_group(rewards)])])

    def swap(route: Route) -> None:
        original = route.fetch()
        body = _WIDGET_DATA.sub(lambda m: m.group(1) + data + m.group(2), original.text())
        route.fulfill(response=original, body=body)

    page.route(url, swap)


def _problems(page: Page) -> list[str]:
    """Everything on the widget that is not a finite number where one belongs."""
    page.wait_for_function(LAID_OUT)  # a block not laid out yet has no innerText
    widget = page.locator(".gw").first
    problems = [f"text: {m.group()}" for m in _BAD.finditer(widget.inner_text())]
    rows = widget.locator("li.gw-response")
    for name in ("reward", "advantage"):
        for value in rows.evaluate_all(f"rs => rs.map(r => r.dataset.{name})"):
            if not math.isfinite(float(value)):
                problems.append(f"data-{name}={value}")
    styles = widget.locator(".gw-bar, .gw-mean, .gw-tick").evaluate_all("es => es.map(e => e.getAttribute('style'))")
    problems += [f"style: {s}" for s in styles if s and _BAD.search(s)]
    return problems


def _every_view(page: Page) -> Iterator[str]:
    for convention in gx.CONVENTIONS.values():
        page.get_by_label(convention.label, exact=True).check()
        for view in ("Rewards", "Advantages"):
            page.get_by_label(view, exact=True).check()
            yield f"{convention.key}, {view}"


@pytest.mark.parametrize("group", ODD_GROUPS)
def test_an_odd_group_shows_finite_numbers_in_every_view(page: WatchedPage, widget_page: str, group: str) -> None:
    rewards = ODD_GROUPS[group]
    _serve_with(page.page, widget_page, rewards)
    page.page.goto(widget_page)
    expect(page.page.locator(".gw").first).to_be_visible()
    assert page.page.locator("li.gw-response").count() == len(rewards)
    seen = {view: _problems(page.page) for view in _every_view(page.page)}
    assert {view: found for view, found in seen.items() if found} == {}
    # Then edited: a response flipped, one added, the last removed, in the sample-std convention.
    page.page.get_by_role("button", name=re.compile(r"^Response 1: mark")).click()
    for button in ("Add a wrong response", "Remove the last response"):  # each where G allows it (2 to 16)
        control = page.page.get_by_role("button", name=button)
        if control.is_enabled():
            control.click()
        assert _problems(page.page) == [], button
    assert page.console_errors == [], "the widget failed, or disagreed with numpy on the odd group"


def test_one_response_says_its_sample_std_is_not_defined(page: WatchedPage, widget_page: str) -> None:
    # A single reward has a population std (0) but no sample std (it divides by G - 1 = 0): the widget must
    # say so rather than print a number, and every advantage is 0, as grpo_examples gives.
    _serve_with(page.page, widget_page, [1.0])
    page.page.goto(widget_page)
    page.page.get_by_label("TRL: sample std + 1e-4", exact=True).check()
    page.page.get_by_label("Advantages", exact=True).check()
    assert gx.advantages([1.0], ddof=1, eps=1e-4).tolist() == [0.0]
    assert page.page.locator("li.gw-response").evaluate_all("rs => rs.map(r => r.dataset.advantage)") == ["0"]
    expect(page.page.locator(".gw-stats")).to_contain_text("not defined for G = 1")
    assert page.console_errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_widget_passes_axe_in_its_edited_states(browser: Browser, widget_page: str, scheme: str) -> None:
    # The page-wide check (tests/browser/test_every_page.py) sees the widget as it opens; these are the states a
    # reader makes: advantages on show, a trainer's convention, a flipped response, an all-equal group.
    context = browser.new_context(color_scheme="dark" if scheme == "dark" else "light")
    page = context.new_page()
    page.goto(widget_page)
    page.get_by_label("Advantages", exact=True).check()
    page.get_by_label("TRL: sample std + 1e-4", exact=True).check()
    page.get_by_role("button", name=re.compile(r"^Response 1: mark")).click()
    assert run_axe(page) == []
    page.get_by_role("button", name=re.compile(r"^Response 1: mark")).click()  # back as the verifier scored it
    page.get_by_role("button", name=re.compile(r"^Response 5: mark")).click()  # the easy group, all right now
    expect(page.locator(".gw-note")).to_contain_text("no learning signal")
    page.get_by_label("Rewards", exact=True).check()
    assert run_axe(page) == []
    context.close()


def test_the_reward_axis_runs_from_the_lowest_reward_to_the_highest(page: WatchedPage, widget_page: str) -> None:
    # Rewards are drawn from 0 on an axis that fits them, 0 included: [0.25, 0.5, 1.0, -0.5, 0.75] from -0.5 to
    # 1.0, span 1.5, so 0 sits a third of the way along. Each bar runs from 0 to its reward.
    _serve_with(page.page, widget_page, ODD_GROUPS["not 0 or 1"])
    page.page.goto(widget_page)
    ticks = page.page.locator(".gw-ticks .gw-tick").evaluate_all(
        "ts => ts.map(t => [t.textContent, parseFloat(t.style.left)])"
    )
    # (a style reads back to six significant digits)
    assert ticks == [["−0.5", 0], ["0", pytest.approx(100 / 3, abs=1e-3)], ["1", 100]]
    bars = page.page.locator("li.gw-response .gw-bar").evaluate_all(
        "bs => bs.map(b => [parseFloat(b.style.left), parseFloat(b.style.width)])"
    )
    third = 100 / 3
    expected = [[third, 0.25 / 1.5 * 100], [third, 0.5 / 1.5 * 100], [third, 2 * third], [0, third], [third, 50]]
    assert bars == [pytest.approx(bar, abs=1e-3) for bar in expected]
    assert page.console_errors == []
