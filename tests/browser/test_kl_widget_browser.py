"""The KL-estimator widget in a real Chromium, on the real build: the port against numpy, then every control.

The UI is driven through the DOM contract in docs/guide/widgets.md. Expected values are numpy's
(grpo_examples.kl_estimators), or worked by hand in the comments.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

import grpo_examples as gx
from scripts.page_ready import LAID_OUT
from tests.browser.conftest import WatchedPage, assert_marked_invalid, page_top, watch
from tests.conftest import Server

URL = "grpo-in-practice/"
FIGURE = 'figure.grpo-widget[data-widget-kind="kl"]'
PORT = (
    "points => points.map(([t, r]) => {"
    " const w = window.grpoKlWidget, x = w.logRatio(t, r); return [x, w.k1(x), w.k2(x), w.k3(x)]; })"
)


def _numpy(theta: float, ref: float) -> list[float]:
    x = float(gx.log_ratio(theta, ref))
    return [x, *(float(gx.ESTIMATORS[name](x)) for name in ("k1", "k2", "k3"))]


def _close(js: float, py: float) -> bool:
    return abs(js - py) <= 1e-12 * max(1.0, abs(py))


@pytest.fixture
def widget(page: WatchedPage, site_server: Server) -> Iterator[Page]:
    """The chapter with its KL widget drawn; afterwards, no console error and nothing fetched off the machine."""
    page.page.goto(site_server.url + URL)
    expect(page.page.locator(f"{FIGURE} .klw")).to_be_visible()
    page.page.wait_for_function(LAID_OUT)  # a block not laid out yet has no innerText
    yield page.page
    assert page.console_errors == []
    assert page.external_requests(site_server) == []


def _value(page: Page, key: str) -> float:
    return float(page.locator(f'.klw-values dd[data-estimate="{key}"]').get_attribute("data-value") or "nan")


def _shown(page: Page, key: str) -> str:
    shown: str = page.locator(f'.klw-values dd[data-estimate="{key}"]').inner_text()
    return shown


def _slider(page: Page, symbol: str) -> Locator:
    return page.get_by_role("slider", name={"theta": "the policy in training", "ref": "the frozen reference"}[symbol])


def _number(page: Page, symbol: str) -> Locator:
    words = {"theta": "the policy in training", "ref": "the frozen reference"}[symbol]
    return page.get_by_role("spinbutton", name=f"{words}, as a number")


def test_the_port_matches_numpy_on_a_thousand_points_and_extreme_ratios(widget: Page) -> None:
    rng = np.random.default_rng(20250317)
    points = (10.0 ** rng.uniform(-9, 0, size=(1000, 2))).tolist()
    points += [[1e-9, 1.0], [1.0, 1e-9], [1e-6, 1.0], [1.0, 1e-6], [0.5, 0.5], [1.0, 1.0], [0.3, 0.3 + 1e-12]]
    ours = widget.evaluate(PORT, points)
    for (theta, ref), js in zip(points, ours, strict=True):
        expected = _numpy(theta, ref)
        assert all(_close(a, b) for a, b in zip(js, expected, strict=True)), (theta, ref, js, expected)
    # A ratio of a billion: k3 = 1e9 - 1 - ln 1e9 = 999999978.2767; the other way, k3 = 1e-9 - 1 + 20.7233 = 19.7233.
    assert ours[-7][3] == pytest.approx(1e9 - 1 - 9 * math.log(10), rel=1e-12)
    assert ours[-6][3] == pytest.approx(1e-9 - 1 + 9 * math.log(10), rel=1e-12)
    assert ours[-3] == [0, 0, 0, 0]  # pi_theta = pi_ref: log r = 0, and every estimator is 0


def test_it_opens_on_the_worked_token(widget: Page) -> None:
    expect(widget.locator(f"{FIGURE} .grpo-widget__static")).to_be_hidden()
    assert widget.get_by_label("“56”", exact=True).is_checked()
    assert _slider(widget, "theta").input_value() == "0.8" and _number(widget, "ref").input_value() == "0.5"
    # r = 0.625; k1 = ln 1.6 = 0.470004; k3 = 0.625 - 1 + 0.470004 = 0.095004.
    assert _value(widget, "ratio") == pytest.approx(0.625)
    assert _value(widget, "k1") == pytest.approx(0.470004, abs=1e-6)
    assert _value(widget, "k3") == pytest.approx(0.095004, abs=1e-6)
    assert _shown(widget, "k3") == "≈\u00a00.0950"
    expect(widget.locator(".klw-summary")).to_contain_text("k3 ≈ 0.0950")


def test_a_token_the_reference_prefers_has_a_negative_k1_and_a_positive_k3(widget: Page) -> None:
    widget.get_by_label("“54”", exact=True).check()
    # pi_theta 0.1, pi_ref 0.2: r = 2; k1 = -ln 2 = -0.693147, k3 = 1 - ln 2 = 0.306853.
    assert _value(widget, "k1") == pytest.approx(-0.693147, abs=1e-6)
    assert _shown(widget, "k1") == "≈\u00a0−0.6931 (negative)"
    expect(widget.locator('.klw-values dd[data-estimate="k1"]')).to_have_class("klw-negative")
    assert _value(widget, "k3") == pytest.approx(0.306853, abs=1e-6)
    expect(widget.locator(".klw-note")).to_contain_text("k1 is negative")
    expect(widget.locator(".klw-summary")).to_contain_text("Token “54”")
    expect(widget.locator(".klw-summary")).to_contain_text("k1 is negative; k3 is not.")


def test_the_sliders_move_by_keyboard_and_the_values_follow_numpy(widget: Page) -> None:
    slider = _slider(widget, "theta")
    slider.focus()
    assert widget.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") == "solid"
    widget.keyboard.press("ArrowRight")  # one step of 0.001: 0.8 -> 0.801
    assert float(slider.input_value()) == pytest.approx(0.801)
    assert _number(widget, "theta").input_value() == "0.801"
    assert _value(widget, "k3") == pytest.approx(_numpy(0.801, 0.5)[3], rel=1e-12)
    expect(widget.locator(".klw-summary")).to_contain_text("set to 0.801")
    widget.keyboard.press("End")  # pi_theta = 1: r = 0.5, k3 = 0.5 - 1 + ln 2 = 0.193147
    assert _value(widget, "k3") == pytest.approx(0.193147, abs=1e-6)
    ref = _slider(widget, "ref")
    ref.focus()
    widget.keyboard.press("Home")  # pi_ref = 0.001: log r = ln 0.001 = -6.907755, off the drawing's scale
    assert _value(widget, "log-ratio") == pytest.approx(math.log(0.001), rel=1e-12)
    expect(widget.locator(".klw-marker")).to_have_class("klw-marker klw-marker--off")
    expect(widget.locator(".klw-off")).to_contain_text("off the scale")
    assert _value(widget, "k3") == pytest.approx(_numpy(1.0, 0.001)[3], rel=1e-12)


def test_a_typed_probability_reaches_ratios_of_a_million(widget: Page) -> None:
    _number(widget, "theta").fill("0.000001")
    _number(widget, "ref").fill("1")
    # r = 1e6: log r = 13.815511, k1 = -13.815511, k3 = 1e6 - 1 - 13.815511 = 999985.184489.
    assert _value(widget, "k3") == pytest.approx(999985.184489, abs=1e-6)
    assert _value(widget, "k1") == pytest.approx(-13.815511, abs=1e-6)
    assert _slider(widget, "theta").input_value() == "0.001"  # the slider shows its end; the number is exact
    expect(widget.locator(".klw-marker")).to_have_class("klw-marker klw-marker--off")


def test_a_number_out_of_range_is_refused_and_the_last_valid_value_comes_back(widget: Page) -> None:
    number = _number(widget, "theta")
    number.fill("0")
    assert number.get_attribute("aria-invalid") == "true"
    assert "[invalid]" in number.aria_snapshot()
    assert_marked_invalid(number, _number(widget, "ref"))
    expect(widget.get_by_role("status").filter(has_text="Type a probability")).to_have_text(  # heard as it appears
        "Type a probability from 0.000001 to 1."
    )
    expect(number).to_have_accessible_description("Type a probability from 0.000001 to 1.")
    assert _value(widget, "k3") == pytest.approx(0.095004, abs=1e-6)  # unchanged: still 0.8 against 0.5
    number.fill("1.5")
    assert number.get_attribute("aria-invalid") == "true"
    number.blur()
    assert number.input_value() == "0.8" and "[invalid]" not in number.aria_snapshot()
    expect(widget.locator(".klw-error")).to_be_empty()


@pytest.mark.parametrize("width", [360, 1280])
def test_a_refusal_moves_nothing_below_it(browser: Browser, site_server: Server, width: int) -> None:
    """The reason has its line kept for it: the values under the controls do not jump as it comes and goes."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(site_server.url + URL)
    page.wait_for_function(LAID_OUT)
    values = page.locator(f"{FIGURE} .klw-values")
    before = page_top(values)
    _number(page, "theta").fill("0")
    expect(page.locator(f"{FIGURE} .klw-error")).to_have_text("Type a probability from 0.000001 to 1.")
    assert page_top(values) == pytest.approx(before, abs=0.5)  # a line box may round differently: no jump
    context.close()


def test_equal_probabilities_give_zero_everywhere(widget: Page) -> None:
    _number(widget, "theta").fill("0.5")
    assert [_value(widget, k) for k in ("log-ratio", "k1", "k2", "k3")] == [0, 0, 0, 0]
    expect(widget.locator(".klw-note")).to_contain_text("every estimator is 0")


def test_the_token_choice_works_by_keyboard_with_a_visible_focus(widget: Page) -> None:
    widget.get_by_label("“56”", exact=True).focus()
    widget.keyboard.press("ArrowRight")
    assert widget.get_by_label("“54”", exact=True).is_checked()
    outline = widget.evaluate("() => getComputedStyle(document.activeElement.nextElementSibling).outlineStyle")
    assert outline == "solid"
    assert _slider(widget, "theta").input_value() == "0.1"


def test_the_drawing_is_an_accessible_image_with_three_curves(widget: Page) -> None:
    plot = widget.locator("svg.klw-plot")
    assert plot.get_attribute("role") == "img"
    labelled = (plot.get_attribute("aria-labelledby") or "").split()
    assert len(labelled) == 2 and all(widget.locator(f"#{i}").count() == 1 for i in labelled)
    assert widget.locator(".klw-curve").evaluate_all("c => c.map(e => e.dataset.estimate)") == ["k3", "k1", "k2"]
    expect(widget.locator("svg.klw-plot desc")).to_contain_text("never negative")


@pytest.mark.parametrize(
    ("data_range", "said"),
    [("[-3.0,3.0]", "from −3 to 3:"), ("[0.5,2.0]", "from 0.5 to 2:"), ("[-2.5,-0.5]", "from −2.5 to −0.5:")],
)
def test_the_description_writes_the_axis_range_as_the_ticks_do(
    browser: Browser, site_server: Server, data_range: str, said: str
) -> None:
    """The drawing's range is the page's data (hooks/chapters/practice.py LOG_RATIO_RANGE, −3 to 3 today); a page
    may hand the widget another, and its description writes either end as the book writes a number."""
    context = browser.new_context()
    watched = watch(context.new_page())

    def other_range(route):  # type: ignore[no-untyped-def]
        response = route.fetch()
        body = response.text().replace('"log_ratio_range":[-3.0,3.0]', f'"log_ratio_range":{data_range}', 1)
        assert data_range in body
        route.fulfill(response=response, body=body)

    watched.page.route("**/grpo-in-practice/", other_range)
    watched.page.goto(site_server.url + URL)
    expect(watched.page.locator("svg.klw-plot desc")).to_contain_text(f"Three curves over log r {said}")
    assert watched.console_errors == []
    context.close()


def test_it_fits_a_360_pixel_screen_in_both_palettes(browser: Browser, site_server: Server) -> None:
    strokes = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 360, "height": 800}, color_scheme=scheme)
        watched = watch(context.new_page())
        watched.page.goto(site_server.url + URL)
        expect(watched.page.locator(".klw")).to_be_visible()
        assert watched.page.evaluate("() => document.documentElement.scrollWidth") <= 360
        box = watched.page.locator(".klw").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        strokes[scheme] = watched.page.locator('.klw-curve[data-estimate="k3"]').evaluate(
            "c => getComputedStyle(c).stroke"
        )
        assert watched.console_errors == []
        context.close()
    assert strokes["light"] != strokes["dark"]


def test_reduced_motion_turns_the_marker_transition_off(browser: Browser, site_server: Server) -> None:
    durations = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(reduced_motion=motion)
        page = context.new_page()
        page.goto(site_server.url + URL)
        expect(page.locator(".klw--ready")).to_have_count(1)
        durations[motion] = page.locator(".klw-dot").first.evaluate("d => getComputedStyle(d).transitionDuration")
        context.close()
    assert durations == {"no-preference": "0.2s", "reduce": "0s"}


def test_without_javascript_and_in_print_the_static_table_shows(browser: Browser, site_server: Server) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_server.url + URL)
    static = page.locator(f"{FIGURE} .grpo-widget__static")
    expect(static).to_be_visible()
    expect(static.locator("table")).to_contain_text("token “56”")
    expect(page.locator(".klw")).to_have_count(0)
    context.close()
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_server.url + URL)
    expect(page.locator(".klw")).to_be_visible()
    page.emulate_media(media="print")
    expect(page.locator(f"{FIGURE} .grpo-widget__static")).to_be_visible()
    context.close()


def test_it_draws_after_following_a_link_and_coming_back(page: WatchedPage, site_server: Server) -> None:
    page.page.goto(site_server.url + "grpo/")
    page.page.get_by_role("link", name="GRPO in practice").first.click()
    page.page.wait_for_url("**/grpo-in-practice/")
    expect(page.page.locator(f"{FIGURE} .klw")).to_have_count(1)
    page.page.get_by_label("“48”", exact=True).check()
    assert _value(page.page, "k3") == pytest.approx(3 - math.log(4), abs=1e-12)  # r = 0.2 / 0.05 = 4
    # Away and back: one widget again.
    page.page.get_by_role("link", name="Group Relative Policy Optimization").first.click()
    page.page.wait_for_url("**/grpo/")
    page.page.go_back()
    expect(page.page.locator(f"{FIGURE} .klw")).to_have_count(1)
    assert page.console_errors == []
    assert page.external_requests(site_server) == []


def test_a_port_that_disagrees_with_numpy_is_reported_in_the_console(browser: Browser, site_server: Server) -> None:
    """The self-check can fail: serve the page with one of numpy's points altered, and the console says so."""
    context = browser.new_context()
    watched = watch(context.new_page())

    def altered(route):  # type: ignore[no-untyped-def]
        response = route.fetch()
        body = response.text().replace("[1e-06,1e-06,0.0,-0.0,0.0,0.0]", "[1e-06,1e-06,0.0,-0.0,0.0,0.5]", 1)
        route.fulfill(response=response, body=body)

    watched.page.route("**/grpo-in-practice/", altered)
    watched.page.goto(site_server.url + URL)
    expect(watched.page.locator(".klw")).to_be_visible()
    assert any("kl widget: k3 = 0 differs from grpo_examples' 0.5" in e for e in watched.console_errors)
    context.close()
