"""The widgets' shared runtime (window.grpoWidgets, docs/assets/javascripts/widget-runtime.js) in a real Chromium.

Its number format is the one copy every widget prints with, and it must print each number as the build's
formatter does, or a widget would contradict the table the build wrote under it. Agreeing means the same
string, character for character ('≈ ', '−', '+' and every digit): both sides round the same IEEE double, so
any difference is a bug, not round-off. The widget scripts must not grow a copy of their own again.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from itertools import product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, Page, Route, expect

from hooks.engine.numbers import MAX_DECIMALS, decimal, short
from tests.browser.conftest import WatchedPage, watch
from tests.conftest import Server

FORMATS = list(product((1, 2, 3, 4), (False, True)))  # (places, signed)
# Each value as the page received it (its shortest decimal, and whether it is −0), then its text in each format.
FORMAT_ALL = """([values, formats]) => values.map(x => [String(x), Object.is(x, -0),
  ...formats.map(([places, signed]) => window.grpoWidgets.format(x, places, signed))])"""

# From 1e21 on, toFixed writes an exponent ("1e+21") where Python writes every digit. No widget comes near:
# the largest number one prints is a probability ratio, at most a million.
LARGEST = 1e20

EDGE_CASES = [
    0.0,
    -0.0,
    0.5,
    0.05,
    1 / 3,
    2 / 3,
    0.44721359549995793,  # 1/√5 and −4/√5: the easy group's advantages under a sample std without eps
    -1.7888543819998317,
    1e-5,
    123456.789,
    0.49999999999999994,  # the float below 0.5, within round-off of it: "0.5"
    2.5000000000001,  # 1e-13 above 2.5, within round-off of it: "2.5"
    0.1 + 0.2,
    -0.00004,  # rounds to 0 at four places: no minus sign on "0.0000"
    -0.00005,  # a float just beyond the tie: "≈ −0.0001"
    1e-13,
    -1e-13,
    5e-324,  # the smallest float
    2.675,  # a float just below the tie: "≈ 2.67" at two places
    1.005,
    # Floats exactly halfway between two decimals of the places shown: Python rounds them to the even digit,
    # JavaScript's toFixed away from zero.
    0.25,
    0.125,
    -0.375,
    0.0625,
    0.03125,
    -0.03125,
    0.09375,
    1e12 + 0.25,
    9.99995,  # a float just beyond the tie, carried into every digit: "≈ 10.0000"
    -0.99995,
    99.99999,
    4503599627370495.5,  # 2^52 − 0.5, the largest float with a fraction
    1e15 + 0.3,  # the float is 1e15 + 0.25, halfway at one place
    LARGEST,
    -LARGEST,
]

# The floats a widget prints, and the ones where rounding is decided: any float in range (Hypothesis favours
# the awkward ones), a mantissa at every magnitude, a float within a few ulps or within the 1e-12 of round-off
# of a short decimal, and the odd multiples of 2^-(p + 1), halfway between two p-place decimals.
_short_decimals = st.builds(lambda whole, places: whole / 10**places, st.integers(-(10**7), 10**7), st.integers(1, 5))
_halfway = st.builds(lambda n, places: (2 * n + 1) / 2 ** (places + 1), st.integers(-(10**6), 10**6), st.integers(1, 4))
VALUES = st.one_of(
    st.floats(min_value=-LARGEST, max_value=LARGEST),
    st.builds(lambda mantissa, exponent: mantissa * 10.0**exponent, st.floats(-10, 10), st.integers(-9, 19)),
    st.builds(lambda d, ulps: d + ulps * math.ulp(d), _short_decimals, st.integers(-4, 4)),
    st.builds(lambda d, slack: d * (1 + slack * 1e-12), _short_decimals, st.floats(-3, 3)),
    _halfway,
)


@pytest.fixture
def runtime(page: WatchedPage, site_server: Server) -> Iterator[Page]:
    """A page with a widget, which the loader gives the runtime."""
    page.page.goto(site_server.url + "grpo/")
    page.page.wait_for_function("() => window.grpoWidgets !== undefined")
    yield page.page
    assert page.console_errors == []


def _python(value: float) -> list[str]:
    return [decimal(value, places).prose(signed) for places, signed in FORMATS]


def _disagreements(page: Page, values: list[float]) -> list[tuple[float, int, bool, str, str]]:
    """(value, places, signed, the runtime's text, Python's text) for every format where the two differ."""
    found = []
    for value, (received, negative_zero, *ours) in zip(
        values, page.evaluate(FORMAT_ALL, [values, FORMATS]), strict=True
    ):
        # The very float Python formats, −0 included: else a passing test could prove nothing about it.
        assert float(received) == value and negative_zero == (math.copysign(1, value) < 0 and value == 0), value
        theirs = _python(value)
        found += [(value, *f, js, py) for f, js, py in zip(FORMATS, ours, theirs, strict=True) if js != py]
    return found


def test_format_prints_the_edge_cases_as_the_build_does(runtime: Page) -> None:
    assert _disagreements(runtime, EDGE_CASES) == []


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(VALUES, min_size=50, max_size=50))
def test_format_prints_any_float_as_the_build_does(runtime: Page, values: list[float]) -> None:
    assert _disagreements(runtime, values) == []


SHORT_ALL = """([values, places]) => values.map(x => [false, true].map(
  signed => window.grpoWidgets.short(x, places, signed)))"""


def test_short_writes_counts_and_axis_labels_as_the_build_does(runtime: Page) -> None:
    values = [*EDGE_CASES, 1.0, 2.0, -2.0, 100.0, -3.0, 0.25, -0.5, 12345678.0, 1e20 + 2**17, -1e22]
    ours = runtime.evaluate(SHORT_ALL, [values, MAX_DECIMALS])
    assert [[short(x), short(x, signed=True)] for x in values] == ours
    assert ours[values.index(-2.0)] == ["\u22122", "\u22122"] and ours[values.index(2.0)] == ["2", "+2"]


# A helper of the runtime defined again in a widget's script, as each once was (the KL widget's SVG helper was
# `svg`): `function format(`, `const MINUS =`, and so on. Taking them from window.grpoWidgets is no copy.
_SHARED = "format|short|el|svgEl|refusalMessage|typedNumber|judge|selfCheck|boot"
OWN_COPY = re.compile(rf"\bfunction\s+(?:{_SHARED}|svg)\s*\(|\b(?:const|let|var)\s+(?:MINUS|{_SHARED})\s*=")


def test_no_widget_script_carries_a_copy_of_the_runtime(runtime: Page, site_server: Server, built_site: Path) -> None:
    scripts = sorted(p.name for p in (built_site / "assets" / "javascripts").glob("*-widget.js"))
    assert {"group-widget.js", "clip-widget.js", "kl-widget.js"} <= set(scripts)
    for name in scripts:
        response = runtime.request.get(f"{site_server.url}assets/javascripts/{name}")
        assert response.ok, name
        source = response.text()
        assert OWN_COPY.findall(source) == [], name
        assert "window.grpoWidgets" in source, name
        # The runtime's start-up and SVG helper, written out again
        assert "document$" not in source and "createElementNS" not in source, name
        # and the refusal of a typed number: the runtime's judge() alone marks a box invalid
        assert "aria-invalid" not in source, name


def test_a_page_without_a_widget_loads_no_widget_code(page: WatchedPage, site_server: Server) -> None:
    page.page.goto(site_server.url + "glossary/")
    page.page.wait_for_load_state("load")
    scripts = [url.rsplit("/", 1)[-1] for url in page.requests if url.endswith(".js")]
    assert "widgets.js" in scripts
    assert [s for s in scripts if s.endswith("-widget.js") or s == "widget-runtime.js"] == []
    assert page.page.evaluate("() => window.grpoWidgets === undefined")


def test_a_group_port_that_disagrees_with_numpy_is_reported_in_the_console(
    browser: Browser, site_server: Server
) -> None:
    """The group widget's self-check, through the runtime's, can fail: alter one of numpy's advantages."""
    context = browser.new_context()
    watched = watch(context.new_page())

    def altered(route: Route) -> None:
        response = route.fetch()
        body = response.text().replace('"population":[0.4999999999999999,', '"population":[0.4999,', 1)
        route.fulfill(response=response, body=body)

    watched.page.route("**/grpo/", altered)
    watched.page.goto(site_server.url + "grpo/")
    expect(watched.page.locator("figure.grpo-widget .gw")).to_be_visible()
    assert [e for e in watched.console_errors if "group widget: advantage" in e] == [
        "group widget: advantage = 0.4999999999999999 differs from grpo_examples' 0.4999 (easy, population, response 1)"
    ]
    context.close()
