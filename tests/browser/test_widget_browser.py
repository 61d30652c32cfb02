"""The group widget in a real Chromium, on the real build: the port of the formula, then every control.

The port is checked against grpo_examples (the book's numpy) on generated reward vectors and against
tests/data/advantage-vectors.json, computed independently of the project. The UI is driven through the DOM
contract written down in docs/guide/widgets.md. Expected values are the chapter spec's (+0.5 / -2.0,
+2.0 / -0.5), the oracle's, or worked by hand in the comments.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator

import numpy as np
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

import grpo_examples as gx
from scripts.page_ready import LAID_OUT
from tests.browser.conftest import WatchedPage, watch
from tests.conftest import ROOT, Server

ORACLE = json.loads((ROOT / "tests" / "data" / "advantage-vectors.json").read_text())["groups"]
ORACLE_KEYS = {"population": "population", "trl": "trl_sample_eps_1e-4", "verl": "verl_sample_eps_1e-6"}
NBSP = "\u00a0"
ADVANTAGES = "cases => cases.map(([r, ddof, eps, rtol]) => window.grpoWidget.advantages(r, ddof, eps, rtol))"


def _vectors() -> list[list[float]]:
    """G = 2, all equal, one different, the book's groups, near-equal and random groups: 100 vectors."""
    rng = np.random.default_rng(20240205)
    vectors: list[list[float]] = [[1, 0], [0, 1], [0, 0], [1, 1], [0.25, 0.75], [-1, 1]]
    vectors += [[1.0] * g for g in (3, 5, 16)] + [[0.0] * g for g in (3, 16)] + [[0.5] * 4, [-0.3] * 7]
    vectors += [[1.0] * (g - 1) + [0.0] for g in range(3, 17)] + [[0.0] * (g - 1) + [1.0] for g in range(3, 17)]
    vectors += [[float(r) for r in gx.group(name).rewards] for name in gx.group_names()]
    vectors += [[0.9, 0.9 + 1e-15, 0.9 - 1e-15], [1e6, 1e6 + 1e-4, 1e6], [2.0, 2.0 + 1e-6, 2.0]]
    vectors += [rng.integers(0, 2, size=int(rng.integers(2, 17))).astype(float).tolist() for _ in range(30)]
    vectors += [rng.normal(size=int(rng.integers(2, 17))).round(6).tolist() for _ in range(20)]
    return vectors


def _rows(page: Page) -> Locator:
    return page.locator("li.gw-response")


def _attribute(page: Page, name: str) -> list[float]:
    values: list[str] = _rows(page).evaluate_all(f"rows => rows.map(row => row.dataset.{name})")
    return [float(value) for value in values]


def _shown(page: Page) -> list[str]:
    shown: list[str] = page.locator("li.gw-response .gw-value").all_inner_texts()
    return shown


def _summary(page: Page) -> str:
    return page.locator(".gw-summary").inner_text()


@pytest.fixture
def chapter(page: WatchedPage, site_server: Server) -> Iterator[Page]:
    """The GRPO chapter with its widget drawn; afterwards, no console error and nothing fetched off the machine."""
    page.page.goto(site_server.url + "grpo/")
    expect(page.page.locator("figure.grpo-widget .gw")).to_be_visible()
    page.page.wait_for_function(LAID_OUT)  # a block not laid out yet has no innerText
    yield page.page
    assert page.console_errors == []
    assert page.external_requests(site_server) == []


def test_the_port_matches_grpo_examples_on_a_hundred_vectors_and_every_convention(chapter: Page) -> None:
    vectors = _vectors()
    assert len(vectors) >= 50
    cases = [(r, c.ddof, c.eps, gx.EQUAL_REWARDS_RTOL) for r in vectors for c in gx.CONVENTIONS.values()]
    ours = chapter.evaluate(ADVANTAGES, cases)
    for (rewards, ddof, eps, _), js in zip(cases, ours, strict=True):
        expected = gx.advantages(rewards, ddof=ddof, eps=eps)
        assert js == pytest.approx(expected.tolist(), rel=1e-12, abs=1e-12), (rewards, ddof, eps)
    # Near-equal rewards (within the stated tolerance) are all-equal in both places: zeros, not unit sizes.
    near_equal = chapter.evaluate(ADVANTAGES, [([0.9, 0.9 + 1e-15, 0.9 - 1e-15], 0, 0.0, gx.EQUAL_REWARDS_RTOL)])
    assert near_equal == [[0, 0, 0]]


def test_the_port_matches_the_outside_oracle_on_all_its_groups(chapter: Page) -> None:
    conventions = gx.CONVENTIONS
    cases = [
        (g["rewards"], conventions[k].ddof, conventions[k].eps, gx.EQUAL_REWARDS_RTOL)
        for g in ORACLE
        for k in ORACLE_KEYS
    ]
    expected = [g[ORACLE_KEYS[k]] for g in ORACLE for k in ORACLE_KEYS]
    assert len(ORACLE) == 20
    for case, js, oracle in zip(cases, chapter.evaluate(ADVANTAGES, cases), expected, strict=True):
        assert js == pytest.approx(oracle, rel=1e-12, abs=1e-12), case


def test_without_the_tolerance_or_with_too_few_rewards_the_port_refuses(chapter: Page) -> None:
    refusals = chapter.evaluate(
        """() => [[[1, 0], 0, 0], [[], 0, 0, 1e-9], [[1], 1, 0, 1e-9]].map(args => {
             try { window.grpoWidget.advantages(...args); return "accepted"; } catch (e) { return e.message; }
           })"""
    )
    assert "tolerance" in refusals[0]
    assert "non-empty" in refusals[1]
    # One reward is all-equal before any std is needed: zero, as grpo_examples gives.
    assert refusals[2] == "accepted" and gx.advantages([1.0], ddof=1).tolist() == [0.0]


def test_it_opens_on_the_easy_group_showing_the_verifier_rewards(chapter: Page) -> None:
    expect(chapter.locator(".grpo-widget__static")).to_be_hidden()
    assert _attribute(chapter, "reward") == [1, 1, 1, 1, 0]
    assert _shown(chapter) == ["1", "1", "1", "1", "0"]
    assert _attribute(chapter, "advantage") == pytest.approx([0.5] * 4 + [-2.0])
    assert chapter.get_by_label("Rewards", exact=True).is_checked()
    expect(chapter.locator(".gw-response").nth(4)).to_contain_text("verifier: wrong")


def test_the_toggle_turns_every_reward_into_its_advantage_and_back(chapter: Page) -> None:
    bar = chapter.locator(".gw-response .gw-bar").nth(4)
    assert bar.evaluate("b => getComputedStyle(b).transitionDuration").startswith("0.5s")
    before = bar.bounding_box()
    chapter.get_by_label("Advantages", exact=True).check()
    assert _shown(chapter) == ["+0.5"] * 4 + ["−2.0"]
    expect(chapter.locator(".gw-response").nth(4)).to_have_class("gw-row gw-response gw-down")
    expect(chapter.locator(".gw-note")).to_contain_text("Being wrong is rare here (1 of 5)")
    expect(chapter.locator(".gw-note")).to_contain_text("4 times")
    chapter.wait_for_timeout(700)  # let the bar finish moving
    after = bar.bounding_box()
    track = chapter.locator(".gw-response .gw-track").nth(4).bounding_box()
    assert before is not None and after is not None and track is not None
    # The wrong answer's bar grows from nothing at 0, the reward axis's left end, to two units left of zero:
    # from the left end of the advantage axis (-2) to its middle (0).
    assert after["width"] > before["width"] + 50
    assert after["x"] == pytest.approx(track["x"], abs=1)
    assert after["x"] + after["width"] == pytest.approx(track["x"] + track["width"] / 2, abs=1)
    chapter.get_by_label("Rewards", exact=True).check()
    assert _shown(chapter) == ["1", "1", "1", "1", "0"]


def _bar_widths(page: Page) -> list[float]:
    widths: list[str] = page.locator(".gw-response .gw-bar").evaluate_all("bars => bars.map(b => b.style.width)")
    return [float(width.rstrip("%")) for width in widths]


def test_every_bar_of_both_problems_is_drawn_on_one_scale(chapter: Page) -> None:
    chapter.get_by_label("Advantages", exact=True).check()
    easy = _bar_widths(chapter)
    assert easy[4] == pytest.approx(4 * easy[0])  # |-2.0| against |+0.5|
    chapter.get_by_label("The hard problem", exact=True).check()
    hard = _bar_widths(chapter)
    assert hard[0] == pytest.approx(easy[4]) and hard[1] == pytest.approx(easy[0])  # +2.0 and -0.5, same lengths
    # Rewards have their own axis, from 0 to 1 (tests/browser/test_group_widget_browser.py): a reward of 1 fills it.
    chapter.get_by_label("Rewards", exact=True).check()
    assert _bar_widths(chapter) == pytest.approx([100] + [0] * 4)


def test_the_hard_problem_reverses_the_signs(chapter: Page) -> None:
    chapter.get_by_label("Advantages", exact=True).check()
    chapter.get_by_label("The hard problem", exact=True).check()
    expect(chapter.locator(".gw-question")).to_contain_text("2^100")
    assert _attribute(chapter, "reward") == [1, 0, 0, 0, 0]
    assert _shown(chapter) == ["+2.0"] + ["−0.5"] * 4
    expect(chapter.locator(".gw-summary")).to_contain_text("Switched to the hard problem")
    box = chapter.locator(".gw-summary").bounding_box()  # spoken, not shown: the bars above show the same numbers
    assert box is not None and box["width"] <= 1 and box["height"] <= 1
    chapter.get_by_label("The easy problem", exact=True).check()
    assert _shown(chapter) == ["+0.5"] * 4 + ["−2.0"]


def test_flipping_marks_the_reward_as_yours_and_an_all_equal_group_teaches_nothing(chapter: Page) -> None:
    chapter.get_by_label("Advantages", exact=True).check()
    chapter.get_by_role("button", name="Response 5: mark correct").click()
    fifth = chapter.locator(".gw-response").nth(4)
    assert fifth.get_attribute("data-edited") == "true"
    expect(fifth).to_contain_text("reward set by you: correct")
    expect(fifth).not_to_contain_text("verifier:")  # \boxed{54} is never called correct by the verifier
    assert _attribute(chapter, "reward") == [1] * 5
    assert _attribute(chapter, "advantage") == [0] * 5
    assert _shown(chapter) == ["0.0"] * 5
    expect(chapter.locator(".gw-note")).to_contain_text("no learning signal")
    expect(chapter.locator(".gw-edited")).to_contain_text("set by you, not by the verifier")
    expect(chapter.locator(".gw-summary")).to_contain_text("Response 5 set to correct by you")
    # Flipping back restores the verifier's own verdict; Reset does the same for the whole group.
    chapter.get_by_role("button", name="Response 5: mark wrong").click()
    assert fifth.get_attribute("data-edited") == "false"
    chapter.get_by_role("button", name="Response 1: mark wrong").click()
    # [0, 1, 1, 1, 0]: mean 3/5, population std sqrt(0.24); A = 0.4/sqrt(0.24) and -0.6/sqrt(0.24).
    assert _attribute(chapter, "advantage") == pytest.approx(
        [-0.6 / math.sqrt(0.24)] + [0.4 / math.sqrt(0.24)] * 3 + [-0.6 / math.sqrt(0.24)]
    )
    chapter.get_by_role("button", name="Reset").click()
    assert _attribute(chapter, "reward") == [1, 1, 1, 1, 0]
    assert _rows(chapter).evaluate_all("rows => rows.map(row => row.dataset.edited)") == ["false"] * 5
    expect(chapter.locator(".gw-edited")).to_be_empty()


def test_adding_and_removing_responses_keeps_g_between_2_and_16(chapter: Page) -> None:
    chapter.get_by_label("Advantages", exact=True).check()
    chapter.get_by_role("button", name="Add a wrong response").click()
    # [1, 1, 1, 1, 0, 0]: mean 2/3, std sqrt(2)/3, so A = +1/sqrt(2) and -sqrt(2).
    assert _attribute(chapter, "advantage") == pytest.approx([1 / math.sqrt(2)] * 4 + [-math.sqrt(2)] * 2)
    assert _shown(chapter) == [f"≈{NBSP}+0.7071"] * 4 + [f"≈{NBSP}−1.4142"] * 2  # "≈" bound to its number
    expect(chapter.locator(".gw-response").nth(5)).to_contain_text("A response you added")
    expect(chapter.locator(".gw-response").nth(5)).to_contain_text("reward set by you")
    remove = chapter.get_by_role("button", name="Remove the last response")
    for _ in range(4):
        remove.click()
    assert _attribute(chapter, "reward") == [1, 1]
    assert _attribute(chapter, "advantage") == [0, 0]
    expect(remove).to_be_disabled()
    add = chapter.get_by_role("button", name="Add a correct response")
    for _ in range(14):
        add.click()
    assert _rows(chapter).count() == 16
    expect(add).to_be_disabled()
    expect(chapter.get_by_role("button", name="Add a wrong response")).to_be_disabled()
    chapter.get_by_role("button", name="Response 16: mark wrong").click()
    # Fifteen right, one wrong: A_wrong = -15/16 / sqrt(15/256) = -sqrt(15), beyond the old axis end of 2.
    assert _attribute(chapter, "advantage")[-1] == pytest.approx(-math.sqrt(15))
    assert chapter.locator(".gw-ticks").get_attribute("data-reach") == "4"


def test_the_convention_switch_uses_the_sample_std_and_each_trainers_epsilon(chapter: Page) -> None:
    easy = _oracle_group([1.0, 1.0, 1.0, 1.0, 0.0])
    chapter.get_by_label("Advantages", exact=True).check()
    chapter.get_by_label("TRL: sample std + 1e-4", exact=True).check()
    assert _attribute(chapter, "advantage") == pytest.approx(easy["trl_sample_eps_1e-4"], rel=1e-12)
    expect(chapter.locator(".gw-stats")).to_contain_text("sample std σₛ≈ 0.4472")
    expect(chapter.locator(".gw-stats")).to_contain_text("eps1e-4")  # as the convention's label writes it
    chapter.get_by_label("verl: sample std + 1e-6", exact=True).check()
    assert _attribute(chapter, "advantage") == pytest.approx(easy["verl_sample_eps_1e-6"], rel=1e-12)
    assert _shown(chapter)[-1] == f"≈{NBSP}−1.7889"
    expect(chapter.locator(".gw-source")).to_contain_text("volcengine/verl")  # the trainer's fact, with its source
    chapter.get_by_label("the book: population std", exact=True).check()
    assert _shown(chapter)[-1] == "−2.0"


def test_it_works_by_keyboard_alone_with_a_visible_focus(chapter: Page) -> None:
    chapter.get_by_label("The easy problem", exact=True).focus()
    chapter.keyboard.press("ArrowRight")  # radios: arrows move the choice
    assert chapter.get_by_label("The hard problem", exact=True).is_checked()
    chapter.keyboard.press("Tab")
    chapter.keyboard.press("ArrowRight")
    assert chapter.get_by_label("Advantages", exact=True).is_checked()
    outline = chapter.evaluate("() => getComputedStyle(document.activeElement.nextElementSibling).outlineStyle")
    assert outline == "solid"
    chapter.keyboard.press("Tab")
    assert chapter.evaluate("() => document.activeElement.getAttribute('aria-label')") == "Response 1: mark wrong"
    assert chapter.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") == "solid"
    chapter.keyboard.press("Enter")  # hard [0, 0, 0, 0, 0]: nobody right, nothing to learn
    assert _attribute(chapter, "advantage") == [0] * 5
    chapter.keyboard.press("Tab")
    chapter.keyboard.press("Space")  # [0, 1, 0, 0, 0]: the hard group again, with the right answer second
    assert _shown(chapter) == ["−0.5", "+2.0", "−0.5", "−0.5", "−0.5"]
    # Removing down to G = 2 disables "− last" under the focus: the focus moves on instead of being lost.
    chapter.get_by_role("button", name="Remove the last response").focus()
    for _ in range(3):
        chapter.keyboard.press("Enter")
    assert _rows(chapter).count() == 2
    assert chapter.evaluate("() => document.activeElement.getAttribute('aria-label')") == "Add a correct response"


def test_it_fits_a_360_pixel_screen(browser: Browser, site_server: Server) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800})
    watched = watch(context.new_page())
    watched.page.goto(site_server.url + "grpo/")
    watched.page.get_by_label("Advantages", exact=True).check()
    assert watched.page.evaluate("() => document.documentElement.scrollWidth") <= 360
    widget = watched.page.locator(".gw").bounding_box()
    assert widget is not None and widget["x"] >= 0 and widget["x"] + widget["width"] <= 360
    assert watched.console_errors == []
    context.close()


def test_reduced_motion_turns_the_transition_off(browser: Browser, site_server: Server) -> None:
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    page.goto(site_server.url + "grpo/")
    duration = page.locator(".gw-bar").first.evaluate("b => getComputedStyle(b).transitionDuration")
    assert duration == "0s"
    context.close()


def test_without_javascript_and_in_print_the_static_tables_show(browser: Browser, site_server: Server) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_server.url + "grpo/")
    static = page.locator(".grpo-widget__static")
    expect(static).to_be_visible()
    expect(static.locator("table")).to_have_count(2)
    expect(page.locator(".gw")).to_have_count(0)
    context.close()
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_server.url + "grpo/")
    expect(page.locator(".gw")).to_be_visible()
    page.emulate_media(media="print")
    expect(page.locator(".grpo-widget__static")).to_be_visible()
    expect(page.locator(".gw")).to_be_hidden()
    context.close()


def test_it_draws_after_following_a_link_and_coming_back(page: WatchedPage, site_server: Server) -> None:
    page.page.goto(site_server.url)
    page.page.get_by_role("link", name="Group Relative Policy Optimization").first.click()
    page.page.wait_for_url("**/grpo/")
    expect(page.page.locator("figure.grpo-widget .gw")).to_be_visible()
    page.page.get_by_label("Advantages", exact=True).check()
    assert _shown(page.page) == ["+0.5"] * 4 + ["−2.0"]
    # Away and back again: the page draws its widget once more, exactly one, from a fresh load of its script.
    page.page.get_by_role("link", name="Home").first.click()
    page.page.wait_for_url(site_server.url)
    page.page.go_back()
    expect(page.page.locator("figure.grpo-widget .gw")).to_have_count(1)
    assert page.console_errors == []
    assert page.external_requests(site_server) == []


def _oracle_group(rewards: list[float]) -> dict[str, list[float]]:
    found: dict[str, list[float]] = next(g for g in ORACLE if g["rewards"] == rewards)
    return found


def test_without_materials_script_it_still_draws_on_domcontentloaded(browser: Browser, site_server: Server) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.route("**/assets/javascripts/bundle.*.min.js", lambda route: route.abort())
    page.goto(site_server.url + "grpo/")
    assert page.evaluate("() => typeof window.document$") == "undefined"
    expect(page.locator("figure.grpo-widget .gw")).to_have_count(1)
    page.get_by_label("Advantages", exact=True).check()
    assert _shown(page) == ["+0.5"] * 4 + ["−2.0"]
    context.close()


def test_a_page_without_a_widget_loads_no_widget_script(page: WatchedPage, site_server: Server) -> None:
    page.page.goto(site_server.url + "glossary/")
    page.page.wait_for_load_state("networkidle")
    scripts = [url.rsplit("/", 1)[-1] for url in page.requests if url.endswith(".js")]
    assert "widgets.js" in scripts  # the loader, on every page
    assert not [name for name in scripts if name.endswith("-widget.js")]
    assert page.console_errors == []
