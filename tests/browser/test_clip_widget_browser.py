"""The clip widget in a real Chromium, on the real build: the port against grpo_examples, then every control.

The UI is driven through the DOM contract of docs/guide/widgets.md. Expected values are worked out by hand in
the comments (eps = 0.2 and A = +2 at the start, from grpo_examples/data/ppo.toml).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import Browser, Page, expect

import grpo_examples as gx
from hooks.engine.widget import script_json
from scripts.page_ready import LAID_OUT
from tests.browser.conftest import WatchedPage, assert_marked_invalid, page_top, watch
from tests.conftest import Server

SURROGATE = "cases => cases.map(([rho, A, eps]) => window.grpoClip.surrogate(rho, A, eps))"


def _points() -> list[tuple[float, float, float]]:
    """Random points, and for several eps the ends of the clip range, the floats beside them, and A = 0."""
    rng = np.random.default_rng(7)
    points = [
        (float(r), float(a), float(e))
        for r, a, e in zip(rng.uniform(0, 3, 300), rng.uniform(-4, 4, 300), rng.uniform(0.01, 0.99, 300), strict=True)
    ]
    for epsilon in (0.05, 0.1, 0.2, 0.28, 0.3, 0.5):
        for end in gx.clip_range(epsilon):
            for ratio in (end, float(np.nextafter(end, 0)), float(np.nextafter(end, 9))):
                points += [(ratio, advantage, epsilon) for advantage in (2.0, -1.0, 0.0, 1e-300, -3.0)]
    return points


def _state(page: Page) -> dict[str, str]:
    state: dict[str, str] = page.locator(".cw").evaluate("app => ({...app.dataset})")
    return state


@pytest.fixture
def chapter(page: WatchedPage, site_server: Server) -> Iterator[Page]:
    """The PPO chapter with its widget drawn; afterwards, no console error and nothing fetched off the machine."""
    page.page.goto(site_server.url + "ppo/")
    expect(page.page.locator("figure.grpo-widget .cw")).to_be_visible()
    page.page.wait_for_function(LAID_OUT)  # a block not laid out yet has no innerText
    yield page.page
    assert page.console_errors == []
    assert page.external_requests(site_server) == []


def test_the_port_matches_grpo_examples_exactly_on_every_point_and_at_the_boundaries(chapter: Page) -> None:
    points = _points()
    assert len(points) > 400
    ours = chapter.evaluate(SURROGATE, points)
    for (ratio, advantage, epsilon), js in zip(points, ours, strict=True):
        expected = {
            "unclipped": float(gx.unclipped_term(ratio, advantage)),
            "clipped": float(gx.clipped_term(ratio, advantage, epsilon)),
            "objective": float(gx.clipped_surrogate(ratio, advantage, epsilon)),
            "gradient": float(gx.surrogate_gradient(ratio, advantage, epsilon)),
            "binds": bool(gx.clip_binds(ratio, advantage, epsilon)),
        }
        assert js == expected, (ratio, advantage, epsilon)


def test_the_port_refuses_a_clip_range_outside_0_1(chapter: Page) -> None:
    message = chapter.evaluate("() => { try { window.grpoClip.surrogate(1, 1, 0); } catch (e) { return e.message; } }")
    assert "must lie in (0, 1)" in message


def test_it_opens_on_the_settings_with_the_clip_binding(chapter: Page) -> None:
    # A = +2, eps = 0.2, rho = 1.5: min(3.0, 2.4) = 2.4, the clip binds, gradient 0.
    expect(chapter.locator(".grpo-widget__static")).to_be_hidden()
    state = _state(chapter)
    assert (state["advantage"], state["epsilon"], state["ratio"]) == ("2", "0.2", "1.5")
    assert float(state["objective"]) == 2.4 and float(state["gradient"]) == 0 and state["binds"] == "true"
    expect(chapter.locator(".cw-worked")).to_have_text(
        "L = min(1.5 × 2.0, clip(1.5, 0.8, 1.2) × 2.0) = min(3.0, 2.4) = 2.4"
    )
    expect(chapter.locator(".cw-readout")).to_contain_text("the clipbinds")
    expect(chapter.locator(".cw-note")).to_contain_text("gradient 0, no further push up")
    expect(chapter.locator(".cw")).to_have_class("cw grpo-panel cw--binds")


def test_typing_a_ratio_inside_on_the_edge_and_the_wrong_way(chapter: Page) -> None:
    ratio = chapter.get_by_label("Ratio ρ, exact value")
    ratio.fill("1.2")  # exactly 1 + eps: both terms 2.4, the clip does not bind, gradient A = 2
    state = _state(chapter)
    assert float(state["objective"]) == 2.4 and float(state["gradient"]) == 2 and state["binds"] == "false"
    assert chapter.get_by_label("Ratio ρ", exact=True).input_value() == "1.2"  # the slider follows
    ratio.fill("0.6")  # wrong way: min(1.2, 1.6) = 1.2, the unclipped term, gradient 2
    state = _state(chapter)
    assert float(state["objective"]) == 1.2 and float(state["clipped"]) == 1.6 and float(state["gradient"]) == 2
    expect(chapter.locator(".cw-note")).to_contain_text("pulls it back up")
    expect(chapter.locator(".cw-summary")).to_contain_text("Ratio ρ set to 0.6.")
    box = chapter.locator(".cw-summary").bounding_box()  # spoken, not shown: the panel above shows the same numbers
    assert box is not None and box["width"] <= 1 and box["height"] <= 1


def test_flipping_the_sign_moves_the_flat_part(chapter: Page) -> None:
    chapter.get_by_role("button", name="Flip the sign of A").click()
    # A = -2, rho = 1.5: min(-3.0, -2.4) = -3.0, the unclipped term; gradient A = -2.
    state = _state(chapter)
    assert float(state["advantage"]) == -2 and float(state["objective"]) == -3 and float(state["gradient"]) == -2
    assert chapter.get_by_label("Advantage A, exact value").input_value() == "-2"
    chapter.get_by_label("Ratio ρ, exact value").fill("0.5")
    # A = -2, rho = 0.5: min(-1.0, 0.8 x -2 = -1.6) = -1.6, the clip binds.
    state = _state(chapter)
    assert float(state["objective"]) == -1.6 and state["binds"] == "true" and float(state["gradient"]) == 0
    expect(chapter.locator(".cw-note")).to_contain_text("no further push down")


def test_the_axes_write_their_numbers_as_the_book_does(chapter: Page) -> None:
    # Ratios 0 to 2.5 by halves; A = 2, so rho A reaches 2 x 2.5 = 5 at the top: a whole number, written bare
    # as the static plot's ticks are (it read "5.0"), and with the typographic minus once the sign is flipped.
    ratios = ["0", "0.5", "1", "1.5", "2", "2.5"]
    assert chapter.locator(".cw-ticks text").all_text_contents() == [*ratios, "5", "0", "0.8 to 1.2"]
    chapter.get_by_role("button", name="Flip the sign of A").click()
    assert chapter.locator(".cw-ticks text").all_text_contents() == [*ratios, "\u22125", "0", "0.8 to 1.2"]


def test_a_wider_clip_range_lets_the_ratio_back_in(chapter: Page) -> None:
    chapter.get_by_label("Clip range ε, exact value").fill("0.5")
    # eps = 0.5, range [0.5, 1.5]: rho = 1.5 is on the edge, min(3.0, 3.0) = 3.0, gradient 2.
    state = _state(chapter)
    assert float(state["objective"]) == 3 and state["binds"] == "false"
    expect(chapter.locator(".cw-band-label")).to_have_text("0.5 to 1.5")


def test_the_sliders_work_by_keyboard_with_a_visible_focus(chapter: Page) -> None:
    slider = chapter.get_by_label("Ratio ρ", exact=True)
    slider.focus()
    for _ in range(30):
        chapter.keyboard.press("ArrowLeft")  # 1.5 - 30 x 0.01 = 1.2: inside again
    assert float(_state(chapter)["ratio"]) == pytest.approx(1.2)
    assert _state(chapter)["binds"] == "false"
    assert chapter.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") == "solid"
    chapter.keyboard.press("Tab")
    assert chapter.evaluate("() => document.activeElement.getAttribute('aria-label')") == "Ratio ρ, exact value"
    chapter.keyboard.press("Tab")
    chapter.keyboard.press("Enter")  # the flip button
    assert float(_state(chapter)["advantage"]) == -2


def test_an_out_of_range_number_is_marked_and_then_clamped(chapter: Page) -> None:
    box = chapter.get_by_label("Ratio ρ, exact value")
    box.fill("9")
    assert box.get_attribute("aria-invalid") == "true"
    assert "[invalid]" in box.aria_snapshot()  # what a screen reader is told (aria-invalid="" would read as valid)
    assert_marked_invalid(box, chapter.get_by_label("Advantage A, exact value"))
    expect(box).to_have_accessible_description("Ratio ρ: type a number from 0 to 2.5.")  # the box says why
    # a status (a live region): a screen reader says why as the reason appears, not only on coming back to the box
    expect(chapter.get_by_role("status").filter(has_text="type a number")).to_have_text(
        "Ratio ρ: type a number from 0 to 2.5."
    )
    assert _state(chapter)["ratio"] == "1.5"  # not applied
    box.press("Tab")  # leaving the box puts it back in range: the slider's end, 2.5
    assert box.get_attribute("aria-invalid") is None
    expect(chapter.locator(".cw-error")).to_be_empty()
    assert _state(chapter)["ratio"] == "2.5" and box.input_value() == "2.5"


def test_a_refusal_is_written_once_however_many_keys_keep_it(chapter: Page) -> None:
    """The reason is a live region: written again at every key, a screen reader would say it again at every key."""
    chapter.locator(".cw-error").evaluate(
        """(e) => { window.writes = 0;
          new MutationObserver((m) => { window.writes += m.length; })
            .observe(e, { childList: true, characterData: true, subtree: true }); }"""
    )
    box = chapter.get_by_label("Ratio ρ, exact value")
    box.fill("")  # refused: the reason appears
    box.press_sequentially("999")  # refused at each key, for the same reason
    expect(chapter.locator(".cw-error")).to_have_text("Ratio ρ: type a number from 0 to 2.5.")
    assert chapter.evaluate("() => window.writes") == 1
    box.fill("2")  # accepted: the reason goes, once
    expect(chapter.locator(".cw-error")).to_be_empty()
    assert chapter.evaluate("() => window.writes") == 2


@pytest.mark.parametrize("width", [360, 1280])
def test_a_refusal_moves_nothing_below_it(browser: Browser, site_server: Server, width: int) -> None:
    """The reason has its line kept for it: the drawing under the controls does not jump as it comes and goes."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(site_server.url + "ppo/")
    page.wait_for_function(LAID_OUT)
    drawing = page.locator(".cw-figure")
    before = page_top(drawing)
    page.get_by_label("Ratio ρ, exact value").fill("9")
    expect(page.locator(".cw-error")).to_have_text("Ratio ρ: type a number from 0 to 2.5.")
    assert page_top(drawing) == pytest.approx(before, abs=0.5)  # a line box may round differently: no jump
    context.close()


def test_the_drawing_puts_the_dot_on_the_curve(chapter: Page) -> None:
    title = chapter.locator("svg.cw-plot title").text_content()
    assert title is not None and "ρ = 1.5, L = 2.4" in title
    assert chapter.locator("svg.cw-plot").get_attribute("role") == "img"
    where = (
        "m => { const a = m.getBoundingClientRect(), b = m.ownerSVGElement.getBoundingClientRect();"
        " return [a.x - b.x, a.y - b.y]; }"
    )
    before = chapter.locator(".cw-marker").evaluate(where)
    chapter.get_by_label("Ratio ρ, exact value").fill("1.8")  # still on the flat part: the dot moves right only
    chapter.wait_for_timeout(300)
    after = chapter.locator(".cw-marker").evaluate(where)
    assert after[0] > before[0] + 10 and after[1] == pytest.approx(before[1], abs=0.5)


def test_reduced_motion_turns_the_transition_off(browser: Browser, site_server: Server) -> None:
    durations = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(reduced_motion=motion)
        page = context.new_page()
        page.goto(site_server.url + "ppo/")
        durations[motion] = page.locator(".cw-marker").evaluate("m => getComputedStyle(m).transitionDuration")
        context.close()
    assert durations == {"no-preference": "0.2s", "reduce": "0s"}


@pytest.mark.parametrize("width", [360, 1280])
def test_it_fits_the_screen_in_both_palettes(browser: Browser, site_server: Server, width: int) -> None:
    strokes = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        watched = watch(context.new_page())
        watched.page.goto(site_server.url + "ppo/")
        widget = watched.page.locator(".cw").bounding_box()
        assert widget is not None and widget["x"] >= 0 and widget["x"] + widget["width"] <= width
        font = watched.page.locator("svg.cw-plot text").first.evaluate("t => t.getBoundingClientRect().height")
        assert font >= 9  # tick labels stay readable on a phone
        strokes[scheme] = watched.page.locator(".cw-objective").evaluate("p => getComputedStyle(p).stroke")
        assert watched.console_errors == []
        context.close()
    assert strokes["light"] != strokes["dark"]


def test_without_javascript_the_cases_table_shows(browser: Browser, site_server: Server) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_server.url + "ppo/")
    static = page.locator("figure[data-widget-kind='clip'] .grpo-widget__static")
    expect(static).to_be_visible()
    expect(static.locator("table tbody tr")).to_have_count(len(gx.chapter("ppo").cases))
    expect(page.locator(".cw")).to_have_count(0)
    context.close()


def test_it_draws_after_following_a_link_and_coming_back(page: WatchedPage, site_server: Server) -> None:
    page.page.goto(site_server.url)
    page.page.get_by_role("link", name="PPO: the clipped objective and the critic").first.click()
    page.page.wait_for_url("**/ppo/")
    expect(page.page.locator("figure.grpo-widget .cw")).to_have_count(1)
    assert float(_state(page.page)["objective"]) == 2.4
    page.page.get_by_role("link", name="Home").first.click()
    page.page.wait_for_url(site_server.url)
    page.page.go_back()
    expect(page.page.locator("figure.grpo-widget .cw")).to_have_count(1)
    assert page.console_errors == []
    assert page.external_requests(site_server) == []


def test_a_port_that_disagrees_with_numpy_is_reported_in_the_console(
    browser: Browser, site_server: Server, built_site: Path
) -> None:
    """Tamper with one of numpy's embedded results: the script's check on load must say so."""
    html = (built_site / "ppo" / "index.html").read_text(encoding="utf-8")
    found = re.search(r'(<script[^>]*class="grpo-widget__data"[^>]*>)(.*?)(</script>)', html, re.S)
    assert found is not None
    data = json.loads(found.group(2))
    data[0]["numpy_points"][0][5] += 1.0  # the objective L of the first point
    tampered = html[: found.start(2)] + script_json(data) + html[found.end(2) :]
    context = browser.new_context()
    watched = watch(context.new_page())
    watched.page.route("**/ppo/", lambda route: route.fulfill(body=tampered, content_type="text/html"))
    watched.page.goto(site_server.url + "ppo/")
    expect(watched.page.locator(".cw")).to_be_visible()
    assert any("clip widget: objective" in error for error in watched.console_errors)
    context.close()
